/**
 * A test reporter (`--test-reporter=./scripts/file-times.mjs`) that prints, when the run ends,
 * the files that took longest: the sum of each file's top-level test durations, and every failed
 * test with its file. With several engines (scripts/run-tests.mjs --engines) a file is named with
 * the engine it ran on, by the suite its run sits in. `npm test` must stay under 30 minutes on
 * 2 cores; this says where the time goes.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The source file a test is in, from the repository's root. */
const nameOf = (file) => path.relative(process.cwd(), file);

/** Whether the run is of several engines (scripts/run-tests.mjs --engines). */
const engines = Boolean(process.env.GATEHOUSE_TEST_ENGINES);

export default async function* fileTimes(source) {
  const perFile = new Map();
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (!event.data.file) continue;
    const file = nameOf(event.data.file);
    const top = event.data.nesting === 0;
    // With several engines a file's tests sit in a suite named "<engine>: <file>" (its top level).
    const name = engines && top ? event.data.name : file;
    // Each failed test, and each file (with its engine) that failed; a describe that failed for its tests is not repeated.
    if (event.type === 'test:fail' && (top || event.data.details?.error?.failureType !== 'subtestsFailed')) failed.push(top && engines ? name : `${file} › ${event.data.name}`);
    if (!top) continue;
    perFile.set(name, (perFile.get(name) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  const rows = [...perFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  yield `\nTime by file (sum of top-level tests, ${rows.length} files, ${(total / 1000).toFixed(0)} s in all):\n`;
  for (const [file, ms] of rows.slice(0, 20)) yield `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
  yield* timeline();
  if (failed.length) yield `\nFailed (${failed.length}):\n${failed.map((f) => `  ✖ ${f}\n`).join('')}`;
}

const mmss = (ms) => `${Math.floor(ms / 60_000)}m${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}s`;

/**
 * With several engines, each run's process writes a line to GATEHOUSE_TEST_TIMELINE as it exits
 * (scripts/run-tests.mjs): the CPU by run (where a CPU-bound machine spends it), and the runs that
 * ended last (what kept the suite going at its end), in minutes from the suite's first start.
 */
function* timeline() {
  const file = process.env.GATEHOUSE_TEST_TIMELINE;
  if (!file || !fs.existsSync(file)) return;
  const runs = fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
  if (!runs.length) return;
  const start = Math.min(...runs.map((r) => r.started));
  const cpu = runs.reduce((sum, r) => sum + r.cpuMs, 0);
  yield `\nCPU by file (its process and the processes it waited for; ${(cpu / 60_000).toFixed(1)} CPU-minutes in all, database servers not counted):\n`;
  for (const r of [...runs].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 15)) yield `  ${(r.cpuMs / 1000).toFixed(1).padStart(7)} s  ${r.run}\n`;
  yield `\nThe last files to end (started → ended, from the suite's start):\n`;
  for (const r of [...runs].sort((a, b) => b.ended - a.ended).slice(0, 8)) yield `  ${mmss(r.started - start)} → ${mmss(r.ended - start)}  ${r.run}\n`;
}
