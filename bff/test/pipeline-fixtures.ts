import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Pushes one empty commit to main of the repository at `httpUrl` (a project's
 * http_url_to_repo) with the real git client and `token`; returns its SHA. Pipelines and
 * commit statuses need a commit to stand on.
 */
export async function pushCommit(httpUrl: string, token: string, message = 'fixture'): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-commit-'));
  try {
    const url = new URL(httpUrl);
    url.username = 'root';
    url.password = token;
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: dir, GIT_AUTHOR_NAME: 'F', GIT_AUTHOR_EMAIL: 'f@example.com', GIT_COMMITTER_NAME: 'F', GIT_COMMITTER_EMAIL: 'f@example.com' };
    await run('git', ['clone', '--quiet', url.toString(), `${dir}/r`], { env });
    await run('git', ['commit', '-q', '--allow-empty', '-m', message], { cwd: `${dir}/r`, env });
    await run('git', ['push', '--quiet', 'origin', 'HEAD:main'], { cwd: `${dir}/r`, env });
    return (await run('git', ['rev-parse', 'HEAD'], { cwd: `${dir}/r`, env })).stdout.trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
