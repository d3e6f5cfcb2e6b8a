import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { composeStatus, runningSeconds } from './pipelines.ts';

const jobs = (...statuses: string[]) => statuses.map((status) => ({ status, allow_failure: 0 }));

describe('composeStatus (the platform’s composite status)', () => {
  it('is undefined without jobs', () => {
    assert.equal(composeStatus([]), undefined);
  });
  it('passes when every job passed or was skipped; skipped when all were', () => {
    assert.equal(composeStatus(jobs('success', 'skipped')), 'success');
    assert.equal(composeStatus(jobs('skipped', 'skipped')), 'skipped');
  });
  it('runs while any job runs or waits beside finished ones; pending while all wait', () => {
    assert.equal(composeStatus(jobs('success', 'pending')), 'running');
    assert.equal(composeStatus(jobs('running', 'failed')), 'running');
    assert.equal(composeStatus(jobs('pending', 'created')), 'pending');
    assert.equal(composeStatus(jobs('created')), 'created');
    assert.equal(composeStatus(jobs('success', 'created')), 'running');
  });
  it('fails when a job failed and none still moves; canceled when canceled beside passed ones', () => {
    assert.equal(composeStatus(jobs('success', 'failed')), 'failed');
    assert.equal(composeStatus(jobs('failed', 'canceled')), 'failed');
    assert.equal(composeStatus(jobs('success', 'canceled')), 'canceled');
  });
  it('counts a failed job that may fail as a success with warnings', () => {
    assert.equal(composeStatus([{ status: 'failed', allow_failure: 1 }, { status: 'success', allow_failure: 0 }]), 'success');
  });
});

describe('runningSeconds', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  it('counts the union of the jobs’ running periods', () => {
    assert.equal(runningSeconds([{ started_at: at(0), finished_at: at(10) }, { started_at: at(5), finished_at: at(20) }, { started_at: at(30), finished_at: at(35) }]), 25);
  });
  it('is null when no job started', () => {
    assert.equal(runningSeconds([{ started_at: null, finished_at: at(3) }]), null);
  });
});
