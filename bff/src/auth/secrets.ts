import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;

/** A new random credential: a recognisable prefix and 192 bits of randomness. */
export function newToken(prefix: string): string {
  return `${prefix}${crypto.randomBytes(24).toString('base64url')}`;
}

/** Tokens carry enough entropy that a plain SHA-256 digest is the right storage form. */
export function tokenDigest(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A digest to compare against when the user does not exist, so timing does not tell. */
let dummyDigest: Promise<string> | undefined;

export async function verifyPassword(password: string, digest: string | null | undefined): Promise<boolean> {
  const stored = digest ?? (await (dummyDigest ??= hashPassword(crypto.randomBytes(16).toString('hex'))));
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected) && digest != null;
}

export function randomPassword(): string {
  return crypto.randomBytes(18).toString('base64url');
}
