import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, newToken, safeEqual, tokenDigest, verifyPassword } from './secrets.ts';

describe('secrets', () => {
  it('makes random tokens with a prefix and ~192 bits', () => {
    const a = newToken('gtpat-');
    const b = newToken('gtpat-');
    assert.match(a, /^gtpat-[A-Za-z0-9_-]{32}$/);
    assert.notEqual(a, b);
  });
  it('stores tokens as SHA-256 digests', () => {
    assert.equal(tokenDigest('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('hashes passwords with a salt and verifies them', async () => {
    const h1 = await hashPassword('correct horse');
    const h2 = await hashPassword('correct horse');
    assert.notEqual(h1, h2);
    assert.match(h1, /^scrypt\$/);
    assert.ok(await verifyPassword('correct horse', h1));
    assert.ok(!(await verifyPassword('wrong horse', h1)));
    assert.ok(!(await verifyPassword('anything', null)), 'a missing user never verifies');
  });
  it('compares in constant time and refuses different lengths', () => {
    assert.ok(safeEqual('same', 'same'));
    assert.ok(!safeEqual('same', 'sane'));
    assert.ok(!safeEqual('short', 'longer'));
  });
});
