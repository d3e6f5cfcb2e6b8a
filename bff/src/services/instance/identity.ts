import { ConfigError } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { nowIso } from '../../util/time.ts';

/**
 * What every instance of one installation must share, recorded in the database by the first
 * to start (table instance_identity): an instance that holds something else refuses to start
 * (a ConfigError: main.ts prints it and exits 2).
 */
export const IDENTITY = {
  /** The id in the repositories directory's marker file (services/git/storage.ts). */
  repositoriesStorage: 'repositories_storage_id',
  /** A fingerprint of the secret key that seals the secrets Gatehouse sends on (auth/vault.ts). */
  secretKey: 'secret_key_fingerprint',
  /** The installation's id, as the AI gateway knows it (services/code-suggestions). */
  instanceId: 'instance_id',
  /** The RSA key the installation signs its own JWTs with, sealed by the vault (services/code-suggestions). */
  signingKey: 'jwt_signing_key',
} as const;
export type IdentityName = (typeof IDENTITY)[keyof typeof IDENTITY];

export async function readIdentity(db: Db, name: IdentityName): Promise<string | undefined> {
  const row = await db.selectFrom('instance_identity').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/**
 * Records `value` unless a value is recorded already, and answers the one recorded: of
 * instances starting at once, the first insert decides and every one gets its value.
 */
export async function recordIdentity(db: Db, name: IdentityName, value: string): Promise<string> {
  await db
    .insertInto('instance_identity')
    .values({ name, value, created_at: nowIso() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await readIdentity(db, name))!;
}

/**
 * This instance's secret key is the installation's: its fingerprint is recorded by the first
 * instance to start and every other must hold the same, else it could not read the webhook
 * secrets the others sealed (and what it sealed, they could not).
 */
export async function checkSecretKey(db: Db, fingerprint: string, where: { secretKeySet: boolean; dataDir: string }): Promise<void> {
  const recorded = await recordIdentity(db, IDENTITY.secretKey, fingerprint);
  if (recorded === fingerprint) return;
  const source = where.secretKeySet ? 'GATEHOUSE_SECRET_KEY' : `the key generated into ${where.dataDir}/secret.key (GATEHOUSE_SECRET_KEY is not set)`;
  throw new ConfigError(
    [
      'Gatehouse cannot start: this instance has another secret key than the installation.',
      `  Its key is ${source}; the database records the key of the instance that started first (fingerprint ${recorded.slice(0, 16)}, this one ${fingerprint.slice(0, 16)}).`,
      '  The secrets Gatehouse keeps encrypted (webhook tokens, custom headers) can be read only with that key.',
      '  Set the same GATEHOUSE_SECRET_KEY on every instance (or copy secret.key from the first instance’s data directory into this one’s).',
    ].join('\n'),
  );
}
