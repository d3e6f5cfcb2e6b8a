import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../src/db/index.ts';
import { createExport } from '../src/services/security/exports/exports.ts';
import { addMember, buildUser, expectStatus, request } from './harness.ts';

/**
 * The fuzz run's "after losing access" and "through another route" rows: callers who must not be
 * shown the world's private records, and a check of every answer they get. The world's private
 * records carry markers in their text: `reporters` in what a Guest is refused (merge requests,
 * commits and branches, a confidential issue, vulnerabilities, a former member's export files),
 * `members` in what only members read (an issue of the private project). The callers:
 *
 * - a Guest of the world's group, refused the `reporters` records on their own routes;
 * - a former member: a Developer who asked for a vulnerability and a dependency list export (their
 *   files hold `reporters` text), put the project on their security dashboard, pushed and opened a
 *   merge request, then was removed from the group and the project;
 * - anonymous callers (the world's group and project are private).
 *
 * Whatever a fuzzed request to any route answers them (a list, a feed, a file, an error), it may
 * not hold a marker they are refused, while the world stays as it was made (private, the Guest a
 * Guest, the former member no member): a leak is reported with the request that shows it.
 */
export const MARKERS = { reporters: 'fuzzsecretcodeq7z', members: 'fuzzmembersonlyk3x' } as const;

export interface RefusedCallers {
  guest: { id: number; token: string };
  former: { id: number; token: string };
  /** The former member's exports (their own records, of the world's project). */
  exports: { vulnerability: number; dependency_list: number };
}

const ok = async (p: string, init: Parameters<typeof request>[1], status: number) => {
  const res = await request(p, init);
  expectStatus(res, status);
  return res.body;
};

export async function buildRefusedCallers(): Promise<RefusedCallers> {
  const [guest, former] = [await buildUser(), await buildUser()];
  return { guest: { id: guest.user.id, token: guest.token }, former: { id: former.user.id, token: former.token }, exports: { vulnerability: 0, dependency_list: 0 } };
}

/** Where the former member's export files are written: one folder for this process, removed when it exits. */
let exportFiles: string | undefined;
function exportsDir(): string {
  if (!exportFiles) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-fuzz-exports-'));
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    exportFiles = dir;
  }
  return exportFiles;
}

/**
 * Makes (again, after a fuzzed DELETE took the group or project away) what the refused callers
 * stand for in the world's group and project: the Guest's role, the former member's records and
 * then their removal.
 */
export async function placeRefusedCallers(db: Db, callers: RefusedCallers, world: { group: { id: number }; project: { id: number } }): Promise<void> {
  const guestRole = await db.selectFrom('members').select('id').where('source_type', '=', 'group').where('source_id', '=', world.group.id).where('user_id', '=', callers.guest.id).executeTakeFirst();
  if (!guestRole) await addMember('groups', world.group.id, callers.guest.id, 10);
  const former = callers.former;
  await addMember('groups', world.group.id, former.id, 30);
  const branch = `former-${world.project.id}`;
  await ok(`/projects/${world.project.id}/repository/commits`, { method: 'POST', token: former.token, json: { branch, start_branch: 'main', commit_message: `fuzz: former ${MARKERS.reporters}`, actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'f' }] } }, 201);
  await ok(`/projects/${world.project.id}/merge_requests`, { method: 'POST', token: former.token, json: { source_branch: branch, target_branch: 'main', title: `former ${MARKERS.reporters}` } }, 201);
  await ok('/security/dashboard/projects', { method: 'POST', token: former.token, json: { project_id: world.project.id } }, 201);
  for (const kind of ['vulnerability', 'dependency_list'] as const) {
    // Finished, with the file it wrote while they could read the project (this run has no workers).
    const made = await createExport(db, { kind, authorId: former.id, exportable: { project_id: world.project.id }, format: 'csv', sendEmail: false, oneAtATime: false });
    const file = path.join(exportsDir(), `export-${made.id}.csv`);
    fs.writeFileSync(file, `Title\nfinding ${MARKERS.reporters}\n`);
    await db.updateTable('exports').set({ status: 'finished', file_path: file, file_size: fs.statSync(file).size }).where('id', '=', made.id).execute();
    callers.exports[kind] = made.id;
  }
  await ok(`/groups/${world.group.id}/members/${former.id}`, { method: 'DELETE' }, 204);
}

/** The caller a fuzz case is sent as, when it is one who is refused something. */
export type RefusedAs = 'guest' | 'former' | 'anonymous';

/**
 * The marker a refused caller was shown, if any, while the world still refuses it to them: the
 * group and project private, the Guest below Reporter, the former member no member.
 */
export async function leakIn(db: Db, callers: RefusedCallers, world: { group: { id: number }; project: { id: number } }, as: RefusedAs, text: string): Promise<string | undefined> {
  const refused = as === 'guest' ? [MARKERS.reporters] : [MARKERS.reporters, MARKERS.members];
  const shown = refused.find((m) => text.includes(m));
  if (!shown) return undefined;
  const group = await db.selectFrom('groups').select('visibility').where('id', '=', world.group.id).executeTakeFirst();
  const project = await db.selectFrom('projects').select('visibility').where('id', '=', world.project.id).executeTakeFirst();
  if (group?.visibility !== 'private' || project?.visibility !== 'private') return undefined;
  if (as !== 'anonymous') {
    const user = as === 'guest' ? callers.guest.id : callers.former.id;
    const roles = await db.selectFrom('members').select('access_level').where('user_id', '=', user).where((eb) => eb.or([eb.and([eb('source_type', '=', 'group'), eb('source_id', '=', world.group.id)]), eb.and([eb('source_type', '=', 'project'), eb('source_id', '=', world.project.id)])])).execute();
    const level = Math.max(0, ...roles.map((r) => r.access_level));
    if (as === 'guest' ? level >= 20 : level > 0) return undefined;
  }
  return shown;
}
