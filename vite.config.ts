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
/**
 * A package's stylesheet loads with the console's modules that import the package, so it comes
 * with the screens that use it rather than with the first screen (date pickers' styles with
 * the token dialogs). Appended: imports are hoisted, and the module's lines stay where they were.
 */
function stylesFollowPackage(styles: Record<string, string>): Plugin {
  const web = `${path.join(repoRoot, 'web', 'src')}${path.sep}`;
  return {
    name: 'gatehouse:styles-follow-package',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(web)) return null;
      const needed = Object.entries(styles).filter(([pkg]) => code.includes(`'${pkg}'`));
      return needed.length ? { code: `${code}\n${needed.map(([, css]) => `import '${css}';`).join('\n')}\n`, map: null } : null;
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
  plugins: [react(), stylesFollowPackage({ '@mantine/dates': '@mantine/dates/styles.css' }), precompressed(path.join(repoRoot, 'dist'))],
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
