import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * An iteration's state is stored, as on the platform (1 upcoming, 2 current, 3 closed): set from
 * its dates when it is made, then moved by the iterations job as days pass. The move to closed
 * is what rolls a cadence's open issues over, so it must happen exactly once; a stored state
 * is what makes it so. Existing iterations take the state their dates give today.
 *
 * Resource iteration events record every change of an issue's iteration (who, when, add or
 * remove), as the platform's do: the history an iteration's burndown is drawn from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('iterations').addColumn('state', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  const today = new Date().toISOString().slice(0, 10);
  await db.updateTable('iterations').set({ state: 3 }).where('due_date', '<', today).execute();
  await db.updateTable('iterations').set({ state: 2 }).where('start_date', '<=', today).where('due_date', '>=', today).execute();
  await db.schema.createIndex('iterations_state_dates').on('iterations').columns(['state', 'due_date']).execute();

  await withId(db, db.schema.createTable('resource_iteration_events'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('issue_id', 'integer', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('iteration_id', 'integer', (c) => c.notNull().references('iterations.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resource_iteration_events_issue').on('resource_iteration_events').column('issue_id').execute();
  await db.schema.createIndex('resource_iteration_events_iteration').on('resource_iteration_events').column('iteration_id').execute();
}
