import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';
import { migrate, openDb, type Db } from './db/index.ts';
import { createServer } from './app.ts';
import { bootstrap, type BootstrapResult } from './seed/bootstrap.ts';
import { seedDemo } from './seed/demo.ts';
import { openVault, type Vault } from './auth/vault.ts';
import { checkFileStore, openFileStore, type FileStore } from './files/index.ts';
import { startJobWorkers } from './jobs/index.ts';
import { useEnvironmentDefaults } from './services/instance/features.ts';
import { listenAcrossRooms } from './listeners.ts';
import { checkSecretKey } from './services/instance/identity.ts';
import { establishStorageIdentity, repositoriesStorageProbe } from './services/git/storage.ts';
import { databaseCheck, jobWorkersCheck, type ReadinessCheck } from './http/readiness.ts';
import type { Workers } from './queue/worker.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Running {
  server: http.Server;
  db: Db;
  url: string;
  bootstrap: BootstrapResult;
  demo: { password: string } | null;
  vault: Vault;
  files: FileStore;
  close(): Promise<void>;
}

/** Opens and migrates the database, creates the administrator, seeds demo data, listens. */
export async function startServer(config: Config, opts: { logger?: Logger } = {}): Promise<Running> {
  const logger = opts.logger ?? pino({ level: config.logLevel });
  // Before anything writes (the demo data pushes): pushes and pipelines are heard across rooms.
  listenAcrossRooms();
  const db = openDb({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'gatehouse.sqlite3'),
    // Every job worker may hold a connection while requests keep theirs.
    poolSize: config.workers + 10,
    onIdleError: (err) => logger.warn({ err }, 'database connection dropped'),
  });
  await migrate(db);
  const vault = openVault({ secretKey: config.secretKey, dataDir: config.dataDir });
  try {
    // What every instance must share: refused here (a ConfigError) before anything is written.
    await checkSecretKey(db, vault.fingerprint(), { secretKeySet: Boolean(config.secretKey), dataDir: config.dataDir });
    const storage = await establishStorageIdentity(db, config.repositoriesDir);
    if (storage.recorded) logger.info({ storage_id: storage.id, repositories_dir: config.repositoriesDir }, 'recorded the storage identity of the repositories directory');
  } catch (e) {
    await db.destroy();
    throw e;
  }
  useEnvironmentDefaults(db, config);
  const boot = await bootstrap(db, config);
  const files = openFileStore(db, config);
  const demo = config.demo && boot.created ? await seedDemo(db, config, vault) : null;
  // Started once the server listens (their deliveries name its URL); until then readiness says so.
  const jobWorkers: { started?: Workers } = {};
  // What GET /-/readiness checks (http/readiness.ts), each answered as `<name>_check`. A check
  // is one entry: a name and a function answering `{ ok, detail }` (the detail, shown when it
  // fails, names no credential or connection string).
  const storageProbe = repositoriesStorageProbe(db, config, (found) => {
    if (found.missing?.length) logger.error({ project_ids: found.missing.slice(0, 100) }, `readiness: ${found.detail}`);
  });
  const readinessChecks: ReadinessCheck[] = [
    { name: 'db', run: () => databaseCheck(db, logger) },
    { name: 'job_workers', run: async () => jobWorkersCheck(config, jobWorkers.started) },
    {
      // The directory is not the installation's (not mounted, another one): out. Repositories the
      // database knows but the directory lacks are told and logged, but leave the instance in:
      // every instance shares the directory, so taking one out would take them all.
      name: 'repositories_storage',
      run: async () => {
        const found = await storageProbe();
        return found.missing?.length ? { ok: true, warning: found.detail } : found;
      },
    },
    { name: 'file_store', run: () => checkFileStore(files) },
  ];
  const server = createServer({ db, config, vault, files, logger, webDist: path.join(repoRoot, 'dist'), readinessChecks });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = config.externalUrl ?? `http://${host}:${port}`;
  const workers = (jobWorkers.started = startJobWorkers({ db, vault, files, config, instanceUrl: url, logger }));
  return {
    server,
    db,
    url,
    vault,
    files,
    bootstrap: boot,
    demo,
    async close() {
      await workers.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await db.destroy();
    },
  };
}
