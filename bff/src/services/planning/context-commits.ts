import type { Db } from '../../db/index.ts';
import type { CommitInfo } from '../git/branches.ts';
import { resolveCommit } from '../git/branches.ts';
import { readCommits } from '../git/commits.ts';
import { badRequest } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import type { MergeRequestRow } from '../../db/schema.ts';

/** The merge request's context commits, in the order they were added, read from the repository. */
export async function listContextCommits(db: Db, dir: string, mr: MergeRequestRow): Promise<CommitInfo[]> {
  const rows = await db.selectFrom('merge_request_context_commits').select('sha').where('merge_request_id', '=', mr.id).orderBy('id').execute();
  const commits = await readCommits(dir, rows.map((r) => r.sha));
  return rows.map((r) => commits.get(r.sha)).filter((c): c is CommitInfo => c !== undefined);
}

/** Each SHA (full or abbreviated) as the full id of a commit of the repository; unknown ones refused together. */
async function resolveAll(dir: string, shas: string[]): Promise<string[]> {
  const resolved = await Promise.all(shas.map((s) => (/^[0-9a-f]{4,40}$/i.test(s) ? resolveCommit(dir, s) : Promise.resolve(undefined))));
  const unknown = shas.filter((_, i) => !resolved[i]);
  if (unknown.length) throw badRequest(`Context commits: ${JSON.stringify(unknown)} are not valid SHAs`);
  return [...new Set(resolved as string[])];
}

export async function addContextCommits(db: Db, dir: string, mr: MergeRequestRow, shas: string[]): Promise<CommitInfo[]> {
  const ids = await resolveAll(dir, shas);
  const existing = new Set((await db.selectFrom('merge_request_context_commits').select('sha').where('merge_request_id', '=', mr.id).where('sha', 'in', ids).execute()).map((r) => r.sha));
  if (existing.size) throw badRequest(`Context commits: ${JSON.stringify([...existing])} are already created`);
  const now = nowIso();
  await db.insertInto('merge_request_context_commits').values(ids.map((sha) => ({ merge_request_id: mr.id, sha, created_at: now }))).execute();
  const commits = await readCommits(dir, ids);
  return ids.map((id) => commits.get(id)!);
}

export async function removeContextCommits(db: Db, dir: string, mr: MergeRequestRow, shas: string[]): Promise<void> {
  const ids = await resolveAll(dir, shas);
  const present = new Set((await db.selectFrom('merge_request_context_commits').select('sha').where('merge_request_id', '=', mr.id).where('sha', 'in', ids).execute()).map((r) => r.sha));
  const missing = ids.filter((i) => !present.has(i));
  if (missing.length) throw badRequest(`Context commits: ${JSON.stringify(missing)} are not context commits of this merge request`);
  await db.deleteFrom('merge_request_context_commits').where('merge_request_id', '=', mr.id).where('sha', 'in', ids).execute();
}
