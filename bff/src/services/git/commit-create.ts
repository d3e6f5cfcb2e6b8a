import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveCommit } from './branches.ts';
import { lastCommitOf } from './commits.ts';
import { git, gitSucceeds, gitText } from './git-run.ts';
import { badRequest, DomainError, forbidden } from '../../util/errors.ts';
import { ZERO_SHA, type RefUpdate } from './push-git.ts';
import { refUpdateRefusals } from './push-checks.ts';
import { recordPush, type PushedTo } from './push-events.ts';
import { mayPushBranch, type WriterRole } from './protected-refs.ts';
import type { UserRow } from '../../db/schema.ts';
import type { CommitAction, CommitCreateBody } from '../../../../shared/src/commits.ts';

const ZERO = '0000000000000000000000000000000000000000';

export interface CommitWriter {
  name: string;
  email: string;
  /** May the writer push to this branch (its protection)? The platform's 403 when not. */
  mayPushTo?: (branch: string) => Promise<boolean>;
  /**
   * What a push of this commit would be refused for (the project's push rule), checked before
   * the branch moves, as the platform checks commits made through the API; none: accept.
   */
  check?: (update: RefUpdate) => Promise<string[]>;
}

/** A file changed since the writer's `last_commit_id`: the commits API's 400 (the files API words its own). */
export class FileChangedError extends DomainError {
  constructor(readonly path: string) {
    super('bad_request', `The file has changed since you started editing it: ${path}`);
  }
}

interface Entry {
  mode: string;
  sha: string;
}

/**
 * One commit of several file changes on a branch, as the platform's `POST .../commits` makes
 * it, with git plumbing on the bare repository: blobs written with `hash-object`, the parent's
 * tree read into a temporary index, the actions applied there, `write-tree`, `commit-tree`, and
 * `update-ref` from the branch's old value, so a push that moved the branch meanwhile makes this
 * fail cleanly instead of being overwritten. Answers the branch's move (its `after` is the new
 * commit), which fires the push events a push of it would.
 */
export async function createCommit(dir: string, body: CommitCreateBody, writer: CommitWriter): Promise<RefUpdate> {
  const branch = body.branch;
  if (branch.startsWith('-') || !(await gitSucceeds(dir, ['check-ref-format', '--branch', branch]))) {
    throw badRequest(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
  }
  if (writer.mayPushTo && !(await writer.mayPushTo(branch))) throw forbidden('You are not allowed to push into this branch');

  const current = await resolveCommit(dir, `refs/heads/${branch}`);
  const parent = await startingPoint(dir, branch, current, body);
  const index = path.join(await fs.promises.mkdtemp(path.join(os.tmpdir(), 'gatehouse-index-')), 'index');
  try {
    const env = { GIT_INDEX_FILE: index };
    await git(dir, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env });
    const entries = await readIndex(dir, env);
    const updates = await applyActions(dir, parent, entries, body.actions);
    await git(dir, ['update-index', '-z', '--index-info'], { env, input: updates });
    const tree = (await gitText(dir, ['write-tree'], { env })).trim();
    const identity = {
      GIT_AUTHOR_NAME: body.author_name || writer.name,
      GIT_AUTHOR_EMAIL: body.author_email || writer.email,
      GIT_COMMITTER_NAME: writer.name,
      GIT_COMMITTER_EMAIL: writer.email,
    };
    const args = ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'];
    const sha = (await gitText(dir, args, { env: identity, input: body.commit_message })).trim();
    const update: RefUpdate = { before: current ?? ZERO_SHA, after: sha, ref: `refs/heads/${branch}` };
    const refused = (await writer.check?.(update)) ?? [];
    if (refused.length) throw badRequest(refused.join('\n'));
    try {
      // The old value (empty: the branch must not exist) makes git refuse a branch that moved.
      await git(dir, ['update-ref', '-m', 'commit via the API', `refs/heads/${branch}`, sha, current ?? '']);
    } catch {
      throw badRequest(`Could not update ${branch}. Please refresh and try again.`);
    }
    return update;
  } finally {
    await fs.promises.rm(path.dirname(index), { recursive: true, force: true });
  }
}

/**
 * A commit made through the API, treated as a push of it would be: checked against the
 * project's push rule before the branch moves, then a push event and the "pushed" activity.
 * Answers the new commit's id.
 */
export async function commitAsPush(
  to: PushedTo & { defaultBranch: string; user: UserRow; role: WriterRole },
  body: CommitCreateBody,
): Promise<string> {
  const { db, dir, project, defaultBranch, user, role } = to;
  const check = (update: RefUpdate) => refUpdateRefusals({ ...to, write: { role, via: 'web' } }, [update]);
  const mayPushTo = (branch: string) => mayPushBranch(db, dir, project, branch, defaultBranch, role);
  const update = await createCommit(dir, body, { name: user.name, email: user.email, mayPushTo, check });
  await recordPush(to, [update]);
  return update.after;
}

/** The commit the new one follows: the branch itself, `start_branch`, `start_sha`, or none in an empty repository. */
async function startingPoint(dir: string, branch: string, current: string | undefined, body: CommitCreateBody): Promise<string | undefined> {
  const newBranch = (body.start_branch !== undefined && body.start_branch !== branch) || body.start_sha !== undefined;
  if (newBranch && current && !body.force) {
    throw badRequest(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (body.start_sha) {
    const sha = await resolveCommit(dir, body.start_sha);
    if (!sha) throw badRequest(`Cannot find start_sha '${body.start_sha}'`);
    return sha;
  }
  const start = body.start_branch ?? branch;
  const sha = start === branch ? current : await resolveCommit(dir, `refs/heads/${start}`);
  if (sha) return sha;
  if (await isEmpty(dir)) return undefined;
  throw badRequest('You can only create or edit files when you are on a branch');
}

const isEmpty = async (dir: string) => (await gitText(dir, ['for-each-ref', '--count=1', '--format=x', 'refs/heads'])).trim() === '';

async function readIndex(dir: string, env: Record<string, string>): Promise<Map<string, Entry>> {
  const out = await gitText(dir, ['ls-files', '-z', '--stage'], { env });
  const entries = new Map<string, Entry>();
  for (const line of out.split('\0').filter(Boolean)) {
    const tab = line.indexOf('\t');
    const [mode, sha] = line.slice(0, tab).split(' ');
    entries.set(line.slice(tab + 1), { mode, sha });
  }
  return entries;
}

const contentOf = (a: CommitAction) => Buffer.from(a.content ?? '', a.encoding === 'base64' ? 'base64' : 'utf8');

/** A path that is a folder of the tree, or lies under a file of it: it cannot be a file. */
function clashes(entries: Map<string, Entry>, file: string): boolean {
  const parts = file.split('/');
  for (let i = 1; i < parts.length; i++) if (entries.has(parts.slice(0, i).join('/'))) return true;
  const prefix = `${file}/`;
  for (const key of entries.keys()) if (key.startsWith(prefix)) return true;
  return false;
}

/** The actions in order over the parent's files; the `--index-info` lines that make the new tree, or the platform's 400. */
async function applyActions(dir: string, parent: string | undefined, entries: Map<string, Entry>, actions: CommitAction[]): Promise<string> {
  const exists = (p: string) => entries.get(p)?.mode.startsWith('100') ?? false;
  const changed = new Set<string>();
  for (const a of actions) {
    const file = a.file_path;
    const source = a.action === 'move' ? (a.previous_path ?? '') : file;
    if (a.action === 'move' && !a.previous_path) throw badRequest('You must provide previous_path when moving a file');
    if (a.action !== 'create' && !exists(source)) throw badRequest("A file with this name doesn't exist");
    if ((a.action === 'create' || a.action === 'move') && (entries.has(file) || clashes(entries, file))) throw badRequest('A file with this name already exists');
    if (a.last_commit_id && a.action !== 'create' && parent) {
      const last = await lastCommitOf(dir, parent, source);
      if (last !== a.last_commit_id) throw new FileChangedError(source);
    }
    const old = entries.get(source);
    const modeOf = (fallback: string) => (a.execute_filemode === undefined ? fallback : a.execute_filemode ? '100755' : '100644');
    switch (a.action) {
      case 'delete':
        entries.delete(file);
        break;
      case 'chmod':
        entries.set(file, { mode: modeOf(old!.mode), sha: old!.sha });
        break;
      case 'move': {
        entries.delete(source);
        changed.add(source);
        const sha = a.content === undefined ? old!.sha : await writeBlob(dir, contentOf(a));
        entries.set(file, { mode: modeOf(old!.mode), sha });
        break;
      }
      default:
        entries.set(file, { mode: modeOf(old?.mode ?? '100644'), sha: await writeBlob(dir, contentOf(a)) });
    }
    changed.add(file);
  }
  return [...changed].map((p) => (entries.has(p) ? `${entries.get(p)!.mode} ${entries.get(p)!.sha}\t${p}` : `0 ${ZERO}\t${p}`)).join('\0') + '\0';
}

const writeBlob = async (dir: string, content: Buffer) => (await gitText(dir, ['hash-object', '-w', '--stdin'], { input: content })).trim();
