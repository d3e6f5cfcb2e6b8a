import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Group access tokens are personal access tokens of a bot user that is a member of the
 * group. Rotation links each token to the one it replaced and to the first of its family,
 * so reuse of a rotated token can revoke the whole family at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personal_access_tokens').addColumn('previous_token_id', 'integer').execute();
  await db.schema.alterTable('personal_access_tokens').addColumn('family_id', 'integer').execute();
  await db.schema.alterTable('users').addColumn('bot_group_id', 'integer').execute();
  await db.schema.createIndex('personal_access_tokens_family').on('personal_access_tokens').column('family_id').execute();
  await db.schema.createIndex('users_bot_group').on('users').column('bot_group_id').execute();
}
