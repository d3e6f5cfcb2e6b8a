/**
 * A test reporter (`--test-reporter=./scripts/file-times.mjs`) that prints, when the run ends,
 * the files that took longest: the sum of each file's top-level test durations. `npm test`
 * must stay under 30 minutes on 2 cores; this says where the time goes.
 */
import path from 'node:path';

export default async function* fileTimes(source) {
  const perFile = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file) continue;
    const file = path.basename(event.data.file).replace(/\.m?js$/, '.ts');
    perFile.set(file, (perFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  const rows = [...perFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  yield `\nTime by file (sum of top-level tests, ${rows.length} files, ${(total / 1000).toFixed(0)} s in all):\n`;
  for (const [file, ms] of rows.slice(0, 15)) yield `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
}
