import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.demo, true);
    assert.match(c.dataDir, /data$/);
  });
  for (const [name, value, words] of [
    ['PORT', 'eighty', /PORT: must be a port number/],
    ['PORT', '70000', /PORT/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: must be a postgres/],
    ['GATEHOUSE_EXTERNAL_URL', 'not a url', /GATEHOUSE_EXTERNAL_URL/],
    ['GATEHOUSE_ROOT_PASSWORD', 'short', /at least 8 characters/],
    ['GATEHOUSE_ROOT_TOKEN', 'too-short', /at least 20 characters/],
    ['GATEHOUSE_DEMO', 'yes', /GATEHOUSE_DEMO: must be 0 or 1/],
    ['GATEHOUSE_MONITORING_ALLOWLIST', '10.0.0.0/8,localhost', /GATEHOUSE_MONITORING_ALLOWLIST: "localhost" is not an IP address/],
    ['GATEHOUSE_MONITORING_ALLOWLIST', '10.0.0.0/33', /GATEHOUSE_MONITORING_ALLOWLIST: "10.0.0.0\/33" has a prefix length outside 0-32/],
  ] as const) {
    it(`refuses ${name}=${value} with a message naming it`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && words.test(e.message));
    });
  }
  it('reads the monitoring allowlist as address ranges, local addresses by default', () => {
    assert.deepEqual(loadConfig({}).monitoringAllowlist, ['127.0.0.0/8', '::1/128']);
    assert.deepEqual(loadConfig({ GATEHOUSE_MONITORING_ALLOWLIST: ' 10.1.2.3, 192.168.0.0/16 fd00::/8' }).monitoringAllowlist, ['10.1.2.3/32', '192.168.0.0/16', 'fd00::/8']);
  });
  it('trims a trailing slash from the external URL', () => {
    assert.equal(loadConfig({ GATEHOUSE_EXTERNAL_URL: 'https://gate.example.com/' }).externalUrl, 'https://gate.example.com');
  });
});
