import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { VirtualRegistryUpstream } from '../../../../shared/src/virtual-registries.ts';
import { connectionVerdict, createBodyOf, mavenSettings, otherProblems, pullThroughUrl, updateBodyOf, upstreamFormValues, upstreamProblems } from './registry-model.ts';

const saved: VirtualRegistryUpstream = {
  id: 7,
  group_id: 1,
  url: 'https://repo.example.com/maven2',
  name: 'Example',
  description: null,
  username: 'bot',
  cache_validity_hours: 24,
  metadata_cache_validity_hours: 24,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('mavenSettings', () => {
  it('mirrors every repository through the pull-through, signs in as the user with a token placeholder, and escapes the name', () => {
    const url = pullThroughUrl('https://gh.example', 3);
    assert.equal(url, 'https://gh.example/api/v4/virtual_registries/packages/maven/3');
    const xml = mavenSettings({ id: 3, name: 'Libs & <tools>' }, url, 'alice');
    assert.match(xml, /<mirror>\s*<id>gatehouse-registry-3<\/id>\s*<name>Libs &amp; &lt;tools&gt;<\/name>\s*<url>https:\/\/gh\.example\/api\/v4\/virtual_registries\/packages\/maven\/3<\/url>\s*<mirrorOf>\*<\/mirrorOf>/);
    assert.match(xml, /<server>\s*<id>gatehouse-registry-3<\/id>\s*<username>alice<\/username>\s*<password><your personal access token><\/password>/);
  });
});

describe('connectionVerdict', () => {
  it('words each answer of the test', () => {
    assert.deepEqual(connectionVerdict('Central', { success: true }, true), { ok: true, text: 'Central answered: Gatehouse can reach it and sign in with these credentials.' });
    assert.equal(connectionVerdict('Central', { success: true }, false).text, 'Central answered: Gatehouse can reach it anonymously.');
    assert.match(connectionVerdict('C', { success: false, result: 'Error: 401 - Unauthorized' }, true).text, /refused the credentials \(401\)/);
    assert.match(connectionVerdict('C', { success: false, result: 'Error: 403 - Forbidden' }, true).text, /refused access \(403\)/);
    assert.match(connectionVerdict('C', { success: false, result: 'Error: 503 - Server Error' }, true).text, /failed on its side \(503\)/);
    const refused = connectionVerdict('C', { success: false, result: 'Error: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9' }, true);
    assert.deepEqual([refused.ok, refused.text, refused.detail], [false, 'C could not be reached: nothing answers at that address and port.', 'Error: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9']);
    assert.match(connectionVerdict('C', { success: false, result: 'Error: Connection timeout' }, true).text, /did not answer in time/);
  });
});

describe('the upstream form', () => {
  it('builds a new upstream’s body from what is filled in, and refuses half credentials and a missing URL', () => {
    const v = { ...upstreamFormValues(null), url: ' https://r.example/m2 ', username: 'u', password: 'p', cache_validity_hours: '48' };
    assert.deepEqual(createBodyOf(v), { url: 'https://r.example/m2', username: 'u', password: 'p', cache_validity_hours: 48, metadata_cache_validity_hours: 24 });
    assert.deepEqual(upstreamProblems(v, null), {});
    assert.equal(upstreamProblems({ ...v, password: '' }, null).password, 'Fill in both the username and the password, or neither (anonymous).');
    assert.equal(upstreamProblems({ ...v, url: '' }, null).url, "can't be blank");
    assert.equal(upstreamProblems({ ...v, url: 'ftp://x' }, null).url, 'is not a valid http(s) URL');
    assert.equal(upstreamProblems({ ...v, metadata_cache_validity_hours: '0' }, null).metadata_cache_validity_hours, 'must be greater than or equal to 1');
  });

  it('sends only what changed in an edit; an empty password keeps the saved one, a username stays', () => {
    const v = upstreamFormValues(saved);
    assert.equal(v.password, '');
    assert.deepEqual(updateBodyOf(v, saved), {});
    assert.deepEqual(updateBodyOf({ ...v, name: 'Renamed', password: 'new' }, saved), { name: 'Renamed', password: 'new' });
    assert.deepEqual(upstreamProblems({ ...v, name: 'Renamed' }, saved), {});
    assert.match(upstreamProblems({ ...v, username: '' }, saved).username ?? '', /can be changed but not removed/);
    assert.deepEqual(otherProblems({ group: ['already has an upstream with the same credentials'], url: ['is blocked'] }), ['This group already has an upstream with the same credentials.']);
  });
});
