import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { git, GitError, gitText } from './git-run.ts';

/** The spawner processes this process forked (git-spawner.mjs), found in /proc. */
function spawnerPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('git-spawner.mjs');
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('git() through the spawner process', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-git-run-'));
    execFileSync('git', ['init', '--quiet', '--bare', dir]);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('passes the input and answers the output, byte for byte', async () => {
    const content = Buffer.concat([Buffer.from('binary \u00e9\n'), crypto.randomBytes(70_000)]);
    const sha = (await gitText(dir, ['hash-object', '-w', '--stdin'], { input: content })).trim();
    const expected = crypto.createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
    assert.equal(sha, expected);
    assert.deepEqual(await git(dir, ['cat-file', 'blob', sha]), content);
  });

  it('answers a failing run as a GitError with its exit code and standard error', async () => {
    await assert.rejects(git(dir, ['rev-parse', '--verify', 'refs/heads/nowhere']), (e: unknown) => {
      assert.ok(e instanceof GitError);
      assert.equal(e.code, 128);
      assert.match(e.stderr, /fatal: Needed a single revision/);
      return true;
    });
  });

  it('passes the environment of the run (an author from env)', async () => {
    const tree = (await gitText(dir, ['mktree'], { input: '' })).trim();
    const env = { GIT_AUTHOR_NAME: 'Env Author', GIT_AUTHOR_EMAIL: 'env@example.com', GIT_COMMITTER_NAME: 'Env Author', GIT_COMMITTER_EMAIL: 'env@example.com' };
    const commit = (await gitText(dir, ['commit-tree', tree, '-m', 'from env'], { env })).trim();
    assert.match(await gitText(dir, ['cat-file', 'commit', commit]), /^author Env Author <env@example\.com>/m);
  });

  it('stops a run whose output passes maxBytes', async () => {
    const sha = (await gitText(dir, ['hash-object', '-w', '--stdin'], { input: Buffer.alloc(200_000, 'x') })).trim();
    await assert.rejects(git(dir, ['cat-file', 'blob', sha], { maxBytes: 1000 }), /output over 1000 bytes/);
  });

  it('keeps the answers of runs under way at once apart', async () => {
    const inputs = Array.from({ length: 40 }, (_, i) => `content ${i}\n`);
    const shas = await Promise.all(inputs.map((input) => gitText(dir, ['hash-object', '--stdin'], { input })));
    assert.deepEqual(
      shas.map((s) => s.trim()),
      inputs.map((input) => crypto.createHash('sha1').update(`blob ${input.length}\0${input}`).digest('hex')),
    );
  });

  it('forks one spawner, and another after it dies', async () => {
    await git(dir, ['rev-parse', '--git-dir']);
    const [pid] = spawnerPids();
    assert.ok(pid, 'a spawner process runs');
    assert.equal(spawnerPids().length, 1);
    process.kill(pid, 'SIGKILL');
    // Gone once reaped (a zombie has no command line, so wait for its /proc entry to go).
    for (let i = 0; i < 100 && fs.existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await gitText(dir, ['rev-parse', '--is-bare-repository'])).trim(), 'true');
    const now = spawnerPids();
    assert.equal(now.length, 1);
    assert.notEqual(now[0], pid);
  });

  it('does not keep a process alive once its runs are done, and leaves with it', async () => {
    const gitRun = fileURLToPath(new URL('./git-run.ts', import.meta.url));
    const script = `import { gitText } from ${JSON.stringify(gitRun)}; console.log((await gitText(${JSON.stringify(dir)}, ['rev-parse', '--is-bare-repository'])).trim());`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the script did not exit within 20 s: the spawner kept it alive'));
      }, 20_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 0);
    assert.equal(out.trim(), 'true');
  });
});
