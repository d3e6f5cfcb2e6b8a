import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/index.ts';
import type { ProjectRow } from '../../db/schema.ts';
import { ServerFault } from '../../util/errors.ts';
import { HOOK_SCRIPT, hookStub } from './hook-script.ts';
import { gitText } from './git-run.ts';

/** The branch a new repository starts with, as on the platform. */
export const DEFAULT_BRANCH = 'main';

/**
 * A project's bare repository, named by the project's id (as the platform's hashed storage
 * does), so that renaming or moving a project never moves files.
 */
export const repositoryPath = (repositoriesDir: string, project: Pick<ProjectRow, 'id'>) => path.join(repositoriesDir, `${project.id}.git`);

/** The system's git, or why it cannot be used: said at start-up rather than at the first clone. */
export async function gitVersion(): Promise<string | Error> {
  try {
    return (await gitText('/', ['--version'])).trim();
  } catch (e) {
    return new Error(`git is not installed or not on PATH (${(e as Error).message}); on Debian: apt-get install -y git`);
  }
}

/**
 * A project whose repository was made (its `repository_created`) but whose directory is not
 * there: the directory was lost, or this instance looks in another directory than the one the
 * others write (GATEHOUSE_REPOSITORIES_DIR). Answered 500 and logged, never served as a new
 * empty repository (whose pushes would start a second history of the project).
 */
export class RepositoryMissingError extends ServerFault {
  constructor(
    readonly projectId: number,
    readonly dir: string,
  ) {
    super(`repository missing: project ${projectId} had its repository made, but ${dir} does not hold it`, { project_id: projectId, path: dir });
  }
}

/** Whether the project's repository was made (a project not in the database has none). */
async function repositoryWasCreated(db: Db, projectId: number): Promise<boolean> {
  const row = await db.selectFrom('projects').select('repository_created').where('id', '=', projectId).executeTakeFirst();
  return Boolean(row?.repository_created);
}

/** Records that the projects' repositories were made. */
export async function markRepositoriesCreated(db: Db, projectIds: number[]): Promise<void> {
  for (let i = 0; i < projectIds.length; i += 500) {
    await db.updateTable('projects').set({ repository_created: 1 }).where('id', 'in', projectIds.slice(i, i + 500)).where('repository_created', '=', 0).execute();
  }
}

/**
 * The project's repository, made empty on first use and recorded as made (the database is
 * asked only when the directory is missing). Once made, a missing directory is a
 * RepositoryMissingError, never a new empty repository. Made by `git init` into a temporary
 * name and renamed into place, so two first uses at once never see a half-made repository.
 */
export async function ensureRepository(db: Db, repositoriesDir: string, project: Pick<ProjectRow, 'id'>): Promise<string> {
  const dir = repositoryPath(repositoriesDir, project);
  if (fs.existsSync(path.join(dir, 'HEAD'))) {
    installHooks(dir);
    return dir;
  }
  if (await repositoryWasCreated(db, project.id)) throw new RepositoryMissingError(project.id, dir);
  fs.mkdirSync(repositoriesDir, { recursive: true });
  const tmp = `${dir}.init-${process.pid}-${Date.now()}`;
  await gitText(repositoriesDir, ['init', '--quiet', '--bare', `--initial-branch=${DEFAULT_BRANCH}`, tmp]);
  // Pushes over HTTP are allowed by the server's own checks, not by git's anonymous default.
  await gitText(tmp, ['config', 'http.receivepack', 'true']);
  installHooks(tmp);
  try {
    fs.renameSync(tmp, dir);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, 'HEAD'))) throw e;
  }
  await markRepositoriesCreated(db, [project.id]);
  return dir;
}

/** Removes a deleted project's repository. */
export function removeRepository(repositoriesDir: string, project: Pick<ProjectRow, 'id'>): void {
  fs.rmSync(repositoryPath(repositoriesDir, project), { recursive: true, force: true });
}

/**
 * The repository's hooks: pre-receive and post-receive hand git's ref updates to the server
 * that spawned git (git/hook-channel.ts), which checks the push (services/push-checks.ts) and
 * records it (services/push-events.ts). Written when they change.
 */
const HOOK_FILES: Record<string, string> = {
  'gatehouse-hook.cjs': HOOK_SCRIPT,
  'pre-receive': hookStub('pre-receive'),
  'post-receive': hookStub('post-receive'),
};

function installHooks(dir: string): void {
  for (const [name, content] of Object.entries(HOOK_FILES)) {
    const file = path.join(dir, 'hooks', name);
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === content) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, content, { mode: 0o755 });
    fs.renameSync(`${file}.tmp`, file);
  }
}

/** git's quarantine of a push's objects until its pre-receive accepts them (objects/tmp_objdir-incoming-XXXXXX). */
const QUARANTINE = /^tmp_objdir-/;

/**
 * Removes the quarantine folders that pushes killed mid-way left behind (git removes its own
 * when a push ends, accepted or not, but a killed git cannot): those in which nothing was
 * written for `idleMs`, so a push still receiving (it keeps writing its pack) is never touched.
 * Run by the hourly housekeeping; answers how many folders went and their size.
 */
export async function purgeStaleQuarantines(repositoriesDir: string, idleMs: number, now = Date.now()): Promise<{ removed: number; bytes: number }> {
  const purged = { removed: 0, bytes: 0 };
  const repositories = await fs.promises.readdir(repositoriesDir).catch(() => [] as string[]);
  for (const repository of repositories.filter((name) => name.endsWith('.git'))) {
    const objects = path.join(repositoriesDir, repository, 'objects');
    const names = await fs.promises.readdir(objects).catch(() => [] as string[]);
    for (const name of names.filter((n) => QUARANTINE.test(n))) {
      const folder = path.join(objects, name);
      const written = await lastWrite(folder);
      if (!written || now - written.newest < idleMs) continue;
      await fs.promises.rm(folder, { recursive: true, force: true });
      purged.removed += 1;
      purged.bytes += written.bytes;
    }
  }
  return purged;
}

/** The newest modification time under a folder (itself included) and the size of its files; undefined if it is gone. */
async function lastWrite(folder: string): Promise<{ newest: number; bytes: number } | undefined> {
  const stat = await fs.promises.lstat(folder).catch(() => undefined);
  if (!stat) return undefined;
  if (!stat.isDirectory()) return { newest: stat.mtimeMs, bytes: stat.size };
  let newest = stat.mtimeMs;
  let bytes = 0;
  for (const entry of await fs.promises.readdir(folder).catch(() => [] as string[])) {
    const inner = await lastWrite(path.join(folder, entry));
    if (!inner) continue;
    newest = Math.max(newest, inner.newest);
    bytes += inner.bytes;
  }
  return { newest, bytes };
}
