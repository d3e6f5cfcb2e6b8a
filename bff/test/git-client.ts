import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What git answered: whether it succeeded, and everything it printed (`remote:` lines included). */
export interface GitOutcome {
  ok: boolean;
  out: string;
}

/**
 * A working clone of a project over HTTP as one user (their token as the Basic password), driven
 * by the real `git` client with no prompt and no user configuration: for the suites that need a
 * real push by a given role (merging, trains) rather than a commit through the API.
 */
export interface GitClient {
  dir: string;
  git(args: string[]): Promise<GitOutcome>;
  /** Checks out `branch` as the server has it, commits `files` on it and pushes it; answers the new commit and git's outcome. */
  pushCommit(branch: string, files: Record<string, string>, message?: string): Promise<GitOutcome & { sha: string }>;
  remove(): void;
}

export async function cloneAs(serverUrl: string, fullPath: string, user: { username: string; name?: string }, token: string): Promise<GitClient> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-client-'));
  const dir = path.join(home, 'repo');
  const url = new URL(`${serverUrl}/${fullPath}.git`);
  url.username = user.username;
  url.password = token;
  const email = `${user.username}@example.com`;
  const env = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: home,
    GIT_AUTHOR_NAME: user.name ?? user.username,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: user.name ?? user.username,
    GIT_COMMITTER_EMAIL: email,
  };
  const git = async (args: string[], cwd = dir): Promise<GitOutcome> => {
    try {
      const { stdout, stderr } = await run('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
      return { ok: true, out: stdout + stderr };
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
    }
  };
  const cloned = await git(['clone', '--quiet', url.toString(), dir], home);
  if (!cloned.ok) throw new Error(`clone failed: ${cloned.out}`);
  return {
    dir,
    git: (args) => git(args),
    async pushCommit(branch, files, message = `Change ${Object.keys(files).join(', ')}`) {
      await git(['fetch', '--quiet', 'origin']);
      const there = await git(['rev-parse', '--verify', '--quiet', `origin/${branch}`]);
      await git(['checkout', '-q', '-B', branch, ...(there.ok ? [`origin/${branch}`] : [])]);
      for (const [name, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), content);
        await git(['add', name]);
      }
      const committed = await git(['commit', '-q', '-m', message]);
      if (!committed.ok) throw new Error(`commit failed: ${committed.out}`);
      const sha = (await git(['rev-parse', 'HEAD'])).out.trim();
      return { ...(await git(['push', 'origin', `${branch}:refs/heads/${branch}`])), sha };
    },
    remove: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}
