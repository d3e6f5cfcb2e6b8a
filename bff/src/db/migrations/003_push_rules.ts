import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const flag = (c: any) => c.notNull().defaultTo(0);
  await withId(db, db.schema.createTable('group_push_rules'))
    .addColumn('group_id', 'integer', (c) => c.notNull().unique().references('groups.id').onDelete('cascade'))
    .addColumn('commit_message_regex', 'text')
    .addColumn('commit_message_negative_regex', 'text')
    .addColumn('branch_name_regex', 'text')
    .addColumn('author_email_regex', 'text')
    .addColumn('file_name_regex', 'text')
    .addColumn('deny_delete_tag', 'integer', flag)
    .addColumn('member_check', 'integer', flag)
    .addColumn('prevent_secrets', 'integer', flag)
    .addColumn('commit_committer_check', 'integer', flag)
    .addColumn('commit_committer_name_check', 'integer', flag)
    .addColumn('reject_unsigned_commits', 'integer', flag)
    .addColumn('reject_non_dco_commits', 'integer', flag)
    .addColumn('max_file_size', 'integer', flag)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
