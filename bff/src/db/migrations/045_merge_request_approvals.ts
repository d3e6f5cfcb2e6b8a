import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Merge request approvals (the platform's approvals API): who approved which merge request and
 * when. One approval per person and merge request (the key), gone with either.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('merge_request_approvals')
    .addColumn('merge_request_id', 'integer', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('merge_request_approvals_pk', ['merge_request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('merge_request_approvals_user').on('merge_request_approvals').column('user_id').execute();
}
