import type { Db } from '../../db/index.ts';
import type { ProjectRow, PushRuleRow, UserRow } from '../../db/schema.ts';
import { checksCommits, commitViolation, refViolation, type PushRuleSettings, type PushRuleViolation, type PushedCommit } from '../../../../shared/src/group-push-rules.ts';
import { Re2SyntaxError } from '../../../../shared/src/re2.ts';
import { bool } from '../../util/rows.ts';
import { pushRuleOf } from './group-push-rules.ts';
import { DEFAULT_BRANCH } from './repositories.ts';
import { branchRefusal, tagRefusal, type ProtectedWrite } from './protected-refs.ts';
import { blobSizes, isZero, readChanges, readCommits, revList, type FileChange, type GitEnv, type RefUpdate } from './push-git.ts';

/** What a push is checked against: the repository (with git's quarantine), the project's rule, who pushes. */
export interface PushCheckContext {
  db: Db;
  dir: string;
  /** git's quarantine variables: the pushed objects are readable, not yet in the repository. */
  env: GitEnv;
  project: Pick<ProjectRow, 'id' | 'default_branch' | 'namespace_id'>;
  defaultBranch: string;
  /** Who writes, and how: what the protected branches and tags are checked with. */
  write: ProtectedWrite;
  rule: PushRuleRow | undefined;
  /** The user who pushes; null for a deploy token. */
  user: Pick<UserRow, 'name' | 'email'> | null;
  /**
   * git refuses the refs outside branches and tags itself (a push over HTTP: HIDDEN_REFS_GIT_CONFIG),
   * each on its own line, while the rest of the push goes on as on the platform; they are left
   * to it here. Otherwise (every other way a ref is made) they are refused here.
   */
  gitRefusesHiddenRefs?: boolean;
}

/**
 * Only branches and tags take pushes, as on the platform: every other namespace is the server's
 * own (its internal refs/merge-requests/ (train and head refs), refs/keep-around/,
 * refs/pipelines/, refs/environments/, refs/remotes/, refs/tmp/, and any other), written by the
 * server alone.
 */
export const isPushableRef = (ref: string) => ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/');

/**
 * git receive-pack's configuration for a push over HTTP: every ref outside refs/heads/ and
 * refs/tags/ hidden (receive.hideRefs), so that git itself refuses a push to one before any hook
 * runs, with the words the platform's git server answers: "deny updating a hidden ref" (or
 * "deny deleting a hidden ref") on the ref's `[remote rejected]` line. The pre-receive check
 * refuses them as well (checkPush), should git ever run without this configuration.
 */
export const HIDDEN_REFS_GIT_CONFIG: Record<string, string> = {
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'receive.hideRefs',
  GIT_CONFIG_VALUE_0: 'refs/',
  GIT_CONFIG_KEY_1: 'receive.hideRefs',
  GIT_CONFIG_VALUE_1: '!refs/heads/',
  GIT_CONFIG_KEY_2: 'receive.hideRefs',
  GIT_CONFIG_VALUE_2: '!refs/tags/',
};

/** A refused push lists at most this many reasons: enough to fix, not a flood. */
const MAX_REASONS = 20;

/** The protection of the branch or tag an update writes (protected-refs.ts); undefined when none refuses it. */
function protectionRefusal(ctx: PushCheckContext, update: RefUpdate): Promise<string | undefined> {
  if (update.ref.startsWith('refs/tags/')) return tagRefusal(ctx.db, ctx.project, update, ctx.write);
  return branchRefusal(ctx.db, ctx.dir, ctx.env, ctx.project, ctx.defaultBranch, update, ctx.write);
}

const settingsOf = (r: PushRuleRow): PushRuleSettings => ({
  commit_message_regex: r.commit_message_regex,
  commit_message_negative_regex: r.commit_message_negative_regex,
  branch_name_regex: r.branch_name_regex,
  author_email_regex: r.author_email_regex,
  file_name_regex: r.file_name_regex,
  deny_delete_tag: bool(r.deny_delete_tag),
  member_check: bool(r.member_check),
  prevent_secrets: bool(r.prevent_secrets),
  commit_committer_check: bool(r.commit_committer_check),
  commit_committer_name_check: bool(r.commit_committer_name_check),
  reject_unsigned_commits: bool(r.reject_unsigned_commits),
  reject_non_dco_commits: bool(r.reject_non_dco_commits),
  max_file_size: r.max_file_size,
});

/** The pushed commits (those no ref had before the push) as the checks read them. */
async function pushedCommits(ctx: PushCheckContext, rule: PushRuleSettings, tips: string[]): Promise<PushedCommit[]> {
  const ids = await revList(ctx.dir, tips, ['--all'], ctx.env);
  const readsFiles = Boolean(rule.file_name_regex || rule.prevent_secrets || (rule.max_file_size ?? 0) > 0);
  // Two git processes side by side: the commits, and the files they change.
  const [raw, changes] = await Promise.all([readCommits(ctx.dir, ids, ctx.env), readsFiles ? readChanges(ctx.dir, ids, ctx.env) : new Map<string, FileChange[]>()]);
  const kept = (c: { status: string }) => c.status === 'A' || c.status === 'M' || c.status === 'T';
  const sizes = (rule.max_file_size ?? 0) > 0 ? await blobSizes(ctx.dir, [...changes.values()].flat().filter(kept).map((c) => c.blob), ctx.env) : new Map<string, number>();
  // Oldest first, as the commits were written.
  return raw.reverse().map((c) => ({
    ...c,
    files: (changes.get(c.id) ?? []).filter(kept).map((f) => ({ path: f.path, status: f.status === 'A' ? ('added' as const) : ('modified' as const), size: sizes.get(f.blob) })),
  }));
}

/** Which of these emails belong to a user of the instance (the member check). */
async function userEmails(db: Db, emails: string[]): Promise<Set<string>> {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (!wanted.length) return new Set();
  const rows = await db.selectFrom('users').select('email').where((eb) => eb(eb.fn('lower', ['email']), 'in', wanted)).execute();
  return new Set(rows.map((r) => r.email.toLowerCase()));
}

const described = (v: PushRuleViolation, where: string) => `${v.message} (${where}; push rule ${v.check})`;

/**
 * Checks a push before any ref moves: the protected branches and tags, then every check of the
 * project's push rule, worded as the platform words them and naming the commit and the rule.
 * Answers the reasons to refuse it (none: accept).
 */
export async function checkPush(ctx: PushCheckContext, updates: RefUpdate[]): Promise<string[]> {
  const reasons: string[] = [];
  for (const update of updates) {
    if (!isPushableRef(update.ref)) {
      if (ctx.gitRefusesHiddenRefs) continue;
      reasons.push(`deny ${isZero(update.after) ? 'deleting' : 'updating'} a hidden ref: only branches (refs/heads/) and tags (refs/tags/) take pushes (ref ${update.ref})`);
      continue;
    }
    const refused = await protectionRefusal(ctx, update);
    if (refused) reasons.push(refused);
  }
  if (!ctx.rule) return reasons;
  const rule = settingsOf(ctx.rule);
  try {
    for (const update of updates.filter((u) => isPushableRef(u.ref))) {
      const v = refViolation(rule, { ref: update.ref, deletion: isZero(update.after), defaultBranch: ctx.defaultBranch });
      if (v) reasons.push(described(v, `ref ${update.ref}`));
    }
    if (!checksCommits(rule)) return reasons;
    const tips = updates.filter((u) => isPushableRef(u.ref) && !isZero(u.after)).map((u) => u.after);
    const commits = await pushedCommits(ctx, rule, tips);
    const members = rule.member_check ? await userEmails(ctx.db, commits.flatMap((c) => [c.authorEmail, c.committerEmail])) : new Set<string>();
    const pusher = { name: ctx.user?.name ?? null, emails: ctx.user ? [ctx.user.email] : [], isUserEmail: (e: string) => members.has(e.toLowerCase()) };
    for (const commit of commits) {
      const v = commitViolation(rule, commit, pusher);
      if (v) reasons.push(described(v, `commit ${commit.id.slice(0, 8)}`));
      if (reasons.length > MAX_REASONS) break;
    }
  } catch (e) {
    // A stored pattern RE2 refuses (rules are validated when saved, so only from old data).
    if (!(e instanceof Re2SyntaxError)) throw e;
    reasons.push(`Regular expression is invalid: ${e.message}`);
  }
  return reasons.length > MAX_REASONS ? [...reasons.slice(0, MAX_REASONS), `… and ${reasons.length - MAX_REASONS} more`] : reasons;
}

/** Who makes or moves refs, and where: what a ref update is checked with. */
export interface RefWriter {
  db: Db;
  dir: string;
  project: Pick<ProjectRow, 'id' | 'default_branch' | 'namespace_id'>;
  /** The user it is done as; null for a deploy token. */
  user: Pick<UserRow, 'name' | 'email'> | null;
  /** Their role, and how they write (a push, the API, a merge): what protected branches and tags admit. */
  write: ProtectedWrite;
}

/**
 * The one check of every ref a user makes, moves or deletes, whichever way: a git push (its
 * pre-receive, with git's quarantine in `env`), the branches, tags and commits APIs, a merge,
 * and a merge train's move of its target. The refs outside branches and tags, the protected
 * branches and tags, and the project's push rule, as a push of the same update would meet them.
 * Answers the reasons to refuse it, in the platform's words (none: accept).
 */
export async function refUpdateRefusals(w: RefWriter, updates: RefUpdate[], opts: { env?: GitEnv; gitRefusesHiddenRefs?: boolean } = {}): Promise<string[]> {
  const rule = await pushRuleOf(w.db, { scope: 'projects', id: w.project.id });
  return checkPush(
    { db: w.db, dir: w.dir, env: opts.env ?? {}, project: w.project, defaultBranch: w.project.default_branch ?? DEFAULT_BRANCH, write: w.write, rule, user: w.user, gitRefusesHiddenRefs: opts.gitRefusesHiddenRefs },
    updates,
  );
}
