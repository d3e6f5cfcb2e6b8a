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
 * The default branch is protected as the platform protects it by default: Maintainers may
 * push to it, nobody may force-push or delete it. Checked in git's pre-receive step, before
 * any ref moves; the server tells the hook who pushes (GATEHOUSE_PUSH_PROTECTED) and which
 * branch is the default. The messages are the platform's, shown on git's `remote:` lines.
 */
const PRE_RECEIVE = `#!/bin/sh
# Written by Gatehouse (services/repositories.ts); rewritten when it changes.
zero=0000000000000000000000000000000000000000
status=0
while read -r old new ref; do
  [ "$ref" = "refs/heads/$GATEHOUSE_DEFAULT_BRANCH" ] || continue
  if [ "$new" = "$zero" ]; then
    echo "You can only delete protected branches using the web interface." >&2; status=1; continue
  fi
  if [ "$GATEHOUSE_PUSH_PROTECTED" != 1 ]; then
    echo "You are not allowed to push code to protected branches on this project." >&2; status=1; continue
  fi
  if [ "$old" != "$zero" ] && ! git merge-base --is-ancestor "$old" "$new"; then
    echo "You are not allowed to force push code to a protected branch on this project." >&2; status=1
  fi
done
exit $status
`;

function installHooks(dir: string): void {
  const hook = path.join(dir, 'hooks', 'pre-receive');
  if (fs.existsSync(hook) && fs.readFileSync(hook, 'utf8') === PRE_RECEIVE) return;
  fs.mkdirSync(path.dirname(hook), { recursive: true });
  fs.writeFileSync(`${hook}.tmp`, PRE_RECEIVE, { mode: 0o755 });
  fs.renameSync(`${hook}.tmp`, hook);
}
