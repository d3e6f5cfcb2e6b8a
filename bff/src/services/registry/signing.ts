import crypto from 'node:crypto';
import fs from 'node:fs';

/** The registry's signing key: the private key the tokens are signed with and its libtrust key ID. */
export interface SigningKey {
  privateKey: crypto.KeyObject;
  kid: string;
}

const RFC4648 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += RFC4648[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += RFC4648[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The key ID Distribution's token auth looks a token's `kid` up by (docker/libtrust's): the
 * SHA-256 of the public key's DER SubjectPublicKeyInfo, its first 240 bits in base32, in groups
 * of four characters joined by ':' (12 groups).
 */
export function libtrustKeyId(publicKey: crypto.KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const digest = crypto.createHash('sha256').update(der).digest().subarray(0, 30);
  return base32(digest).match(/.{4}/g)!.join(':');
}

const cache = new Map<string, SigningKey>();

/** The PEM RSA private key at `path`, read once per process. */
export function signingKey(path: string): SigningKey {
  let key = cache.get(path);
  if (!key) {
    const privateKey = crypto.createPrivateKey(fs.readFileSync(path));
    if (privateKey.asymmetricKeyType !== 'rsa') throw new Error(`${path}: the registry's key must be an RSA private key`);
    key = { privateKey, kid: libtrustKeyId(crypto.createPublicKey(privateKey)) };
    cache.set(path, key);
  }
  return key;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** A JWT signed RS256, its header naming the key by `kid`. */
export function signJwt(claims: Record<string, unknown>, key: SigningKey): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: key.kid }));
  const payload = b64url(JSON.stringify(claims));
  const signature = crypto.sign('sha256', Buffer.from(`${header}.${payload}`), key.privateKey);
  return `${header}.${payload}.${b64url(signature)}`;
}

/** The audience of the tokens, the `service` the registry names in its challenge. */
export const REGISTRY_SERVICE = 'container_registry';
/** How long a token lasts: the platform's default (container_registry_token_expire_delay). */
export const TOKEN_SECONDS = 5 * 60;

export interface TokenServiceSettings {
  issuer: string;
  key: SigningKey;
}

/** One entry of a token's `access` claim: what may be done to what. */
export interface Access {
  type: 'repository' | 'registry';
  name: string;
  actions: string[];
}

/** A registry token for `subject` ('' for nobody, `gatehouse` for Gatehouse's own reads) granting `access`. */
export function registryToken(settings: TokenServiceSettings, subject: string, access: Access[], at = new Date()): string {
  const now = Math.floor(at.getTime() / 1000);
  const claims = {
    iss: settings.issuer,
    sub: subject,
    aud: REGISTRY_SERVICE,
    iat: now,
    // A few seconds of leeway for the registry's clock.
    nbf: now - 5,
    exp: now + TOKEN_SECONDS,
    jti: crypto.randomBytes(16).toString('hex'),
    access,
  };
  return signJwt(claims, settings.key);
}
