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
// `--engines=sqlite,postgres` (ours, not node's): every file once per engine, in one pool of
// `--test-concurrency` slots, file by file in the order given (a file's SQLite run, then its
// PostgreSQL run, which needs GATEHOUSE_TEST_PG). One pool rather than a runner per engine: the
// engines' runs of the long files spread over the whole run, and neither engine is left running
// its last files alone. Without it, files run on the engine the environment names.
const enginesFlag = args.find((a) => a.startsWith('--engines='));
const engines = enginesFlag ? enginesFlag.slice('--engines='.length).split(',') : [process.env.GATEHOUSE_TEST_PG ? 'postgres' : 'sqlite'];
for (const e of engines) if (e !== 'sqlite' && e !== 'postgres') throw new Error(`--engines: unknown engine ${e}`);
if (engines.includes('postgres') && !process.env.GATEHOUSE_TEST_PG) throw new Error('--engines=…postgres needs GATEHOUSE_TEST_PG (a PostgreSQL server to make test databases on)');
// `--group=<folder>:<n>` (ours): with --engines, the files under <folder> run <n> to a process, one
// after the other, each in its own suite with its own server (the harness starts one per file):
// a test process costs about 2 s of CPU to load the server's code before its first test, more
// than most API files then spend testing. Files elsewhere run one to a process.
const groupFlag = args.find((a) => a.startsWith('--group='));
const [groupFolder, groupSize] = groupFlag ? [groupFlag.slice('--group='.length).replace(/:\d+$/, ''), Number(/:(\d+)$/.exec(groupFlag)?.[1] ?? 1)] : ['', 1];
const flags = args.filter((a) => a.startsWith('--') && a !== enginesFlag && a !== groupFlag);
// A file whose subject does not touch the database (its first line says "Runs on SQLite only: <why>")
// runs in the SQLite suite only: on PostgreSQL it would test the same thing again.
const SQLITE_ONLY = /^\/\/ Runs on SQLite only: (.+)$/m;
const files = args.filter((a) => !a.startsWith('--'));
/** [file, engine] in the order they start. */
const runs = files.flatMap((f) =>
  engines.flatMap((engine) => {
    const why = engine === 'postgres' && SQLITE_ONLY.exec(fs.readFileSync(f, 'utf8').split('\n', 1)[0])?.[1];
    if (why) console.log(`SKIPPED on PostgreSQL: ${f} (${why})`);
    return why ? [] : [[f, engine]];
  }),
);

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

// With several engines each run is a small module under runs/<place>/<engine>/<file>.mjs that sets
// the engine in its process's environment (a SQLite run drops GATEHOUSE_TEST_PG) and imports the bundled file inside a suite named by
// the engine and the file (reports name tests by their source, which both engines' runs share).
const bundled = files.map((f, i) => path.join(outdir, `${out(f, i)}.mjs`));
const relative = (f) => path.relative(root, path.resolve(root, f));
/** The test processes: each an engine and its files, in the order they start (a group where its first file was). */
const processes = [];
const openGroup = {};
for (const [f, engine] of runs) {
  const grouped = groupFolder && relative(f).startsWith(groupFolder);
  if (grouped && openGroup[engine]?.files.length < groupSize) {
    openGroup[engine].files.push(f);
    continue;
  }
  const proc = { engine, files: [f] };
  processes.push(proc);
  if (grouped) openGroup[engine] = proc;
}
const entries = !enginesFlag
  ? bundled.filter((_, i) => runs.some(([f]) => f === files[i]))
  : processes.map(({ engine, files: its }, n) => {
      const entry = path.join(outdir, 'runs', place(n), engine, `${relative(its[0]).replace(/\.ts$/, '')}.mjs`);
      fs.mkdirSync(path.dirname(entry), { recursive: true });
      // The runner's environment names the PostgreSQL server (never written to the module: it may hold a password).
      const set = engine === 'postgres' ? '' : 'delete process.env.GATEHOUSE_TEST_PG;';
      const suites = its.map((f) => `describe(${JSON.stringify(`${engine}: ${relative(f)}`)}, () => import(${JSON.stringify(pathToFileURL(bundled[files.indexOf(f)]).href)}));`);
      // When the run started and ended, and the CPU its process and the children it waited for
      // (git, server processes) used, one line each in the timeline (scripts/file-times.mjs reads it).
      const run = JSON.stringify(`${engine}: ${its.map(relative).join(', ')}`);
      const timeline = `const started = Date.now();
process.on('exit', () => {
  const own = process.cpuUsage();
  const [cutime, cstime] = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ').slice(13, 15).map(Number);
  fs.appendFileSync(process.env.GATEHOUSE_TEST_TIMELINE, JSON.stringify({ run: ${run}, started, ended: Date.now(), cpuMs: Math.round((own.user + own.system) / 1000 + (cutime + cstime) * 10) }) + '\\n');
});`;
      fs.writeFileSync(entry, `import fs from 'node:fs';\nimport { describe } from 'node:test';\n${set}\n${timeline}\n${suites.join('\n')}\n`);
      return entry;
    });
const env = {
  ...process.env,
  GATEHOUSE_TEST_SERVER: path.join(outdir, 'server/main.mjs'),
  ...(enginesFlag ? { GATEHOUSE_TEST_ENGINES: engines.join(','), GATEHOUSE_TEST_TIMELINE: path.join(outdir, 'timeline.jsonl') } : {}),
};
// Nothing left to run (every file SQLite-only on PostgreSQL): `node --test` without files would look for test files itself.
if (!entries.length) {
  console.log('No test file to run on this engine.');
  process.exit(0);
}
const runner = spawn(process.execPath, ['--enable-source-maps', '--test', ...flags, ...entries], { cwd: root, stdio: 'inherit', env });
runner.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
