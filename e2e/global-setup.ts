import fs from 'node:fs';
import path from 'node:path';
import { startRegistry } from '../bff/test/registry.ts';

/**
 * Before the suite: the container registry the server is configured with (playwright.config.ts),
 * Debian's docker-registry with token auth pointed at the server, so that the Container registry
 * screen lists real images. After it: the registry stopped and its key and storage removed.
 */
export default async function globalSetup() {
  const dir = process.env.E2E_REGISTRY_DIR!;
  const registry = await startRegistry({
    dir,
    port: Number(process.env.E2E_REGISTRY_PORT),
    realm: `${process.env.E2E_BASE_URL}/jwt/auth`,
    issuer: process.env.E2E_REGISTRY_ISSUER!,
    cert: path.join(dir, 'token.crt'),
  });
  return async () => {
    await registry.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
