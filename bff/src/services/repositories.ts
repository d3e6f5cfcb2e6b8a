import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ProjectRow } from '../db/schema.ts';
import { HOOK_SCRIPT, hookStub } from '../git/hook-script.ts';

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
  if (fs.existsSync(path.join(dir, 'HEAD'))) {
    installHooks(dir);
    return dir;
  }
  fs.mkdirSync(repositoriesDir, { recursive: true });
  const tmp = `${dir}.init-${process.pid}-${Date.now()}`;
  await run('git', ['init', '--quiet', '--bare', `--initial-branch=${DEFAULT_BRANCH}`, tmp]);
  // Pushes over HTTP are allowed by the server's own checks, not by git's anonymous default.
  await run('git', ['-C', tmp, 'config', 'http.receivepack', 'true']);
  installHooks(tmp);
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
