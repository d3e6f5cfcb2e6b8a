import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { daysFromToday, expiryBounds, expiryStatus, inDays, MAX_LIFETIME_DAYS, rotationExpiry, serverToday } from './token-expiry.ts';

// As in a browser east of Greenwich: Node applies a new TZ to the dates made after it is set.
process.env.TZ = 'Asia/Tokyo';

// 23:30 UTC on March 1st: already March 2nd east of Greenwich, the server's day is still the 1st.
const now = new Date('2025-03-01T23:30:00.000Z');

describe('the server’s day', () => {
  it('is the UTC date, wherever the browser is', () => {
    assert.equal(serverToday(now), '2025-03-01');
  });
  it('counts days from it, across months and years', () => {
    assert.equal(daysFromToday(1, now), '2025-03-02');
    assert.equal(daysFromToday(-1, now), '2025-02-28');
    assert.equal(daysFromToday(-30, now), '2025-01-30');
    assert.equal(daysFromToday(365, now), '2026-03-01');
  });
  it('offers expiry dates from tomorrow to a year ahead', () => {
    assert.deepEqual(expiryBounds(now), { min: '2025-03-02', max: '2026-03-01' });
    assert.equal(MAX_LIFETIME_DAYS, 365);
  });
});

describe('rotationExpiry', () => {
  it('gives the new token the lifetime the old one was made with', () => {
    assert.equal(rotationExpiry({ created_at: '2025-01-10T08:00:00.000Z', expires_at: '2025-02-09' }, now), '2025-03-31');
  });
  it('gives at least a day and at most a year', () => {
    assert.equal(rotationExpiry({ created_at: '2025-01-10T08:00:00.000Z', expires_at: '2025-01-10' }, now), '2025-03-02');
    assert.equal(rotationExpiry({ created_at: '2020-01-01T00:00:00.000Z', expires_at: '2024-01-01' }, now), '2026-03-01');
  });
  it('gives a token without an expiry the longest', () => {
    assert.equal(rotationExpiry({ created_at: '2025-01-10T08:00:00.000Z', expires_at: null }, now), '2026-03-01');
  });
});

describe('expiryStatus', () => {
  it('has none without a date', () => {
    assert.deepEqual(expiryStatus(null, now), { kind: 'none' });
  });
  it('is expired on its expiry day and after', () => {
    assert.deepEqual(expiryStatus('2025-03-01', now), { kind: 'expired' });
    assert.deepEqual(expiryStatus('2025-02-01', now), { kind: 'expired' });
  });
  it('is soon within a week, later after', () => {
    assert.deepEqual(expiryStatus('2025-03-02', now), { kind: 'soon', days: 1 });
    assert.deepEqual(expiryStatus('2025-03-08', now), { kind: 'soon', days: 7 });
    assert.deepEqual(expiryStatus('2025-03-09T00:00:00.000Z', now), { kind: 'later', days: 8 });
  });
  it('inDays says tomorrow for one day', () => {
    assert.equal(inDays(1), 'tomorrow');
    assert.equal(inDays(6), 'in 6 days');
  });
});
