import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkUrl, isInternalAddress } from './guard.ts';
import { postJsonOnSender } from './sender.ts';

describe('isInternalAddress', () => {
  const refused = {
    ipv4: ['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.0.8', '192.0.2.1', '198.18.0.1', '198.51.100.7', '203.0.113.9'],
    ipv6: ['::1', '::', 'fe80::1', 'fe80::1%eth0', 'fd00::1', 'fc00::2', 'ff02::1', 'ff05::1:3', 'fec0::1', 'fed0::5', '2001:db8::1', '100::1', '4000::1', 'e000::1'],
    'IPv4-mapped and SIIT': ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.1.2.3', '::ffff:0:127.0.0.1', '::ffff:0:a9fe:a9fe'],
    NAT64: ['64:ff9b::10.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b:1::a9fe:a9fe', '64:ff9b::c0a8:101'],
    '6to4': ['2002:7f00:1::', '2002:a00:1::1', '2002:a9fe:a9fe::'],
    Teredo: ['2001:0:7f00:1::1', '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:4136:e378:8000:63bf:f5ff:fffe'],
    'IPv4-compatible': ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::8.8.8.8'],
    'not an address': ['not-an-ip', '', '1.2.3', '::g'],
  };
  for (const [form, list] of Object.entries(refused)) {
    for (const ip of list) it(`refuses ${form} ${JSON.stringify(ip)}`, () => assert.equal(isInternalAddress(ip), true));
  }
  // Public addresses, also when reached through an embedding form.
  for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7']) {
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
    // Every URL spelling of an internal address, as the URL parser normalises it.
    for (const url of ['http://[64:ff9b::127.0.0.1]/', 'http://[::127.0.0.1]/', 'http://[fec0::1]/', 'http://[2002:7f00:1::]/', 'http://[::ffff:169.254.169.254]/', 'http://0x7f.1/', 'http://127.1/', 'http://017700000001/', 'http://[0:0:0:0:0:ffff:127.0.0.1]/']) {
      await assert.rejects(checkUrl(url, false), /local network/, url);
    }
    await checkUrl('http://127.0.0.1:9/', true);
  });
});

describe('postJsonOnSender', () => {
  it('makes the request on the sender thread, with the same guard against internal addresses', async () => {
    const seen: { body: string; header?: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ body, header: req.headers['x-test'] as string | undefined });
        res.writeHead(202, { 'X-Answer': 'yes' }).end('taken');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const request = { url, headers: { 'Content-Type': 'application/json', 'X-Test': 'a' }, body: '{"n":1}', timeoutMs: 5_000, verifyTls: true };
      const [ok, again] = await Promise.all([postJsonOnSender({ ...request, allowLocal: true }), postJsonOnSender({ ...request, body: '{"n":2}', allowLocal: true })]);
      assert.equal(ok.status, 202);
      assert.equal(ok.body, 'taken');
      assert.equal(ok.headers['x-answer'], 'yes');
      assert.equal(again.status, 202);
      assert.deepEqual(seen.map((s) => s.body).sort(), ['{"n":1}', '{"n":2}']);
      assert.equal(seen[0].header, 'a');
      const blocked = await postJsonOnSender({ ...request, allowLocal: false });
      assert.equal(blocked.status, null);
      assert.match(blocked.error ?? '', /local network/);
      assert.equal(seen.length, 2, 'a refused request reaches nothing');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
