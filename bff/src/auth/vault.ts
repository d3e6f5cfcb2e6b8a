import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets Gatehouse must send on (webhook tokens, custom header values, URL variables) are
 * kept encrypted at rest with AES-256-GCM. The key comes from GATEHOUSE_SECRET_KEY, or is
 * generated once into the data directory (readable by the owner only).
 */
export class Vault {
  readonly #key: Buffer;
  constructor(key: Buffer) {
    this.#key = key;
  }

  encrypt(plaintext: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1:${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${data.toString('base64')}`;
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !data) throw new Error('unknown secret format');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }

  /**
   * Names the key without revealing it (an HMAC of a fixed text): recorded by the first
   * instance, so that one holding another key refuses to start (services/instance/identity.ts).
   */
  fingerprint(): string {
    return crypto.createHmac('sha256', this.#key).update('gatehouse secret key fingerprint v1').digest('hex');
  }

  encryptJson(value: unknown): string {
    return this.encrypt(JSON.stringify(value));
  }

  decryptJson<T>(sealed: string | null, fallback: T): T {
    return sealed ? (JSON.parse(this.decrypt(sealed)) as T) : fallback;
  }
}

export function openVault(opts: { secretKey?: string; dataDir: string }): Vault {
  if (opts.secretKey) return new Vault(crypto.createHash('sha256').update(opts.secretKey).digest());
  const file = path.join(opts.dataDir, 'secret.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return new Vault(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
}
