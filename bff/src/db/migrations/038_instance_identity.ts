import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * What every instance of one installation must share, recorded by the first to start
 * (services/instance/identity.ts): the storage identity of the repositories directory (the id
 * in its marker file) and a fingerprint of the secret key. An instance that holds another
 * refuses to start.
 *
 * A project's `repository_created` says that its repository was made (services/git/
 * repositories.ts): such a project whose directory is missing answers an error, never a new
 * empty repository. Projects of an existing installation are marked at the first start that
 * records the storage identity, those whose directories are there (a migration sees no files).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('instance_identity')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('projects').addColumn('repository_created', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
