import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Iteration cadences of groups and their iterations. An iteration's state (upcoming, current,
 * closed) follows from its dates and today, so it is not stored; `iid` counts per group,
 * `sequence` per cadence.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('iteration_cadences'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('automatic', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('start_date', 'text')
    .addColumn('duration_in_weeks', 'integer')
    .addColumn('iterations_in_advance', 'integer')
    .addColumn('roll_over', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('iteration_cadences_group').on('iteration_cadences').column('group_id').execute();

  await withId(db, db.schema.createTable('iterations'))
    .addColumn('iteration_cadence_id', 'integer', (c) => c.notNull().references('iteration_cadences.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('iterations_group_iid').unique().on('iterations').columns(['group_id', 'iid']).execute();
  await db.schema.createIndex('iterations_cadence_sequence').unique().on('iterations').columns(['iteration_cadence_id', 'sequence']).execute();
  await db.schema.createIndex('iterations_group_dates').on('iterations').columns(['group_id', 'start_date', 'due_date']).execute();
}
