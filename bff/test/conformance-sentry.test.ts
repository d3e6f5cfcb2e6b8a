import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { repoRoot } from '../src/server.ts';
import { trackedError, trackedErrorDetails } from '../../shared/src/error-tracking.ts';
import { sessionCounts } from '../src/services/error-tracking/collector.ts';
import { buildGroup, buildProject, expectStatus, request as api, startTestServer, type TestServer } from './harness.ts';

/**
 * Client conformance, error tracking: two official Sentry SDKs, unchanged, report into a real
 * server through the DSN its API hands out: @sentry/node (npm; envelopes, the key in the query,
 * gzip past 32 KB) and Debian's python3-sentry-sdk (events to the store endpoint and sessions in
 * envelopes, gzipped, the key in X-Sentry-Auth). Each SDK runs in a process of its own
 * (bff/test/conformance/sentry_node.mjs, sentry_python.py) and flushes before it exits, so what
 * it sent is recorded when the process ends. What they recorded is read back through the API.
 */
const PYTHON = process.env.GATEHOUSE_PYTHON ?? '/usr/bin/python3';
const NODE_SCRIPT = path.join(repoRoot, 'bff/test/conformance/sentry_node.mjs');
const PYTHON_SCRIPT = path.join(repoRoot, 'bff/test/conformance/sentry_python.py');
const TIMEOUT_MS = 60_000;

function run(command: string, script: string, dsn: string, tag: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [script], {
      cwd: repoRoot,
      env: { ...process.env, SENTRY_DSN: dsn, SCENARIO_TAG: tag, PYTHONDONTWRITEBYTECODE: '1', NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0 || !output.includes('FLUSHED')) reject(new Error(`${path.basename(script)} (${tag}) exited ${code}:\n${output}`));
      else resolve(output);
    });
  });
}

let server: TestServer;
/** A project with tracking on and a key: its id and DSN. */
async function trackedProject() {
  const project = await buildProject((await buildGroup()).id);
  expectStatus(await api(`/projects/${project.id}/error_tracking/settings`, { method: 'PUT', json: { active: true, integrated: true } }), 200);
  const key = await api(`/projects/${project.id}/error_tracking/client_keys`, { method: 'POST' });
  expectStatus(key, 201);
  return { id: project.id, dsn: key.body.sentry_dsn as string, keyId: key.body.id as number, publicKey: key.body.public_key as string };
}

async function errorsOf(projectId: number) {
  const res = await api(`/projects/${projectId}/error_tracking/errors?per_page=100`);
  expectStatus(res, 200);
  return z.array(trackedError).parse(res.body);
}
async function details(projectId: number, id: number) {
  const res = await api(`/projects/${projectId}/error_tracking/errors/${id}`);
  expectStatus(res, 200);
  return trackedErrorDetails.parse(res.body);
}
const named = (list: z.output<typeof trackedError>[], title: string) => list.filter((e) => e.title === title);

describe('official Sentry SDKs against a real server', () => {
  let nodeProject: Awaited<ReturnType<typeof trackedProject>>;
  let pythonProject: Awaited<ReturnType<typeof trackedProject>>;
  let foreign: Awaited<ReturnType<typeof trackedProject>>;
  before(async () => {
    server = await startTestServer();
    [nodeProject, pythonProject, foreign] = await Promise.all([trackedProject(), trackedProject(), trackedProject()]);
  });
  after(async () => {
    await server.close();
  });

  it('@sentry/node: exceptions twice from two users, a message, a gzipped event and a session; a revoked key and another project’s key record nothing', async () => {
    // A key revoked before use, and the other project's key aimed at this project.
    const revoked = await api(`/projects/${nodeProject.id}/error_tracking/client_keys`, { method: 'POST' });
    expectStatus(await api(`/projects/${nodeProject.id}/error_tracking/client_keys/${revoked.body.id}`, { method: 'DELETE' }), 200);
    const foreignDsn = nodeProject.dsn.replace(nodeProject.publicKey, foreign.publicKey);
    await Promise.all([
      run(process.execPath, NODE_SCRIPT, nodeProject.dsn, 'ok'),
      run(process.execPath, NODE_SCRIPT, revoked.body.sentry_dsn, 'revoked'),
      run(process.execPath, NODE_SCRIPT, foreignDsn, 'foreign'),
    ]);
    const list = await errorsOf(nodeProject.id);
    assert.deepEqual(list.map((e) => e.title).sort(), ['RangeError: node gzip ok', 'TypeError: node conformance ok', 'node message ok']);
    const [exception] = named(list, 'TypeError: node conformance ok');
    assert.deepEqual([exception.count, exception.user_count], [2, 2]);
    assert.deepEqual(named(list, 'node message ok').map((e) => [e.count, e.user_count]), [[1, 0]]);
    assert.deepEqual(named(list, 'RangeError: node gzip ok').map((e) => e.count), [1]);
    const frames = (await details(nodeProject.id, exception.id)).stack_trace_entries;
    const top = frames.at(-1)!;
    assert.equal(top.function, 'failingHandler');
    assert.match(top.filename ?? '', /sentry_node\.mjs$/);
    assert.equal(top.lineNo, 11);
    assert.ok(top.context.some(([, line]) => line.includes('throw new TypeError')), JSON.stringify(top.context));
    assert.ok((await sessionCounts(server.running.db, nodeProject.id)).exited >= 1);
    assert.deepEqual(await errorsOf(foreign.id), []);
  });

  it('Debian’s python3-sentry-sdk: exceptions twice from two users, a message and a session, gzipped to the store and envelope endpoints', async (t) => {
    const probe = fs.existsSync(PYTHON) ? spawnSync(PYTHON, ['-c', 'import sentry_sdk'], { encoding: 'utf8' }) : undefined;
    assert.equal(probe?.status, 0, `${PYTHON} cannot import sentry_sdk: run scripts/debian-packages.sh as root (it installs python3-sentry-sdk), or set GATEHOUSE_PYTHON`);
    await run(PYTHON, PYTHON_SCRIPT, pythonProject.dsn, 'ok');
    t.diagnostic('python3-sentry-sdk reported');
    const list = await errorsOf(pythonProject.id);
    assert.deepEqual(list.map((e) => e.title).sort(), ['ValueError: python conformance ok', 'python message ok']);
    const [exception] = named(list, 'ValueError: python conformance ok');
    assert.deepEqual([exception.count, exception.user_count], [2, 2]);
    const frames = (await details(pythonProject.id, exception.id)).stack_trace_entries;
    assert.deepEqual(frames.map((f) => f.function), ['<module>', 'failing_handler']);
    assert.equal(frames.at(-1)!.filename, 'sentry_python.py');
    assert.ok(frames.at(-1)!.context.some(([, line]) => line.includes('raise ValueError')));
    assert.ok((await sessionCounts(server.running.db, pythonProject.id)).exited >= 1);
  });
});
