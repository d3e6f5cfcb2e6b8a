import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../src/server.ts';

/**
 * Debian's nginx in front of Gatehouse instances with the repository's own deploy/nginx.conf,
 * as bff/test/proxy.test.ts and `npm run bench` (bench/proxy.ts) run it: only its listening
 * port, its upstreams and the folder of its files are changed.
 */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

export interface Nginx {
  url: string;
  child: ChildProcess;
  dir: string;
  /** What nginx wrote to its error log (stderr) so far. */
  log(): string;
  /** Stops nginx (SIGQUIT: graceful) and removes its folder. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * deploy/nginx.conf with `port` in place of 8080 and the upstreams (one or two instance URLs) in
 * place of 8081 and 8082 (with one, the second `server` line is left out), its files in `dir`.
 * Throws when the file no longer names what is replaced.
 */
export function renderNginxConf(dir: string, port: number, upstreams: string[]): string {
  if (upstreams.length < 1 || upstreams.length > 2) throw new Error('deploy/nginx.conf names two upstreams: give one or two');
  const hostPort = (url: string) => new URL(url).host;
  const original = fs.readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8');
  let conf = original.replaceAll('/tmp/gatehouse-nginx', path.join(dir, 'nginx')).replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${port};`).replace('127.0.0.1:8081', hostPort(upstreams[0]));
  conf = upstreams.length === 2 ? conf.replace('127.0.0.1:8082', hostPort(upstreams[1])) : conf.replace(/^[ \t]*server 127\.0\.0\.1:8082[^\n]*\n/m, '');
  const named = upstreams.every((u) => conf.includes(hostPort(u))) && conf.includes(`:${port};`) && !conf.includes('127.0.0.1:8082') && conf.includes(path.join(dir, 'nginx'));
  if (!named) throw new Error('deploy/nginx.conf no longer names the ports and paths replaced here (listen 127.0.0.1:8080, upstreams 127.0.0.1:8081 and :8082, /tmp/gatehouse-nginx)');
  return conf;
}

/** nginx with the rendered deploy/nginx.conf, once `ready(url)` answers true (at most 30 s). */
export async function startNginx(upstreams: string[], ready: (url: string) => Promise<boolean>): Promise<Nginx> {
  if (!NGINX) throw new Error('Debian’s nginx is not installed (scripts/debian-packages.sh installs it)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-nginx-'));
  const port = await freePort();
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, renderNginxConf(dir, port, upstreams));
  const child = spawn(NGINX, ['-c', file, '-e', 'stderr', '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nginx exited: ${errors}`);
    }
    try {
      if (await ready(url)) break;
    } catch {
      /* not listening yet */
    }
    if (i > 300) {
      await stop();
      throw new Error(`nginx did not answer: ${errors}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, dir, stop, log: () => errors };
}
