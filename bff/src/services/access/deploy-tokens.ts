import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { DeployTokenRow, GroupRow } from '../../db/schema.ts';
import type { deployTokenCreateBody } from '../../../../shared/src/deploy-tokens.ts';
import { newToken, tokenDigest } from '../../auth/secrets.ts';
import { notFound, validationFailed } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso } from '../../util/time.ts';

export const DEPLOY_TOKEN_PREFIX = 'gtdt-';

export const isExpired = (t: DeployTokenRow) => t.expires_at !== null && t.expires_at <= nowIso();

export async function listDeployTokens(db: Db, group: GroupRow, active: boolean | undefined, page: PageRequest): Promise<Page<DeployTokenRow>> {
  let q = db.selectFrom('deploy_tokens').where('group_id', '=', group.id);
  if (active === true) q = q.where('revoked', '=', 0).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso())]));
  if (active === false) q = q.where((eb) => eb.or([eb('revoked', '=', 1), eb('expires_at', '<=', nowIso())]));
  return offsetPage(db, q.selectAll().orderBy('id'), page);
}

export async function getDeployToken(db: Db, group: GroupRow, id: number): Promise<DeployTokenRow> {
  const row = await db.selectFrom('deploy_tokens').selectAll().where('group_id', '=', group.id).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Deploy Token');
  return row;
}

export async function createDeployToken(db: Db, group: GroupRow, body: z.infer<typeof deployTokenCreateBody>) {
  const expiresAt = body.expires_at ? new Date(body.expires_at.length === 10 ? `${body.expires_at}T00:00:00Z` : body.expires_at).toISOString() : null;
  if (expiresAt && expiresAt <= nowIso()) throw validationFailed({ expires_at: ['must be in the future'] });
  const plaintext = newToken(DEPLOY_TOKEN_PREFIX);
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('deploy_tokens')
      .values({ group_id: group.id, name: body.name, username: body.username ?? '', scopes: JSON.stringify([...new Set(body.scopes)]), token_digest: tokenDigest(plaintext), expires_at: expiresAt, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!body.username) await trx.updateTable('deploy_tokens').set({ username: `gatehouse+deploy-token-${inserted.id}` }).where('id', '=', inserted.id).execute();
    const token = await trx.selectFrom('deploy_tokens').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
    return { token, plaintext };
  });
}

export async function revokeDeployToken(db: Db, token: DeployTokenRow): Promise<void> {
  await db.updateTable('deploy_tokens').set({ revoked: 1 }).where('id', '=', token.id).execute();
}
