import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { allowlist } from './monitoring.ts';
import { loadConfig } from '../config.ts';

describe('the monitoring allowlist', () => {
  it('lets in the local addresses by default, IPv4 ones written as IPv6 too, and no one else', () => {
    const allowed = allowlist(loadConfig({}).monitoringAllowlist);
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) assert.ok(allowed(address), address);
    for (const address of ['10.0.0.1', '::ffff:10.0.0.1', '::2', 'fe80::1', '', undefined, 'localhost']) assert.ok(!allowed(address), String(address));
  });
  it('matches ranges by their prefix', () => {
    const allowed = allowlist(['192.168.4.0/22', '2001:db8::/32', '10.1.2.3/32']);
    assert.ok(allowed('192.168.7.255') && !allowed('192.168.8.0'));
    assert.ok(allowed('2001:db8:ffff::1') && !allowed('2001:db9::1'));
    assert.ok(allowed('10.1.2.3') && !allowed('10.1.2.4'));
  });
  it('lets no one in when it is empty', () => {
    assert.ok(!allowlist([])('127.0.0.1'));
  });
});
