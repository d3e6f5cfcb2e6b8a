import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkUrl, isInternalAddress } from './http.ts';

describe('isInternalAddress', () => {
  for (const ip of ['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::2', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::10.0.0.1', 'not-an-ip']) {
    it(`refuses ${ip}`, () => assert.equal(isInternalAddress(ip), true));
  }
  for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    it(`allows ${ip}`, () => assert.equal(isInternalAddress(ip), false));
  }
});

describe('checkUrl', () => {
  it('refuses malformed, non-http and local URLs, and allows local ones when the instance does', async () => {
    await assert.rejects(checkUrl('nope', false), /not a valid URL/);
    await assert.rejects(checkUrl('file:///etc/passwd', false), /http or https/);
    await assert.rejects(checkUrl('http://localhost:8080/', false), /localhost/);
    await assert.rejects(checkUrl('http://[::1]/', false), /local network/);
    await assert.rejects(checkUrl('http://2130706433/', false), /local network/);
    await checkUrl('http://127.0.0.1:9/', true);
  });
});
