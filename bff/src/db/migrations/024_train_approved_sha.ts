import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * What a merge train car may merge: the source commit it was added (approved) with. A push to the
 * source branch afterwards takes the car off the train instead of rebuilding it with commits
 * nobody approved. Cars already built keep what they were built from; a car never built has
 * no record of it and is taken off the train by its next run (it is added again).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('merge_train_cars').addColumn('approved_sha', 'text').execute();
  await db.updateTable('merge_train_cars').set((eb: any) => ({ approved_sha: eb.ref('source_sha') })).where('source_sha', 'is not', null).execute();
}
