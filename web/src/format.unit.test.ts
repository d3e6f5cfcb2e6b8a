import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  clockTime,
  formatCount,
  formatDate,
  formatNumber,
  formatPercent,
  formatPreciseDuration,
  formatRoundedDuration,
  formatSize,
  fromNow,
  fullDateTime,
  fullDateTimeToMinute,
  roleName,
  sentence,
  shortTime,
} from './format.ts';

/** An ISO instant of a local wall-clock time, so the expected text holds in any time zone. */
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s).toISOString();

describe('sentence', () => {
  it('capitalises the first letter of a validation message', () => {
    assert.equal(sentence('must be less than 255 characters'), 'Must be less than 255 characters');
  });
  it('leaves no message as none', () => {
    assert.equal(sentence(undefined), undefined);
    assert.equal(sentence(''), undefined);
  });
});

describe('dates and times', () => {
  it('formatDate writes a day, and a dash without one', () => {
    assert.equal(formatDate('2025-11-20'), 'Nov 20, 2025');
    assert.equal(formatDate(local(2025, 3, 4, 23, 59)), 'Mar 4, 2025');
    assert.equal(formatDate(null), '—');
    assert.equal(formatDate(undefined), '—');
    assert.equal(formatDate(''), '—');
  });
  it('fullDateTime is to the second, fullDateTimeToMinute to the minute', () => {
    const at = local(2025, 11, 20, 20, 31, 8);
    assert.equal(fullDateTime(at), 'Nov 20, 2025 20:31:08');
    assert.equal(fullDateTimeToMinute(at), 'Nov 20, 2025 20:31');
  });
  it('clockTime and shortTime leave out the day for today only', () => {
    const today = new Date();
    today.setHours(12, 0, 7, 0);
    assert.equal(clockTime(today.toISOString()), '12:00:07');
    assert.equal(shortTime(today.toISOString()), '12:00');
    const before = local(2024, 2, 9, 8, 5, 3);
    assert.equal(clockTime(before), 'Feb 9, 08:05:03');
    assert.equal(shortTime(before), 'Feb 9, 08:05');
  });
  it('fromNow says how long ago or how soon', () => {
    assert.equal(fromNow(new Date(Date.now() - 3 * 60_000).toISOString()), '3 minutes ago');
    assert.equal(fromNow(new Date(Date.now() + 2 * 3_600_000 + 60_000).toISOString()), 'in 2 hours');
    assert.equal(fromNow(new Date(Date.now() - 5 * 86_400_000).toISOString()), '5 days ago');
  });
});

describe('formatPreciseDuration (webhook deliveries)', () => {
  it('writes under a second in whole milliseconds', () => {
    assert.equal(formatPreciseDuration(0.0423), '42 ms');
    assert.equal(formatPreciseDuration(0.0425), '43 ms');
    assert.equal(formatPreciseDuration(0), '0 ms');
    assert.equal(formatPreciseDuration(0.9994), '999 ms');
  });
  it('writes a second and more in seconds with two decimals', () => {
    assert.equal(formatPreciseDuration(1), '1.00 s');
    assert.equal(formatPreciseDuration(1.5), '1.50 s');
    assert.equal(formatPreciseDuration(75.256), '75.26 s');
  });
  it('never writes a negative time, and a dash for no number', () => {
    assert.equal(formatPreciseDuration(-0.2), '0 ms');
    assert.equal(formatPreciseDuration(Number.NaN), '—');
    assert.equal(formatPreciseDuration(Number.POSITIVE_INFINITY), '—');
  });
});

describe('formatRoundedDuration (pipelines, merge trains)', () => {
  it('writes seconds, minutes and seconds, then hours and minutes', () => {
    assert.equal(formatRoundedDuration(0), '0s');
    assert.equal(formatRoundedDuration(59), '59s');
    assert.equal(formatRoundedDuration(60), '1m 0s');
    assert.equal(formatRoundedDuration(75), '1m 15s');
    assert.equal(formatRoundedDuration(3599), '59m 59s');
    assert.equal(formatRoundedDuration(3600), '1h 0m');
    assert.equal(formatRoundedDuration(3725), '1h 2m');
    assert.equal(formatRoundedDuration(90_061), '25h 1m');
  });
  it('rounds to the nearest second first', () => {
    assert.equal(formatRoundedDuration(59.4), '59s');
    assert.equal(formatRoundedDuration(59.6), '1m 0s');
    assert.equal(formatRoundedDuration(0.4), '0s');
  });
  it('writes a dash while nothing ran', () => {
    assert.equal(formatRoundedDuration(null), '—');
    assert.equal(formatRoundedDuration(undefined), '—');
  });
});

describe('numbers and sizes', () => {
  it('formatNumber groups digits as the locale does', () => {
    assert.equal(formatNumber(1_234_567), (1_234_567).toLocaleString());
    assert.equal(formatNumber(7), '7');
  });
  it('formatCount names one or many', () => {
    assert.equal(formatCount(1, 'webhook', 'webhooks'), '1 webhook');
    assert.equal(formatCount(0, 'webhook', 'webhooks'), '0 webhooks');
    assert.equal(formatCount(1200, 'administrator', 'administrators'), `${(1200).toLocaleString()} administrators`);
  });
  it('formatPercent keeps up to two decimals without trailing zeros', () => {
    assert.equal(formatPercent(25), '25%');
    assert.equal(formatPercent(0), '0%');
    assert.equal(formatPercent(12.5), '12.5%');
    assert.equal(formatPercent(33.333), '33.33%');
  });
  it('formatSize writes bytes, KB and MB of 1024', () => {
    assert.equal(formatSize(null), '—');
    assert.equal(formatSize(0), '0 B');
    assert.equal(formatSize(1023), '1023 B');
    assert.equal(formatSize(1024), '1.0 KB');
    assert.equal(formatSize(1536), '1.5 KB');
    assert.equal(formatSize(1024 ** 2 - 1), '1024.0 KB');
    assert.equal(formatSize(1024 ** 2), '1.0 MB');
    assert.equal(formatSize(5.25 * 1024 ** 2), '5.3 MB');
  });
});

describe('roleName', () => {
  it('names the platform roles', () => {
    assert.equal(roleName(10), 'Guest');
    assert.equal(roleName(30), 'Developer');
    assert.equal(roleName(50), 'Owner');
  });
  it('counts an unknown level above Owner as Owner, and one below Guest as no role', () => {
    assert.equal(roleName(60), 'Owner');
    assert.equal(roleName(0), 'No role');
    assert.equal(roleName(7), 'No role');
  });
});
