import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));

/**
 * The console's root is web/; the build lands in <repo>/dist because the server serves that
 * folder (with index.html as the SPA fallback). In development `vite` proxies the API to a
 * server started with `npm run dev` on port 8080.
 */
export default defineConfig({
  root: path.join(repoRoot, 'web'),
  plugins: [react()],
  css: { postcss: repoRoot },
  build: {
    outDir: path.join(repoRoot, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    // web/ imports the shared zod schemas from <repo>/shared.
    fs: { allow: [repoRoot] },
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: false } },
  },
});
