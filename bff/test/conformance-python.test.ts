// Runs on SQLite only: the client's wire (headers, status codes, error bodies, pagination) is the same on both engines, and the API tests run each query on PostgreSQL
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../src/server.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Client conformance, python-gitlab: Debian's python3-gitlab (3.12) drives a real server
 * through every area, scenario by scenario (bff/test/conformance/python_gitlab.py). Each
 * scenario is reported here as a test of its own, failing with the script's own account.
 *
 * Debian's interpreter is used on purpose (GATEHOUSE_PYTHON overrides it): the python3 first
 * on PATH may be another installation without the package. scripts/python-gitlab.sh, sourced
 * by `npm test`, installs the package when it is missing.
 */
const PYTHON = process.env.GATEHOUSE_PYTHON ?? '/usr/bin/python3';
const SCRIPT = path.join(repoRoot, 'bff/test/conformance/python_gitlab.py');
/**
 * Only a guard against a script that hangs: the scenarios take about a minute alone, and in
 * `npm test`, where the HTTP suite runs a step below the console suite's browser (nice), over
 * five (killed at 300 s with every scenario so far passing, on CI's load); so the guard is wide.
 */
const TIMEOUT_MS = 900_000;

interface ScenarioResult {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}

function pythonGitlabProblem(): string | null {
  if (!fs.existsSync(PYTHON)) return `${PYTHON} does not exist`;
  const probe = spawnSync(PYTHON, ['-c', 'import gitlab; print(gitlab.__version__)'], { encoding: 'utf8' });
  if (probe.status !== 0) return `${PYTHON} cannot import gitlab: ${(probe.stderr || probe.stdout).trim().split('\n').pop()}`;
  return null;
}

function runScript(server: TestServer): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT], {
      cwd: repoRoot,
      env: { ...process.env, GATEHOUSE_URL: server.url, GATEHOUSE_TOKEN: server.rootToken, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('python-gitlab against a real server', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ GATEHOUSE_HOOK_TIMEOUT_SECONDS: '2' });
  });
  after(async () => {
    await server.close();
  });

  it('runs every scenario; each one passes', async (t) => {
    const problem = pythonGitlabProblem();
    assert.equal(problem, null, `python-gitlab is not available (${problem}); run scripts/python-gitlab.sh as root, or set GATEHOUSE_PYTHON`);
    const { code, output } = await runScript(server);
    const line = output.split('\n').find((l) => l.startsWith('RESULTS '));
    assert.ok(line, `the script ended (exit ${code}) without reporting its scenarios:\n${output}`);
    const results = JSON.parse(line.slice('RESULTS '.length)) as ScenarioResult[];
    assert.ok(results.length >= 20, `only ${results.length} scenarios ran:\n${output}`);
    for (const r of results) {
      await t.test(r.name, () => {
        if (!r.ok) assert.fail(`python-gitlab scenario ${r.name} failed:\n${r.detail}`);
      });
    }
    const failed = results.filter((r) => !r.ok).map((r) => r.name);
    assert.equal(code, failed.length ? 1 : 0, `exit status of the script:\n${output}`);
  });
});
