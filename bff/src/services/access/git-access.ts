import type { Db } from '../../db/index.ts';
import type { DeployTokenRow, GroupRow, ProjectRow } from '../../db/schema.ts';
import { anonymous, hasScope, isAdmin, type Actor } from '../../auth/actor.ts';
import { tokenDigest } from '../../auth/secrets.ts';
import { actorForToken } from './authentication.ts';
import { verifySignIn } from './session.ts';
import { DomainError } from '../../util/errors.ts';
import { isExpired } from './deploy-tokens.ts';
import { projectAccessLevel } from '../../policies/access.ts';
import { canProject } from '../../policies/index.ts';
import { json } from '../../util/rows.ts';
import { writerRole, type WriterRole } from '../git/protected-refs.ts';

/** Who a git client is: a user (through a token or a password), a group deploy token, or nobody. */
export type GitCaller = { kind: 'user'; actor: Actor } | { kind: 'deploy_token'; token: DeployTokenRow } | { kind: 'anonymous' };

/** Credentials that were presented and do not work: git is told 401 and asks again. */
export const BAD_CREDENTIALS = 'bad_credentials' as const;

/**
 * HTTP Basic as the platform reads it for git: the password is a personal or group access
 * token (any user name, `oauth2` included), a deploy token (its own user name), or the
 * user's own password.
 */
export async function gitCaller(
  db: Db,
  credentials: { username: string; password: string } | undefined,
  limits: { maxFailures: number; clientIp: string },
): Promise<GitCaller | typeof BAD_CREDENTIALS> {
  if (!credentials) return { kind: 'anonymous' };
  const { username, password } = credentials;
  const viaToken = await actorForToken(db, password);
  if (typeof viaToken !== 'string') return { kind: 'user', actor: viaToken };
  if (viaToken !== 'unknown') return BAD_CREDENTIALS;
  const deploy = await db.selectFrom('deploy_tokens').selectAll().where('token_digest', '=', tokenDigest(password)).executeTakeFirst();
  if (deploy) return !deploy.revoked && !isExpired(deploy) && deploy.username === username ? { kind: 'deploy_token', token: deploy } : BAD_CREDENTIALS;
  // A password, under the console's sign-in limits (a 429 passes through): it grants what the
  // user may do, like the console's session (no token scopes).
  try {
    const user = await verifySignIn(db, limits.maxFailures, username, password, limits.clientIp);
    return { kind: 'user', actor: { user, via: 'session', scopes: [] } };
  } catch (e) {
    if (e instanceof DomainError && e.kind === 'unauthorized') return BAD_CREDENTIALS;
    throw e;
  }
}

export type GitService = 'upload' | 'receive';

/**
 * What a caller may do with a project's repository: nothing visible, read, or push (to the
 * branches and tags their role admits: protected-refs.ts reads the role).
 */
export type GitAccess = 'none' | 'hidden' | 'read' | 'write';

/**
 * `hidden`: the project exists but the caller may not even see it (answered like a missing
 * one); `none`: they may see it but not do what they ask. Tokens need a repository scope
 * (`read_repository`, `write_repository`, or `api`); deploy tokens reach the projects of
 * their group's tree.
 */
export async function gitAccess(db: Db, caller: GitCaller, project: ProjectRow, group: GroupRow, service: GitService): Promise<{ access: GitAccess; role: WriterRole }> {
  if (caller.kind === 'deploy_token') {
    const t = caller.token;
    const owner = await db.selectFrom('groups').select('traversal').where('id', '=', t.group_id).executeTakeFirst();
    // A deploy token has no role: it pushes to unprotected branches and tags only.
    const as = (access: GitAccess) => ({ access, role: 0 });
    if (!owner || !group.traversal.startsWith(owner.traversal)) return as('hidden');
    const scopes = json<string[]>(t.scopes, []);
    if (service === 'receive') return as(scopes.includes('write_repository') ? 'write' : 'none');
    return as(scopes.includes('read_repository') || scopes.includes('write_repository') ? 'read' : 'none');
  }
  const actor = caller.kind === 'user' ? caller.actor : anonymous;
  const level = actor.user ? await projectAccessLevel(db, actor.user.id, project, group) : 0;
  const subject = { project, group, level };
  const as = (access: GitAccess) => ({ access, role: writerRole(isAdmin(actor), level) });
  if (!canProject(actor, 'read_project', subject)) return as('hidden');
  if (service === 'receive') return as(hasScope(actor, 'write_repository') && canProject(actor, 'push_code', subject) ? 'write' : 'none');
  return as(hasScope(actor, 'read_repository') && canProject(actor, 'download_code', subject) ? 'read' : 'none');
}
