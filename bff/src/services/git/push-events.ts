import type { Db } from '../../db/index.ts';
import { nowIso } from '../../util/time.ts';
import { fireHookEvent } from '../webhooks/hook-delivery.ts';
import { pushPayload, repositoryUpdatePayload, type PushData } from '../webhooks/hook-payloads.ts';
import { git, isZero, readChanges, readCommits, revList, type RefUpdate } from './push-git.ts';
import { announce, type PushedTo } from '../notifier.ts';
import { adoptDefaultBranch } from './default-branch.ts';
import { branchProtections, matching, protectCreatedDefaultBranch, tagProtections } from './protected-refs.ts';

/** The platform lists at most this many commits in a push event (total_commits_count counts them all). */
export const PUSH_EVENT_COMMITS = 20;

export type { PushedTo };

const refKind = (ref: string) => (ref.startsWith('refs/heads/') ? 'branch' : ref.startsWith('refs/tags/') ? 'tag' : undefined);

/**
 * The commits a branch update brought, newest first: between the old and the new tip; for a
 * new branch, those the default branch does not have (all of them in a first push).
 */
async function commitsOf(pushed: PushedTo, update: RefUpdate, defaultBranch: string): Promise<string[]> {
  if (isZero(update.after)) return [];
  if (!isZero(update.before)) return revList(pushed.dir, [update.after], [update.before]);
  const base = `refs/heads/${defaultBranch}`;
  const hasBase = update.ref !== base && (await git(pushed.dir, ['rev-parse', '--verify', '--quiet', base]).then(() => true, () => false));
  return revList(pushed.dir, [update.after], hasBase ? [base] : []);
}

/** A tag's message (annotated tags) and the commit it names. */
async function tagTarget(dir: string, sha: string): Promise<{ commit: string | null; message: string | null }> {
  const type = (await git(dir, ['cat-file', '-t', sha])).toString().trim();
  const commit = (await git(dir, ['rev-parse', `${sha}^{commit}`]).catch(() => Buffer.from(''))).toString().trim() || null;
  if (type !== 'tag') return { commit, message: null };
  const body = (await git(dir, ['cat-file', 'tag', sha])).toString();
  const split = body.indexOf('\n\n');
  return { commit, message: split < 0 ? '' : body.slice(split + 2).replace(/-----BEGIN PGP SIGNATURE-----[\s\S]*$/, '') };
}

/** The platform's push data of a ref update, from the repository after the refs moved. */
async function pushDataOf(pushed: PushedTo, update: RefUpdate, defaultBranch: string): Promise<PushData> {
  const deleted = isZero(update.after);
  if (refKind(update.ref) === 'tag') {
    const target = deleted ? { commit: null, message: null } : await tagTarget(pushed.dir, update.after);
    return { ...update, checkoutSha: target.commit, message: target.message, commits: [], totalCommitsCount: 0 };
  }
  const ids = await commitsOf(pushed, update, defaultBranch);
  const shown = ids.slice(0, PUSH_EVENT_COMMITS).reverse();
  const [raw, changes] = await Promise.all([readCommits(pushed.dir, shown), readChanges(pushed.dir, shown)]);
  const commits = raw.map((c) => {
    const files = changes.get(c.id) ?? [];
    const paths = (...statuses: string[]) => files.filter((f) => statuses.includes(f.status)).map((f) => f.path);
    return { id: c.id, message: c.message, timestamp: c.authoredDate, author: { name: c.authorName, email: c.authorEmail }, added: paths('A'), modified: paths('M', 'T'), removed: paths('D') };
  });
  return { ...update, checkoutSha: deleted ? null : update.after, message: null, commits, totalCommitsCount: ids.length };
}

/** The activity record's push_data, as the events API shows it. */
function activityPushData(update: RefUpdate, data: PushData) {
  const created = isZero(update.before);
  const removed = isZero(update.after);
  const last = data.commits.at(-1);
  return {
    commit_count: data.totalCommitsCount,
    action: created ? 'created' : removed ? 'removed' : 'pushed',
    ref_type: refKind(update.ref),
    commit_from: created ? null : update.before,
    commit_to: removed ? null : data.checkoutSha ?? update.after,
    ref: update.ref.replace(/^refs\/(heads|tags)\//, ''),
    commit_title: last ? last.message.split('\n')[0] : null,
    ref_count: null,
  };
}

/**
 * After a push moved its refs: a push event per branch and a tag push event per tag (each
 * hook's branch filter applies), one repository update event, and a "pushed" activity record
 * per ref, all queued in one transaction.
 */
export async function recordPush(to: PushedTo, updates: RefUpdate[]): Promise<void> {
  // A first branch of a repository whose default branch does not exist becomes the default (the events name it so).
  const pushed = { ...to, project: await adoptDefaultBranch(to.db, to.dir, to.project, updates) };
  // The default branch just created is protected by the group's default protection, as on the platform.
  await protectCreatedDefaultBranch(pushed.db, pushed.project, updates);
  const prepared = await preparePush(pushed, updates);
  if (!prepared) return;
  await pushed.db.transaction().execute((trx) => writePush(trx, pushed, prepared));
  await announce('pushRecorded', { pushed, refs: prepared.refs });
}

/** What a push records, read from the repository (outside any transaction); undefined when no branch or tag moved. */
export interface PreparedPush {
  refs: RefUpdate[];
  data: PushData[];
}
export async function preparePush(pushed: PushedTo, updates: RefUpdate[]): Promise<PreparedPush | undefined> {
  const defaultBranch = pushed.project.default_branch ?? 'main';
  const refs = updates.filter((u) => refKind(u.ref));
  if (!refs.length) return undefined;
  const [branches, tags] = await Promise.all([branchProtections(pushed.db, pushed.project.id), tagProtections(pushed.db, pushed.project.id)]);
  const isProtected = (ref: string) =>
    ref.startsWith('refs/tags/') ? matching(tags, ref.slice('refs/tags/'.length)).length > 0 : matching(branches, ref.slice('refs/heads/'.length)).length > 0;
  const data = await Promise.all(refs.map(async (u) => ({ ...(await pushDataOf(pushed, u, defaultBranch)), refProtected: isProtected(u.ref) })));
  return { refs, data };
}

/**
 * The push's events, hooks and activity in the caller's transaction: written together with
 * whatever else the move means (a merge train records its merge in the same one, once).
 */
export async function writePush(trx: Db, pushed: PushedTo, { refs, data }: PreparedPush): Promise<void> {
  const ctx = { baseUrl: pushed.baseUrl, user: pushed.user, group: pushed.group, project: pushed.project };
  const where = { traversal: pushed.group.traversal, projectId: pushed.project.id };
  const now = nowIso();
  for (const [i, update] of refs.entries()) {
    const tag = refKind(update.ref) === 'tag';
    await fireHookEvent(trx, where, tag ? 'tag_push_events' : 'push_events', pushPayload(ctx, { tag, push: data[i] }));
    await trx
      .insertInto('events')
      .values({ project_id: pushed.project.id, group_id: null, author_id: pushed.user?.id ?? null, action_name: 'pushed', target_type: null, target_id: null, push_data: JSON.stringify(activityPushData(update, data[i])), created_at: now })
      .execute();
  }
  await fireHookEvent(trx, where, 'repository_update_events', repositoryUpdatePayload(ctx, refs));
  await announce('pushWritten', { trx, pushed, refs });
  await trx.updateTable('projects').set({ last_activity_at: now }).where('id', '=', pushed.project.id).execute();
}
