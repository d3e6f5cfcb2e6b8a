import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { addTwinOwner } from '../twins.ts';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

const RULE_COLUMNS = [
  'commit_message_regex',
  'commit_message_negative_regex',
  'branch_name_regex',
  'author_email_regex',
  'file_name_regex',
  'deny_delete_tag',
  'member_check',
  'prevent_secrets',
  'commit_committer_check',
  'commit_committer_name_check',
  'reject_unsigned_commits',
  'reject_non_dco_commits',
  'max_file_size',
  'created_at',
  'updated_at',
];

/**
 * Push rules become group/project twins (db/twins.ts): the group rules move into `push_rules`
 * with their ids; projects get their own. And `events`: the activity record ("pushed" with its
 * `push_data`) that the events API reads.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const flag = (c: any) => c.notNull().defaultTo(0);
  let rules = withId(db, db.schema.createTable('push_rules'));
  rules = addTwinOwner(rules, 'push_rules')
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
    .addColumn('updated_at', 'text', (c) => c.notNull());
  await rules.execute();
  // One rule per owner; also what ON CONFLICT (group_id | project_id) names.
  await db.schema.createIndex('push_rules_group').unique().on('push_rules').column('group_id').execute();
  await db.schema.createIndex('push_rules_project').unique().on('push_rules').column('project_id').execute();
  const columns = sql.join(RULE_COLUMNS.map((c) => sql.ref(c)));
  await sql`INSERT INTO push_rules (id, group_id, ${columns}) SELECT id, group_id, ${columns} FROM group_push_rules`.execute(db);
  if (isPostgres(db)) await sql`SELECT setval(pg_get_serial_sequence('push_rules', 'id'), coalesce((SELECT max(id) FROM push_rules), 0) + 1, false)`.execute(db);
  await db.schema.dropTable('group_push_rules').execute();

  await withId(db, db.schema.createTable('events'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action_name', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'integer')
    .addColumn('push_data', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_project_created').on('events').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('events_author_created').on('events').columns(['author_id', 'created_at']).execute();
}
