import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './bff/src/http/static-assets.ts';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));

/** After the build, every text asset is also written brotli- and gzip-compressed, for the server to send as the browser accepts. */
function precompressed(outDir: string): Plugin {
  return {
    name: 'gatehouse:precompress',
    apply: 'build',
    closeBundle() {
      const t = precompress(outDir);
      this.info(`compressed ${t.files} files: ${kb(t.bytes)} → ${kb(t.br)} brotli, ${kb(t.gzip)} gzip`);
    },
  };
}
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

/**
 * The console's root is web/; the build lands in <repo>/dist because the server serves that
 * folder (with index.html as the SPA fallback). In development `vite` proxies the API to a
 * server started with `npm run dev` on port 8080.
 */
export default defineConfig({
  root: path.join(repoRoot, 'web'),
  plugins: [react(), precompressed(path.join(repoRoot, 'dist'))],
  css: { postcss: repoRoot },
  build: {
    outDir: path.join(repoRoot, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries every screen runs get chunks of their own, named for what they hold: they
        // change less often than the console's code, so a new build leaves them cached. The rest
        // (Mantine's components, forms, tables) is split by where it is used, so a screen loads
        // only the components it draws.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 20 },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/, priority: 20 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
  server: {
    // web/ imports the shared zod schemas from <repo>/shared.
    fs: { allow: [repoRoot] },
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: false } },
  },
});
