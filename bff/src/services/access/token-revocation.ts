import type { Db } from '../../db/index.ts';
import type { GroupRow } from '../../db/schema.ts';
import type { RevokedToken } from '../../../../shared/src/token-revocation.ts';
import { tokenDigest } from '../../auth/secrets.ts';
import { badRequest, notFound } from '../../util/errors.ts';
import { bool, json } from '../../util/rows.ts';
import { isActive } from './personal-access-tokens.ts';
import { isExpired } from './deploy-tokens.ts';
import { flags } from '../instance/features.ts';
import { memberTraversals } from '../../policies/visibility.ts';

/** Whether the user holds any membership in the group's tree: a group of it or a project in it. */
async function memberOfTree(db: Db, userId: number, root: GroupRow): Promise<boolean> {
  if ((await memberTraversals(db, userId)).some((t) => t.startsWith(root.traversal))) return true;
  const inProject = await db
    .selectFrom('members')
    .innerJoin('projects', 'projects.id', 'members.source_id')
    .innerJoin('groups', 'groups.id', 'projects.namespace_id')
    .select('members.id')
    .where('members.source_type', '=', 'project')
    .where('members.user_id', '=', userId)
    .where('groups.traversal', 'like', `${root.traversal}%`)
    .executeTakeFirst();
  return Boolean(inProject);
}

async function groupInTree(db: Db, groupId: number | null, root: GroupRow): Promise<boolean> {
  if (groupId === null) return false;
  const g = await db.selectFrom('groups').select('id').where('id', '=', groupId).where('traversal', 'like', `${root.traversal}%`).executeTakeFirst();
  return Boolean(g);
}

const NOT_FOUND = () => notFound('Token');

/**
 * POST /groups/:id/tokens/revoke: finds the credential by its plaintext among personal and
 * group access tokens, group deploy tokens and feed tokens; if it has access to the group's
 * tree it is revoked (already revoked is fine) and its details returned. A credential outside
 * the tree answers 404 like an unknown one, so the endpoint cannot be used to probe tokens.
 */
export async function revokeLeakedToken(db: Db, root: GroupRow, plaintext: string): Promise<RevokedToken> {
  if (!(await flags.enabled(db, 'group_agnostic_token_revocation', { kind: 'group', id: root.id }))) throw notFound();
  if (root.parent_id !== null) throw badRequest('400 Bad request - tokens can only be revoked through a top-level group');
  const digest = tokenDigest(plaintext);

  const pat = await db.selectFrom('personal_access_tokens').selectAll().where('token_digest', '=', digest).executeTakeFirst();
  if (pat) {
    const owner = await db.selectFrom('users').selectAll().where('id', '=', pat.user_id).executeTakeFirstOrThrow();
    const isGroupToken = bool(owner.bot) && owner.bot_group_id !== null;
    const reaches = isGroupToken ? await groupInTree(db, owner.bot_group_id, root) : await memberOfTree(db, owner.id, root);
    if (!reaches) throw NOT_FOUND();
    await db.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', pat.id).execute();
    const t = { ...pat, revoked: 1 };
    return {
      id: t.id,
      name: t.name,
      description: t.description,
      scopes: json<string[]>(t.scopes, []),
      user_id: t.user_id,
      created_at: t.created_at,
      last_used_at: t.last_used_at,
      active: isActive(t),
      revoked: true,
      expires_at: t.expires_at,
      token_type: isGroupToken ? 'group_access_token' : 'personal_access_token',
    };
  }

  const deploy = await db.selectFrom('deploy_tokens').selectAll().where('token_digest', '=', digest).executeTakeFirst();
  if (deploy) {
    if (!(await groupInTree(db, deploy.group_id, root))) throw NOT_FOUND();
    await db.updateTable('deploy_tokens').set({ revoked: 1 }).where('id', '=', deploy.id).execute();
    return {
      id: deploy.id,
      name: deploy.name,
      username: deploy.username,
      expires_at: deploy.expires_at,
      scopes: json<string[]>(deploy.scopes, []),
      revoked: true,
      expired: isExpired(deploy),
      token_type: 'deploy_token',
    };
  }

  const feed = await db.selectFrom('feed_tokens').selectAll().where('token_digest', '=', digest).executeTakeFirst();
  if (feed) {
    if (!(await memberOfTree(db, feed.user_id, root))) throw NOT_FOUND();
    await db.updateTable('feed_tokens').set({ revoked: 1 }).where('id', '=', feed.id).execute();
    return { id: feed.id, name: 'Feed token', user_id: feed.user_id, created_at: feed.created_at, revoked: true, expires_at: null, token_type: 'feed_token' };
  }
  throw NOT_FOUND();
}

