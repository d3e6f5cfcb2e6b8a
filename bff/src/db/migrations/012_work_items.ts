import type { CreateTableBuilder, Kysely } from 'kysely';
import { addTwinOwner } from '../twins.ts';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The objects everything points at: labels, milestones, issues, merge requests, notes, and the
 * resource events (state, milestone, weight) that histories and burndown charts read.
 * `epic_id` and `iteration_id` carry no foreign key: their tables come in later migrations.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const flag = (c: any) => c.notNull().defaultTo(0);
  const user = (c: any) => c.references('users.id').onDelete('set null');
  const stamps = (t: CreateTableBuilder<any, any>) =>
    t.addColumn('created_at', 'text', (c) => c.notNull()).addColumn('updated_at', 'text', (c) => c.notNull());

  const labels = addTwinOwner(withId(db, db.schema.createTable('labels')), 'labels')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('priority', 'integer');
  await stamps(labels).execute();
  await db.schema.createIndex('labels_group_title').unique().on('labels').columns(['group_id', 'title']).execute();
  await db.schema.createIndex('labels_project_title').unique().on('labels').columns(['project_id', 'title']).execute();

  await withId(db, db.schema.createTable('label_links'))
    .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('label_links_target_label').unique().on('label_links').columns(['target_type', 'target_id', 'label_id']).execute();
  await db.schema.createIndex('label_links_label').on('label_links').column('label_id').execute();

  const milestones = addTwinOwner(withId(db, db.schema.createTable('milestones')), 'milestones')
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('start_date', 'text')
    .addColumn('due_date', 'text');
  await stamps(milestones).execute();
  await db.schema.createIndex('milestones_group_iid').unique().on('milestones').columns(['group_id', 'iid']).execute();
  await db.schema.createIndex('milestones_project_iid').unique().on('milestones').columns(['project_id', 'iid']).execute();
  await db.schema.createIndex('milestones_group_title').unique().on('milestones').columns(['group_id', 'title']).execute();
  await db.schema.createIndex('milestones_project_title').unique().on('milestones').columns(['project_id', 'title']).execute();

  const issues = withId(db, db.schema.createTable('issues'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer', user)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('opened'))
    .addColumn('confidential', 'integer', flag)
    .addColumn('milestone_id', 'integer', (c) => c.references('milestones.id').onDelete('set null'))
    .addColumn('weight', 'integer')
    .addColumn('due_date', 'text')
    .addColumn('closed_at', 'text')
    .addColumn('closed_by_id', 'integer', user)
    .addColumn('epic_id', 'integer')
    .addColumn('iteration_id', 'integer')
    .addColumn('issue_type', 'text', (c) => c.notNull().defaultTo('issue'))
    .addColumn('discussion_locked', 'integer')
    .addColumn('updated_by_id', 'integer', user);
  await stamps(issues).execute();
  await db.schema.createIndex('issues_project_iid').unique().on('issues').columns(['project_id', 'iid']).execute();
  await db.schema.createIndex('issues_project_updated').on('issues').columns(['project_id', 'updated_at']).execute();
  await db.schema.createIndex('issues_milestone').on('issues').column('milestone_id').execute();
  await db.schema.createIndex('issues_epic').on('issues').column('epic_id').execute();
  await db.schema.createIndex('issues_iteration').on('issues').column('iteration_id').execute();

  await db.schema
    .createTable('issue_assignees')
    .addColumn('issue_id', 'integer', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('issue_assignees_pk', ['issue_id', 'user_id'])
    .execute();
  await db.schema.createIndex('issue_assignees_user').on('issue_assignees').column('user_id').execute();

  const mrs = withId(db, db.schema.createTable('merge_requests'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('source_project_id', 'integer', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('source_branch', 'text', (c) => c.notNull())
    .addColumn('target_branch', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', user)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('opened'))
    .addColumn('draft', 'integer', flag)
    .addColumn('milestone_id', 'integer', (c) => c.references('milestones.id').onDelete('set null'))
    .addColumn('sha', 'text')
    .addColumn('base_sha', 'text')
    .addColumn('merge_commit_sha', 'text')
    .addColumn('squash_commit_sha', 'text')
    .addColumn('squash', 'integer', flag)
    .addColumn('force_remove_source_branch', 'integer', flag)
    .addColumn('merge_user_id', 'integer', user)
    .addColumn('merged_at', 'text')
    .addColumn('closed_at', 'text')
    .addColumn('closed_by_id', 'integer', user)
    .addColumn('merge_status', 'text', (c) => c.notNull().defaultTo('unchecked'))
    .addColumn('discussion_locked', 'integer')
    .addColumn('updated_by_id', 'integer', user);
  await stamps(mrs).execute();
  await db.schema.createIndex('merge_requests_project_iid').unique().on('merge_requests').columns(['project_id', 'iid']).execute();
  await db.schema.createIndex('merge_requests_project_updated').on('merge_requests').columns(['project_id', 'updated_at']).execute();
  await db.schema.createIndex('merge_requests_source').on('merge_requests').columns(['source_project_id', 'source_branch']).execute();
  await db.schema.createIndex('merge_requests_milestone').on('merge_requests').column('milestone_id').execute();

  for (const [table, role] of [['merge_request_assignees', 'assignees'], ['merge_request_reviewers', 'reviewers']] as const) {
    let t = db.schema
      .createTable(table)
      .addColumn('merge_request_id', 'integer', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'));
    // A reviewer has a state of review, as on the platform.
    if (role === 'reviewers') t = t.addColumn('state', 'text', (c) => c.notNull().defaultTo('unreviewed'));
    await t.addColumn('created_at', 'text', (c) => c.notNull()).addPrimaryKeyConstraint(`${table}_pk`, ['merge_request_id', 'user_id']).execute();
    await db.schema.createIndex(`${table}_user`).on(table).column('user_id').execute();
  }

  const notes = withId(db, db.schema.createTable('notes'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('noteable_type', 'text', (c) => c.notNull())
    .addColumn('noteable_id', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer', user)
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('system', 'integer', flag)
    .addColumn('internal', 'integer', flag)
    .addColumn('resolvable', 'integer', flag)
    .addColumn('resolved_by_id', 'integer', user)
    .addColumn('resolved_at', 'text')
    .addColumn('updated_by_id', 'integer', user);
  await stamps(notes).execute();
  await db.schema.createIndex('notes_noteable').on('notes').columns(['noteable_type', 'noteable_id', 'created_at']).execute();
  await db.schema.createIndex('notes_project').on('notes').column('project_id').execute();

  await withId(db, db.schema.createTable('resource_state_events'))
    .addColumn('user_id', 'integer', user)
    .addColumn('issue_id', 'integer', (c) => c.references('issues.id').onDelete('cascade'))
    .addColumn('merge_request_id', 'integer', (c) => c.references('merge_requests.id').onDelete('cascade'))
    .addColumn('epic_id', 'integer')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source_commit', 'text')
    .addColumn('source_merge_request_id', 'integer', (c) => c.references('merge_requests.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resource_state_events_issue').on('resource_state_events').column('issue_id').execute();
  await db.schema.createIndex('resource_state_events_mr').on('resource_state_events').column('merge_request_id').execute();
  await db.schema.createIndex('resource_state_events_epic').on('resource_state_events').column('epic_id').execute();

  await withId(db, db.schema.createTable('resource_milestone_events'))
    .addColumn('user_id', 'integer', user)
    .addColumn('issue_id', 'integer', (c) => c.references('issues.id').onDelete('cascade'))
    .addColumn('merge_request_id', 'integer', (c) => c.references('merge_requests.id').onDelete('cascade'))
    .addColumn('milestone_id', 'integer', (c) => c.references('milestones.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resource_milestone_events_issue').on('resource_milestone_events').column('issue_id').execute();
  await db.schema.createIndex('resource_milestone_events_mr').on('resource_milestone_events').column('merge_request_id').execute();
  await db.schema.createIndex('resource_milestone_events_milestone').on('resource_milestone_events').column('milestone_id').execute();

  await withId(db, db.schema.createTable('resource_weight_events'))
    .addColumn('user_id', 'integer', user)
    .addColumn('issue_id', 'integer', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('weight', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resource_weight_events_issue').on('resource_weight_events').column('issue_id').execute();
}
