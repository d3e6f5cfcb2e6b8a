import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Invitations by email to a group or project (spec: Invitations). A pending invitation is not a
 * membership: it waits here, its email lower-cased, until a user with that email is created, then
 * becomes a member row and is deleted. The token mailed to the address is kept only as a digest.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('invitations'))
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('invite_email', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull())
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('invitations_source_email', ['source_type', 'source_id', 'invite_email'])
    .execute();
  await db.schema.createIndex('invitations_email').on('invitations').column('invite_email').execute();
  await db.schema.createIndex('invitations_token').unique().on('invitations').column('token_digest').execute();
}
