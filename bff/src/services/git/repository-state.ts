import fs from 'node:fs';
import path from 'node:path';

/**
 * What the project JSON says of a repository, read from its ref files rather than by running
 * git, so a page of a hundred projects costs a few small reads: whether any branch exists
 * (loose under refs/heads, or in packed-refs). A project whose repository was never made is empty.
 */
export function repositoryIsEmpty(dir: string): boolean {
  // Asked without throwing: a missing file as an exception costs more than all the rest (a
  // hundred projects without repositories took 4 ms).
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return true;
  return !(hasLooseRef(path.join(dir, 'refs', 'heads')) || packedBranch(path.join(dir, 'packed-refs')));
}

/** Whether a repository is at `dir` (its HEAD file), asked without throwing. */
export function repositoryExists(dir: string): boolean {
  return Boolean(fs.statSync(path.join(dir, 'HEAD'), { throwIfNoEntry: false })?.isFile());
}

function hasLooseRef(folder: string): boolean {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return false;
  }
  return entries.some((e) => (e.isDirectory() ? hasLooseRef(path.join(folder, e.name)) : e.isFile() && !e.name.endsWith('.lock')));
}

function packedBranch(file: string): boolean {
  if (!fs.statSync(file, { throwIfNoEntry: false })) return false;
  try {
    return fs.readFileSync(file, 'utf8').includes(' refs/heads/');
  } catch {
    return false;
  }
}
