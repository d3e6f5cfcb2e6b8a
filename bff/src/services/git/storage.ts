import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { IDENTITY, readIdentity, recordIdentity } from '../instance/identity.ts';
import { markRepositoriesCreated, repositoryPath } from './repositories.ts';
import { repositoryExists } from './repository-state.ts';
import { errorCodeOf } from '../../util/errors.ts';

/**
 * Every instance of an installation reads and writes the same repositories: one directory on
 * shared storage (GATEHOUSE_REPOSITORIES_DIR). That it is the same is checked, not trusted: the
 * first instance writes a random id into a marker file there and the database records it; an
 * instance whose directory holds another id, or none, refuses to start.
 */
export const STORAGE_MARKER = '.gatehouse-storage-id';
const ID = /^[0-9a-f]{32}$/;

/** The id in the directory's marker file: undefined without one, the text (bounded) if it is not an id. */
export function readStorageMarker(repositoriesDir: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(repositoriesDir, STORAGE_MARKER), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return text.trim().slice(0, 64);
}

/**
 * Writes a new id into the marker unless the directory has one, and answers the directory's:
 * the file appears whole (linked from a written file), and of two instances writing at once
 * one link wins and both read its id.
 */
function writeStorageMarker(repositoriesDir: string): string {
  fs.mkdirSync(repositoriesDir, { recursive: true });
  const marker = path.join(repositoriesDir, STORAGE_MARKER);
  const tmp = `${marker}.${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(tmp, `${crypto.randomBytes(16).toString('hex')}\n`, { mode: 0o644 });
  try {
    fs.linkSync(tmp, marker);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return readStorageMarker(repositoriesDir)!;
}

function refusal(repositoriesDir: string, expected: string, found: string | undefined): ConfigError {
  return new ConfigError(
    [
      `Gatehouse cannot start: the repositories directory ${repositoriesDir} is not the installation's.`,
      `  The database records storage identity ${expected}; ${found === undefined ? `the directory has no ${STORAGE_MARKER} file` : `the directory's ${STORAGE_MARKER} holds ${JSON.stringify(found)}`}.`,
      '  Every instance on this database must read and write one repositories directory (shared storage that each one mounts):',
      `  point GATEHOUSE_REPOSITORIES_DIR at that directory, the one whose ${STORAGE_MARKER} holds ${expected}.`,
      '  Started here, this instance would serve empty or diverging repositories.',
    ].join('\n'),
  );
}

/**
 * At start, after the migrations: this instance's repositories directory is the one the
 * database knows, or it refuses to start (a ConfigError naming the directory and what to do).
 *
 * The first start on a database (a new one, or one upgraded from before the identity existed)
 * puts an id in the directory first (the one there, else a new one) and then offers it to the
 * database, whose first insert decides: so an instance that finds the database's id finds the
 * marker already written, and of instances starting at once with different directories all but
 * one refuse. An upgraded installation's projects whose repositories are there are recorded as
 * made, so that losing one later is an error rather than a new empty repository.
 */
export async function establishStorageIdentity(db: Db, repositoriesDir: string): Promise<{ id: string; recorded: boolean }> {
  const known = await readIdentity(db, IDENTITY.repositoriesStorage);
  if (known !== undefined) {
    const found = readStorageMarker(repositoriesDir);
    if (found !== known) throw refusal(repositoriesDir, known, found);
    return { id: known, recorded: false };
  }
  const found = readStorageMarker(repositoriesDir);
  if (found !== undefined && !ID.test(found)) {
    throw new ConfigError(`Gatehouse cannot start: ${path.join(repositoriesDir, STORAGE_MARKER)} holds ${JSON.stringify(found)}, not a storage identity (32 hexadecimal digits); remove the file if no other installation uses this directory.`);
  }
  const proposed = found ?? writeStorageMarker(repositoriesDir);
  const agreed = await recordIdentity(db, IDENTITY.repositoriesStorage, proposed);
  if (agreed !== proposed) throw refusal(repositoriesDir, agreed, proposed);
  await markExistingRepositories(db, repositoriesDir);
  return { id: agreed, recorded: true };
}

/** The projects of an installation from before `repository_created` whose repositories are in the directory, recorded as made. */
async function markExistingRepositories(db: Db, repositoriesDir: string): Promise<void> {
  const unmarked = await db.selectFrom('projects').select('id').where('repository_created', '=', 0).execute();
  const present = unmarked.filter((p) => repositoryExists(repositoryPath(repositoriesDir, p))).map((p) => p.id);
  await markRepositoriesCreated(db, present);
}

/** How many of the most recently active projects the storage check looks at (a stat each). */
export const STORAGE_CHECK_LIMIT = 1000;
/**
 * How long one look at the repositories stands: a load balancer probes readiness every few
 * seconds, and STORAGE_CHECK_LIMIT stats each time would be most of the probe's cost. The
 * identity is checked on every probe all the same (one query, one small file).
 */
export const STORAGE_SWEEP_INTERVAL_MS = 60_000;

export interface StorageCheck {
  ok: boolean;
  detail: string;
  /** Projects whose repository was made but whose directory is missing (of those looked at). */
  missing?: number[];
}

/**
 * For readiness: the repositories directory holds the identity the database knows, and the
 * repositories of the STORAGE_CHECK_LIMIT most recently active projects that had theirs made
 * are there. Never throws: a failure is a `detail`.
 */
export async function checkRepositoriesStorage(db: Db, config: Pick<Config, 'repositoriesDir'>): Promise<StorageCheck> {
  const identity = await checkStorageIdentity(db, config);
  return identity.ok ? sweepRepositories(db, config, identity.detail) : identity;
}

/**
 * checkRepositoriesStorage for a probe that comes again and again: the identity every time, the
 * sweep of the repositories at most once per `intervalMs` (its finding stands until then), and
 * `onSweep` told each new finding (to log the missing ones once, not at every probe).
 */
export function repositoriesStorageProbe(
  db: Db,
  config: Pick<Config, 'repositoriesDir'>,
  onSweep: (found: StorageCheck) => void,
  intervalMs = STORAGE_SWEEP_INTERVAL_MS,
): () => Promise<StorageCheck> {
  let last: { at: number; found: Promise<StorageCheck> } | undefined;
  return async () => {
    const identity = await checkStorageIdentity(db, config);
    if (!identity.ok) return identity;
    if (!last || Date.now() - last.at >= intervalMs) {
      const found = sweepRepositories(db, config, identity.detail);
      last = { at: Date.now(), found };
      onSweep(await found);
    }
    return last.found;
  };
}

async function checkStorageIdentity(db: Db, config: Pick<Config, 'repositoriesDir'>): Promise<StorageCheck> {
  try {
    const known = await readIdentity(db, IDENTITY.repositoriesStorage);
    const found = readStorageMarker(config.repositoriesDir);
    if (known === undefined) return { ok: false, detail: 'no storage identity is recorded in the database yet' };
    if (found !== known) {
      return { ok: false, detail: `${config.repositoriesDir} holds ${found === undefined ? `no ${STORAGE_MARKER}` : `storage identity ${found}`}, not ${known}` };
    }
    return { ok: true, detail: `storage identity ${known}` };
  } catch (e) {
    return couldNotCheck(e);
  }
}

async function sweepRepositories(db: Db, config: Pick<Config, 'repositoriesDir'>, identity: string): Promise<StorageCheck> {
  try {
    const projects = await db
      .selectFrom('projects')
      .select('id')
      .where('repository_created', '=', 1)
      .orderBy('last_activity_at', 'desc')
      .orderBy('id', 'desc')
      .limit(STORAGE_CHECK_LIMIT)
      .execute();
    const missing = projects.filter((p) => !repositoryExists(repositoryPath(config.repositoriesDir, p))).map((p) => p.id);
    if (missing.length) {
      return { ok: false, detail: `${missing.length} of ${projects.length} repositories checked are missing from ${config.repositoriesDir}`, missing };
    }
    return { ok: true, detail: `${identity}; ${projects.length} repositories checked` };
  } catch (e) {
    return couldNotCheck(e);
  }
}

function couldNotCheck(e: unknown): StorageCheck {
  const code = errorCodeOf(e);
  return { ok: false, detail: `the repositories storage could not be checked${code ? ` (${code})` : ''}` };
}
