import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ProjectRow } from '../db/schema.ts';

const run = promisify(execFile);

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
    const { stdout } = await run('git', ['--version']);
    return stdout.trim();
  } catch (e) {
    return new Error(`git is not installed or not on PATH (${(e as Error).message}); on Debian: apt-get install -y git`);
  }
}

/**
 * The project's repository, made empty on first use. Made by `git init` into a temporary name
 * and renamed into place, so two first uses at once never see a half-made repository.
 */
export async function ensureRepository(repositoriesDir: string, project: Pick<ProjectRow, 'id'>): Promise<string> {
  const dir = repositoryPath(repositoriesDir, project);
  if (fs.existsSync(path.join(dir, 'HEAD'))) return dir;
  fs.mkdirSync(repositoriesDir, { recursive: true });
  const tmp = `${dir}.init-${process.pid}-${Date.now()}`;
  await run('git', ['init', '--quiet', '--bare', `--initial-branch=${DEFAULT_BRANCH}`, tmp]);
  // Pushes over HTTP are allowed by the server's own checks, not by git's anonymous default.
  await run('git', ['-C', tmp, 'config', 'http.receivepack', 'true']);
  try {
    fs.renameSync(tmp, dir);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, 'HEAD'))) throw e;
  }
  return dir;
}

/** Removes a deleted project's repository. */
export function removeRepository(repositoriesDir: string, project: Pick<ProjectRow, 'id'>): void {
  fs.rmSync(repositoryPath(repositoriesDir, project), { recursive: true, force: true });
}
