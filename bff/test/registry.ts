import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './nginx.ts';

const run = promisify(execFile);

/** Debian's CNCF Distribution and skopeo (scripts/debian-packages.sh installs them). */
export const DOCKER_REGISTRY = '/usr/bin/docker-registry';
export const SKOPEO = '/usr/bin/skopeo';

export interface Registry {
  /** http://127.0.0.1:<port> */
  url: string;
  /** 127.0.0.1:<port>, as image references name it. */
  host: string;
  child: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

/**
 * The registry's signing key, in a folder of its own: the PEM RSA private key Gatehouse signs
 * tokens with, and a self-signed certificate of it (made by openssl) that the registry trusts.
 * Synchronous, for playwright.config.ts (which sets the e2e server's environment as it loads).
 */
export function registryKey(): { dir: string; key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-registry-'));
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = path.join(dir, 'token.key');
  const cert = path.join(dir, 'token.crt');
  fs.writeFileSync(key, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  execFileSync('openssl', ['req', '-x509', '-new', '-key', key, '-subj', '/CN=gatehouse-registry-token', '-days', '2', '-out', cert], { stdio: 'ignore' });
  return { dir, key, cert };
}

/**
 * Distribution on a free loopback port with token auth pointed at Gatehouse (`realm`), its
 * storage on the filesystem under `dir`, deletes enabled; once its /v2/ answers (at most 20 s).
 */
export async function startRegistry(opts: { dir: string; port: number; realm: string; issuer: string; cert: string }): Promise<Registry> {
  const storage = path.join(opts.dir, 'storage');
  fs.mkdirSync(storage, { recursive: true });
  const config = path.join(opts.dir, 'config.yml');
  fs.writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${storage}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${opts.port}`,
      `  secret: ${crypto.randomBytes(16).toString('hex')}`,
      'auth:',
      '  token:',
      `    realm: ${opts.realm}`,
      '    service: container_registry',
      `    issuer: ${opts.issuer}`,
      `    rootcertbundle: ${opts.cert}`,
      '',
    ].join('\n'),
  );
  const child = spawn(DOCKER_REGISTRY, ['serve', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const s of [child.stdout!, child.stderr!]) s.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const url = `http://127.0.0.1:${opts.port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited: ${output}`);
    // Token auth answers 401 to an anonymous /v2/ once it serves.
    const status = await fetch(`${url}/v2/`).then((r) => r.status, () => 0);
    if (status === 401) break;
    if (i > 200) {
      await stop();
      throw new Error(`docker-registry did not answer: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, host: `127.0.0.1:${opts.port}`, child, stop, log: () => output };
}

export { freePort };

/**
 * A tiny OCI image layout on disk (oci-layout, index.json, blobs): one uncompressed tar layer
 * holding `content` in /hello.txt, a JSON config (built at `created`) and its manifest, tagged
 * `latest`. A few KB. Answers the manifest's and the config's digests and the layer's size.
 */
export async function ociImage(dir: string, content: string, created = '2026-11-01T12:00:00Z'): Promise<{ manifest: string; config: string; layerSize: number }> {
  const blobs = path.join(dir, 'blobs', 'sha256');
  fs.mkdirSync(blobs, { recursive: true });
  const put = (bytes: Buffer) => {
    const hex = crypto.createHash('sha256').update(bytes).digest('hex');
    fs.writeFileSync(path.join(blobs, hex), bytes);
    return { digest: `sha256:${hex}`, size: bytes.length };
  };
  const files = path.join(dir, 'files');
  fs.mkdirSync(files, { recursive: true });
  fs.writeFileSync(path.join(files, 'hello.txt'), content);
  // Fixed owner and times: the same content makes the same layer.
  await run('tar', ['-cf', path.join(dir, 'layer.tar'), '--owner=0', '--group=0', '--mtime=2020-01-01', '-C', files, 'hello.txt']);
  const layer = put(fs.readFileSync(path.join(dir, 'layer.tar')));
  const config = put(Buffer.from(JSON.stringify({ created, architecture: 'amd64', os: 'linux', config: {}, rootfs: { type: 'layers', diff_ids: [layer.digest] } })));
  const manifest = put(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
        layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...layer }],
      }),
    ),
  );
  fs.writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(
    path.join(dir, 'index.json'),
    JSON.stringify({ schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest, annotations: { 'org.opencontainers.image.ref.name': 'latest' } }] }),
  );
  fs.rmSync(files, { recursive: true });
  fs.rmSync(path.join(dir, 'layer.tar'));
  return { manifest: manifest.digest, config: config.digest, layerSize: layer.size };
}

/** skopeo with its outcome (never throws): exit code, and what it printed. */
export async function skopeo(args: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    const { stdout, stderr } = await run(SKOPEO, ['--insecure-policy', ...args], { timeout: 60_000, env: { ...process.env, HOME: os.tmpdir() } });
    return { ok: true, out: stdout + stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? err.message}` };
  }
}
