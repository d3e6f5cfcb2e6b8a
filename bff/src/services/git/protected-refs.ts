import type { Db } from '../../db/index.ts';
import type { ProjectRow, ProtectedBranchAccessLevelRow, ProtectedBranchRow, ProtectedTagAccessLevelRow, ProtectedTagRow } from '../../db/schema.ts';
import { DEFAULT_BRANCH_PROTECTION_DEFAULTS } from '../../../../shared/src/protected-branches.ts';
import { wildcardMatches } from '../../../../shared/src/wildcard.ts';
import { bool, json } from '../../util/rows.ts';
import { nowIso } from '../../util/time.ts';
import { gitText } from './git-run.ts';
import { DEFAULT_BRANCH } from './repositories.ts';
import { isAncestor, isZero, type GitEnv, type RefUpdate } from './push-git.ts';

/*
 * Protected branches and tags as the platform applies them: which records name a ref (exact
 * names and `*` wildcards), whether a writer's role passes their access levels, and why a ref
 * update is refused, in the platform's words. Every way a ref moves meets this check
 * (push-checks.ts: pushes, the commits, branches and tags APIs, merges and trains).
 */

/**
 * Who writes a ref, as the access levels read them: the role on the project (30 Developer, 40
 * Maintainer, 50 Owner), an instance administrator above every role (WRITER_ADMIN), nobody (0:
 * a deploy token, which no role level admits).
 */
export type WriterRole = number;
export const WRITER_ADMIN: WriterRole = Number.POSITIVE_INFINITY;
export const writerRole = (admin: boolean, level: number): WriterRole => (admin ? WRITER_ADMIN : level);

/** The platform's "Instance admins" level: administrators only. */
const ADMIN_LEVEL = 60;

/** Does a role pass an access level? 0 is no one; 60 administrators; otherwise the role at least that level (and a Developer at least). */
export function levelAdmits(accessLevel: number, role: WriterRole): boolean {
  if (accessLevel === 0) return false;
  if (accessLevel === ADMIN_LEVEL) return role === WRITER_ADMIN;
  return role >= Math.max(accessLevel, 30);
}

/**
 * A protected name against a branch or tag name: exact, or with `*` standing for any run of
 * characters (slashes included), as the platform's wildcards (shared/src/wildcard.ts, which the
 * container registry's protection rules match with too, in the console as on the server).
 */
export const refMatches = wildcardMatches;

/** A protected branch with its access levels, by action. */
export interface BranchProtection {
  row: Pick<ProtectedBranchRow, 'id' | 'name' | 'allow_force_push'>;
  push: number[];
  merge: number[];
  unprotect: number[];
}

export interface TagProtection {
  row: Pick<ProtectedTagRow, 'id' | 'name'>;
  create: number[];
}

const levelsOf = (rows: ProtectedBranchAccessLevelRow[], id: number, action: ProtectedBranchAccessLevelRow['action']) =>
  rows.filter((r) => r.protected_branch_id === id && r.action === action).map((r) => r.access_level);

/** Every protected branch of a project with its levels (a project has a handful). */
export async function branchProtections(db: Db, projectId: number): Promise<BranchProtection[]> {
  const rows = await db.selectFrom('protected_branches').select(['id', 'name', 'allow_force_push']).where('project_id', '=', projectId).orderBy('id').execute();
  if (!rows.length) return [];
  const levels = await db.selectFrom('protected_branch_access_levels').selectAll().where('protected_branch_id', 'in', rows.map((r) => r.id)).orderBy('id').execute();
  return rows.map((row) => ({ row, push: levelsOf(levels, row.id, 'push'), merge: levelsOf(levels, row.id, 'merge'), unprotect: levelsOf(levels, row.id, 'unprotect') }));
}

export async function tagProtections(db: Db, projectId: number): Promise<TagProtection[]> {
  const rows = await db.selectFrom('protected_tags').select(['id', 'name']).where('project_id', '=', projectId).orderBy('id').execute();
  if (!rows.length) return [];
  const levels: ProtectedTagAccessLevelRow[] = await db.selectFrom('protected_tag_access_levels').selectAll().where('protected_tag_id', 'in', rows.map((r) => r.id)).orderBy('id').execute();
  return rows.map((row) => ({ row, create: levels.filter((l) => l.protected_tag_id === row.id).map((l) => l.access_level) }));
}

export const matching = <T extends { row: { name: string } }>(all: T[], name: string): T[] => all.filter((p) => refMatches(p.row.name, name));

/** The branch protection a group gives its projects' default branch (its `default_branch_protection_defaults`). */
export interface ProtectionDefaults {
  allowed_to_push: { access_level: number }[];
  allowed_to_merge: { access_level: number }[];
  allow_force_push: boolean;
  developer_can_initial_push: boolean;
}

export async function protectionDefaultsOf(db: Db, namespaceId: number): Promise<ProtectionDefaults> {
  const group = await db.selectFrom('groups').select('default_branch_protection_defaults').where('id', '=', namespaceId).executeTakeFirst();
  const stored = json<Partial<ProtectionDefaults>>(group?.default_branch_protection_defaults, {});
  return { ...DEFAULT_BRANCH_PROTECTION_DEFAULTS, ...stored };
}

/** The platform's "not protected": Developers push and merge, force pushes allowed. Such defaults protect nothing. */
export function defaultsProtect(d: ProtectionDefaults): boolean {
  const only30 = (l: { access_level: number }[]) => l.length === 1 && l[0].access_level === 30;
  return !(only30(d.allowed_to_push) && only30(d.allowed_to_merge) && d.allow_force_push);
}

/** The protection the defaults describe, before any record exists (a repository without branches). */
function virtualProtection(d: ProtectionDefaults, name: string): BranchProtection {
  return {
    row: { id: 0, name, allow_force_push: d.allow_force_push ? 1 : 0 },
    push: d.allowed_to_push.map((l) => l.access_level),
    merge: d.allowed_to_merge.map((l) => l.access_level),
    unprotect: [40],
  };
}

/**
 * After a push created the project's default branch (its first push, a first commit through
 * the API): the branch is protected by the group's default protection, as the platform's
 * ProtectDefaultBranchService does, unless a record already names it or the defaults protect nothing.
 */
export async function protectCreatedDefaultBranch(db: Db, project: Pick<ProjectRow, 'id' | 'default_branch' | 'namespace_id'>, updates: RefUpdate[]): Promise<void> {
  const name = project.default_branch ?? DEFAULT_BRANCH;
  if (!updates.some((u) => u.ref === `refs/heads/${name}` && isZero(u.before) && !isZero(u.after))) return;
  if (matching(await branchProtections(db, project.id), name).length) return;
  const defaults = await protectionDefaultsOf(db, project.namespace_id);
  if (!defaultsProtect(defaults)) return;
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const created = await trx
      .insertInto('protected_branches')
      .values({ project_id: project.id, name, allow_force_push: defaults.allow_force_push ? 1 : 0, code_owner_approval_required: 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!created) return;
    const levels = (action: 'push' | 'merge', from: { access_level: number }[]) => [...new Set(from.map((l) => l.access_level))].map((access_level) => ({ protected_branch_id: created.id, action, access_level }));
    await trx
      .insertInto('protected_branch_access_levels')
      .values([...levels('push', defaults.allowed_to_push), ...levels('merge', defaults.allowed_to_merge), { protected_branch_id: created.id, action: 'unprotect', access_level: 40 }])
      .execute();
  });
}

/** How a ref is written: by a git push, or by the server for the caller (the API, a merge: the platform's "web"). */
export interface ProtectedWrite {
  role: WriterRole;
  via: 'push' | 'web';
  /** A merge into the branch: the merge access levels admit it as well as the push ones. */
  merge?: boolean;
}

/** The protections that apply to a branch now: its records, or the group's defaults for the default branch of a repository without branches. */
export async function protectionsFor(
  db: Db,
  dir: string,
  project: Pick<ProjectRow, 'id' | 'default_branch' | 'namespace_id'>,
  branch: string,
  defaultBranch: string,
): Promise<{ rules: BranchProtection[]; initial: ProtectionDefaults | undefined }> {
  const rules = matching(await branchProtections(db, project.id), branch);
  if (rules.length || branch !== defaultBranch) return { rules, initial: undefined };
  if ((await gitText(dir, ['for-each-ref', '--count=1', '--format=x', 'refs/heads'])).trim() !== '') return { rules, initial: undefined };
  const defaults = await protectionDefaultsOf(db, project.namespace_id);
  return defaultsProtect(defaults) ? { rules: [virtualProtection(defaults, branch)], initial: defaults } : { rules, initial: undefined };
}

const admits = (levels: number[], role: WriterRole) => levels.some((l) => levelAdmits(l, role));

/** May this role push to a branch under these protections (none: a Developer may)? */
export function mayPushUnder(rules: BranchProtection[], role: WriterRole): boolean {
  return rules.length === 0 ? role >= 30 : rules.some((r) => admits(r.push, role));
}

/** May this role merge into a branch under these protections: its push or its merge levels (the platform's can_update_branch). */
export function mayMergeUnder(rules: BranchProtection[], role: WriterRole): boolean {
  return rules.length === 0 ? role >= 30 : rules.some((r) => admits(r.push, role) || admits(r.merge, role));
}

/** May this role remove a protection: one of its unprotect levels, Maintainers when it has none. */
export function mayUnprotect(unprotect: number[], role: WriterRole): boolean {
  return unprotect.length ? admits(unprotect, role) : role >= 40;
}

/** May this role push to the branch as its protection stands (the route checked that they push at all)? */
export async function mayPushBranch(db: Db, dir: string, project: Pick<ProjectRow, 'id' | 'default_branch' | 'namespace_id'>, branch: string, defaultBranch: string, role: WriterRole): Promise<boolean> {
  const { rules, initial } = await protectionsFor(db, dir, project, branch, defaultBranch);
  return rules.length === 0 || mayPushUnder(rules, role) || (initial?.developer_can_initial_push === true && role >= 30);
}

/** Why a branch update is refused by its protection (undefined: it is not). */
export async function branchRefusal(db: Db, dir: string, env: GitEnv, project: Pick<ProjectRow, 'id' | 'default_branch' | 'namespace_id'>, defaultBranch: string, update: RefUpdate, w: ProtectedWrite): Promise<string | undefined> {
  const branch = update.ref.slice('refs/heads/'.length);
  const { rules, initial } = await protectionsFor(db, dir, project, branch, defaultBranch);
  if (!rules.length) return undefined;
  if (isZero(update.after)) {
    if (w.via === 'push') return 'You can only delete protected branches using the web interface.';
    return w.role >= 40 ? undefined : 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.';
  }
  const allowed = w.merge ? mayMergeUnder(rules, w.role) : mayPushUnder(rules, w.role);
  // A group's developer_can_initial_push: Developers push the first commit of an empty repository's default branch.
  const initialPush = initial?.developer_can_initial_push === true && w.role >= 30;
  if (!allowed && !initialPush) {
    return isZero(update.before) && !initial ? 'You are not allowed to create protected branches on this project.' : 'You are not allowed to push code to protected branches on this project.';
  }
  if (!isZero(update.before) && !rules.some((r) => bool(r.row.allow_force_push)) && !(await isAncestor(dir, update.before, update.after, env))) {
    return 'You are not allowed to force push code to a protected branch on this project.';
  }
  return undefined;
}

/** Why a tag update is refused by its protection (undefined: it is not). */
export async function tagRefusal(db: Db, project: Pick<ProjectRow, 'id'>, update: RefUpdate, w: ProtectedWrite): Promise<string | undefined> {
  const rules = matching(await tagProtections(db, project.id), update.ref.slice('refs/tags/'.length));
  if (!rules.length) return undefined;
  if (isZero(update.after)) {
    if (w.via === 'push') return 'You can only delete protected tags using the web interface.';
    return w.role >= 40 ? undefined : 'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.';
  }
  if (!isZero(update.before)) return 'Protected tags cannot be updated.';
  return rules.some((r) => admits(r.create, w.role)) ? undefined : 'You are not allowed to create this tag as it is protected.';
}
