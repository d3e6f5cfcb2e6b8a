/**
 * `node scripts/run-tests.mjs [node --test flags] <test files>`: runs TypeScript test files
 * with Node's test runner, each in a process of its own as `node --import tsx --test` would,
 * but bundled first into plain JavaScript (esbuild, one build for all of them, shared code in
 * shared chunks) in a fresh directory under .tmp/, removed afterwards.
 *
 * Why: under tsx every test process resolves and loads its few hundred modules through
 * loader hooks, about 4.5 s of CPU before its first test; bundled, about 1 s. The HTTP suites
 * start 63 test processes per engine on a 2-core machine, so this is some 10 CPU-minutes of
 * `npm test`. A single file still runs directly: `node --import tsx --test <file>`.
 *
 * Each source file keeps its own `import.meta.url`, so code that reads files beside it (the
 * migrations, report schemas, package.json) or spawns the server from the repository's root
 * finds the same paths bundled as under tsx. Server processes that tests start themselves run
 * the server bundled the same way (GATEHOUSE_TEST_SERVER).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--'));
// A file whose subject does not touch the database (its first line says "Runs on SQLite only: <why>")
// runs in the SQLite suite only: on PostgreSQL it would test the same thing again.
const SQLITE_ONLY = /^\/\/ Runs on SQLite only: (.+)$/m;
const files = args.filter((a) => !a.startsWith('--')).filter((f) => {
  const why = process.env.GATEHOUSE_TEST_PG && SQLITE_ONLY.exec(fs.readFileSync(f, 'utf8').split('\n', 1)[0])?.[1];
  if (why) console.log(`SKIPPED on PostgreSQL: ${f} (${why})`);
  return !why;
});

const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (file) => ({
      contents: (await fs.promises.readFile(file.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file.path).href)),
      loader: 'ts',
    }));
  },
};

fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
const outdir = fs.mkdtempSync(path.join(root, '.tmp', 'tests-'));
const removeOutdir = () => fs.rmSync(outdir, { recursive: true, force: true });
process.on('exit', removeOutdir);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

// Node's runner starts the files in the order of their paths: each is bundled under a folder
// named by its place in the list (000/, 001/, …), so they start in the order given here.
const place = (i) => String(i).padStart(3, '0');
const out = (f, i) => path.join(place(i), path.relative(root, path.resolve(root, f)).replace(/\.ts$/, ''));
await build({
  absWorkingDir: root,
  // The server too: tests that start server processes of their own (bff/test/instances.ts) run
  // it bundled, named by GATEHOUSE_TEST_SERVER, rather than under tsx for each start.
  entryPoints: [...files.map((f, i) => ({ in: f, out: out(f, i) })), { in: 'bff/src/main.ts', out: 'server/main' }],
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [ownImportMetaUrl],
});

const bundled = files.map((f, i) => path.join(outdir, `${out(f, i)}.mjs`));
const env = { ...process.env, GATEHOUSE_TEST_SERVER: path.join(outdir, 'server/main.mjs') };
const runner = spawn(process.execPath, ['--enable-source-maps', '--test', ...flags, ...bundled], { cwd: root, stdio: 'inherit', env });
runner.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
