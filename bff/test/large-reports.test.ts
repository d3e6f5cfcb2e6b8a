// Runs on SQLite only: the limits and the memory bound are the server process's streaming and parsing, the same on both engines; findings are stored on PostgreSQL by the pipelines and vulnerabilities API tests
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { securityReportResult } from '../../shared/src/security-reports.ts';
import { REPORT_MAX_BYTES } from '../src/services/security/security-reports.ts';
import { callInstance, sharedInstallation, type Instance, type SharedInstallation } from './instances.ts';
import { peakDuring, writeSastReport } from './large-files.ts';

/**
 * Security reports at the size limit, uploaded to a real server process whose resident memory
 * is read from /proc: a real SAST report just under the limit is taken, one just under the
 * old 512 MiB limit (whose whole text did not fit in one string: a 500) is refused as the
 * platform refuses an artifact too large, and nothing of it stays on disk or in the database.
 * The files are written to a temporary folder and removed after.
 */

const TOKEN = `large-reports-token-${crypto.randomBytes(6).toString('hex')}`;
const MB = 1024 * 1024;

let installation: SharedInstallation;
let server: Instance;
let work: string;
/** The server's own temporary folder, where uploads are streamed. */
let uploads: string;
let project: { id: number };
const call = (method: string, p: string, body?: unknown) => callInstance(server.url, TOKEN, method, p, body);

before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-reports-'));
  uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-report-uploads-'));
  installation = await sharedInstallation('large-reports', TOKEN);
  server = await installation.start({ TMPDIR: uploads });
  const group = (await call('POST', '/groups', { name: 'Reports', path: `reports-${crypto.randomBytes(3).toString('hex')}` })).body;
  project = (await call('POST', '/projects', { name: 'scanned', namespace_id: group.id })).body;
});
after(async () => {
  await installation?.close();
  for (const dir of [work, uploads]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

let commits = 0;
/** A new commit on main and its pipeline, reported by an external CI. */
async function newPipeline(): Promise<number> {
  const commit = await call('POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: `c${++commits}`, actions: [{ action: 'create', file_path: `f${commits}.txt`, content: 'x' }] });
  assert.equal(commit.status, 201, commit.text);
  const status = await call('POST', `/projects/${project.id}/statuses/${commit.body.id}`, { state: 'success', ref: 'main', name: 'scan' });
  assert.equal(status.status, 201, status.text);
  return status.body.pipeline_id as number;
}

/** Uploads a file from disk as a CI job would, streamed (never read whole here). */
async function upload(pipelineId: number, file: string): Promise<{ status: number; type: string | null; body: any }> {
  const form = new FormData();
  form.set('report_type', 'sast');
  form.set('file', await fs.openAsBlob(file, { type: 'application/json' }), 'gl-sast-report.json');
  const res = await fetch(`${server.url}/api/v4/projects/${project.id}/pipelines/${pipelineId}/reports`, { method: 'POST', headers: { 'PRIVATE-TOKEN': TOKEN }, body: form });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: text ? JSON.parse(text) : null };
}

const vulnerabilityCount = async () => Number((await fetch(`${server.url}/api/v4/projects/${project.id}/vulnerabilities?per_page=1`, { headers: { 'PRIVATE-TOKEN': TOKEN } })).headers.get('x-total'));

describe('POST /projects/:id/pipelines/:pipeline_id/reports with large reports', () => {
  it('takes real SAST reports just under the 100 MiB limit, three at once, parsed one at a time', async (t) => {
    const file = path.join(work, 'gl-sast-report.json');
    const findings = writeSastReport(file, REPORT_MAX_BYTES - 1024, 48 * 1024);
    const size = fs.statSync(file).size;
    assert.ok(size > REPORT_MAX_BYTES - 64 * 1024 && size <= REPORT_MAX_BYTES, `the report is just under the limit (${size} bytes)`);
    const pipelines: number[] = [];
    for (let i = 0; i < 4; i++) pipelines.push(await newPipeline());
    const alone = await peakDuring(server.child.pid!, () => upload(pipelines[0], file));
    t.diagnostic(`a ${(size / MB).toFixed(1)} MiB report (${findings} findings): RSS ${Math.round(alone.before / MB)} MB → peak ${Math.round(alone.peak / MB)} MB`);
    const { result, before: rss, peak } = await peakDuring(server.child.pid!, () => Promise.all(pipelines.slice(1).map((p) => upload(p, file))));
    t.diagnostic(`3 of them at once: RSS ${Math.round(rss / MB)} MB → peak ${Math.round(peak / MB)} MB`);
    for (const r of [alone.result, ...result]) {
      assert.equal(r.status, 201, JSON.stringify(r.body).slice(0, 300));
      assert.equal(securityReportResult.parse(r.body).findings_count, findings);
    }
    assert.equal(await vulnerabilityCount(), findings);
    // A report parsed holds its text, its document and its findings (over 3 times the file); three
    // at once are parsed one after the other, what the collector has not yet taken back aside.
    assert.ok(alone.peak - alone.before < 700 * MB, `a report took the server from ${Math.round(alone.before / MB)} MB to ${Math.round(alone.peak / MB)} MB`);
    assert.ok(peak - rss < 1200 * MB, `three reports took the server from ${Math.round(rss / MB)} MB to ${Math.round(peak / MB)} MB`);
    fs.rmSync(file);
  });

  it('answers 413 to a report just under the old 512 MiB limit, never a 500: the upload stops at the limit, nothing is kept', async (t) => {
    const file = path.join(work, 'huge.json');
    // JSON of 512 MiB less a byte: more characters than a string may hold (2^29 - 24), which the
    // whole file read into one string met with a RangeError.
    const size = 512 * MB - 1;
    const head = '{"version":"15.0.7","padding":"';
    const out = fs.openSync(file, 'w');
    fs.writeSync(out, head);
    const block = Buffer.alloc(MB, 'a');
    let left = size - head.length - 2;
    for (; left > MB; left -= MB) fs.writeSync(out, block);
    fs.writeSync(out, `${'a'.repeat(left)}"}`);
    fs.closeSync(out);
    assert.equal(fs.statSync(file).size, size);
    const before = await vulnerabilityCount();
    const pipeline = await newPipeline();
    const { result, before: rss, peak } = await peakDuring(server.child.pid!, () => upload(pipeline, file));
    t.diagnostic(`a 512 MiB report: ${result.status}, RSS ${Math.round(rss / MB)} MB → peak ${Math.round(peak / MB)} MB`);
    assert.equal(result.status, 413);
    assert.equal(result.type, 'application/json');
    assert.deepEqual(result.body, { message: '413 Request Entity Too Large' });
    assert.ok(peak - rss < 100 * MB, `the refused upload took the server from ${Math.round(rss / MB)} MB to ${Math.round(peak / MB)} MB`);
    assert.equal(await vulnerabilityCount(), before);
    // tsx keeps its cache there too.
    assert.deepEqual(
      fs.readdirSync(uploads).filter((f) => !f.startsWith('tsx-')),
      [],
      'no part of the upload is left on disk',
    );
    fs.rmSync(file);
  });

  it('refuses a report nested too deeply to be read with a 400 naming it, not a 500', async () => {
    const file = path.join(work, 'deep.json');
    const depth = 200_000;
    const nested = `${'{"type":"list","items":['.repeat(depth)}{"type":"text","value":"x"}${']}'.repeat(depth)}`;
    const finding = `{"id":"deep","name":"Deep","severity":"Low","identifiers":[{"type":"x","name":"x","value":"x"}],"location":{"file":"a.js"},"details":{"trace":{"name":"trace",${nested.slice(1)}}}`;
    fs.writeFileSync(file, `{"version":"15.0.7","scan":{"analyzer":{"id":"a","name":"a","version":"1","vendor":{"name":"v"}},"scanner":{"id":"a","name":"a","version":"1","vendor":{"name":"v"}},"type":"sast","start_time":"2026-11-20T10:00:00","end_time":"2026-11-20T10:01:00","status":"success"},"vulnerabilities":[${finding}]}`);
    const res = await upload(await newPipeline(), file);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
    assert.deepEqual(res.body, { message: { file: ['is nested too deeply to be read'] } });
    fs.rmSync(file);
  });
});
