import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress, SCREEN_PRELOADS } from './bff/src/http/static-assets.ts';

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
 * Stylesheets travel with the code that needs them, so a chunk brings the styles of what it
 * draws and the first screen loads only its own: each Mantine component's styles with the
 * module of its class names (the bundle holds that module exactly when the component is used),
 * and the date pickers' styles with the console's modules that import @mantine/dates. The
 * layered variants (`@layer mantine`) keep the console's own styles.css on top whatever order
 * the chunks load in. Appended: imports are hoisted, and the module's lines stay where they were.
 */
function stylesFollowCode(): Plugin {
  const web = `${path.join(repoRoot, 'web', 'src')}${path.sep}`;
  const mantineComponent = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/](\w+)\.module\.css\.mjs$/;
  return {
    name: 'gatehouse:styles-follow-code',
    enforce: 'pre',
    transform(code, id) {
      const component = mantineComponent.exec(id)?.[1];
      const styles = component
        ? [`@mantine/core/styles/${component}.layer.css`]
        : id.startsWith(web) && code.includes("'@mantine/dates'")
          ? ['@mantine/dates/styles.layer.css']
          : [];
      return styles.length ? { code: `${code}\n${styles.map((css) => `import '${css}';`).join('\n')}\n`, map: null } : null;
    },
  };
}

/**
 * Mantine's ScrollArea takes one small hook, useMergeRefs, from floating-ui, and with it the
 * whole floating-ui chunk (13 KB compressed, the positioning of popovers and tooltips) came to
 * every screen with a table (Table.ScrollContainer holds a ScrollArea). It gets the same merge
 * from Mantine's hooks instead (web/src/vendor/merge-refs.ts); popovers still load floating-ui.
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const scrollArea = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/;
  const mergeRefs = path.join(repoRoot, 'web', 'src', 'vendor', 'merge-refs.ts');
  return {
    name: 'gatehouse:scroll-area-without-floating-ui',
    enforce: 'pre',
    transform(code, id) {
      if (!scrollArea.test(id)) return null;
      const from = "import { useMergeRefs } from '@floating-ui/react';";
      // A Mantine release that imports otherwise is left as it is (and the chunk comes back).
      return code.includes(from) ? { code: code.replace(from, `import { useMergeRefs } from ${JSON.stringify(mergeRefs)};`), map: null } : null;
    },
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

/**
 * The screen of the URL a page opens on is preloaded with the page: the build writes
 * `screen-preloads.json`, each path of web/src/routes.ts with the files its screen needs beyond
 * the first chunk's, and the server adds them to index.html as links (bff/src/http/static-assets.ts),
 * so they travel with the first chunk's instead of after it has run. A route written in another
 * shape than `{ path: '…', …, load: () => import('…') }` is simply not preloaded.
 */
function preloadScreens(): Plugin {
  const routesFile = path.join(repoRoot, 'web', 'src', 'routes.ts');
  const route = /\{[^{}]*?\bpath:\s*'([^']+)'[^{}]*?\bload:\s*\(\)\s*=>\s*import\('([^']+)'\)/g;
  return {
    name: 'gatehouse:preload-screens',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      // What index.html loads anyway: the entry and its static imports.
      const initial = new Set([entry.fileName, ...entry.imports]);
      const filesOf = (start: string) => {
        const js = new Set<string>();
        const css = new Set<string>();
        const visit = (file: string) => {
          const chunk = byFile.get(file);
          if (!chunk || initial.has(file) || js.has(file)) return;
          js.add(file);
          for (const c of chunk.viteMetadata?.importedCss ?? []) css.add(c);
          chunk.imports.forEach(visit);
        };
        visit(start);
        return [...css, ...js].map((f) => `/${f}`);
      };
      const screens: Record<string, string[]> = {};
      for (const [, routePath, specifier] of fs.readFileSync(routesFile, 'utf8').matchAll(route)) {
        const id = path.resolve(path.dirname(routesFile), specifier);
        const chunk = chunks.find((c) => c.facadeModuleId === id);
        if (chunk && !(routePath in screens)) screens[routePath] = filesOf(chunk.fileName);
      }
      this.emitFile({ type: 'asset', fileName: SCREEN_PRELOADS, source: JSON.stringify(screens, null, 1) });
    },
  };
}

/**
 * The console's root is web/; the build lands in <repo>/dist because the server serves that
 * folder (with index.html as the SPA fallback). In development `vite` proxies the API to a
 * server started with `npm run dev` on port 8080.
 */
export default defineConfig({
  root: path.join(repoRoot, 'web'),
  plugins: [react(), stylesFollowCode(), scrollAreaWithoutFloatingUi(), preloadScreens(), precompressed(path.join(repoRoot, 'dist'))],
  css: { postcss: repoRoot },

  build: {
    outDir: path.join(repoRoot, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries every screen runs get chunks of their own, named for what they hold: they
        // change less often than the console's code, so a new build leaves them cached. The rest
        // of the first load is one chunk; what only screens use (Mantine's components, forms,
        // tables) is split by where it is used, so a screen loads only the components it draws.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 20 },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/, priority: 20 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
            // What the first screen loads whatever it is (the layout, Mantine's core and the
            // components the layout draws) in one file rather than twenty: over HTTP/1.1 a
            // browser asks six at a time, and each round trip delayed the first paint.
            { name: 'app', tags: ['$initial'], priority: 10 },
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
