import { blobAt } from './repository-files.ts';
import { readCommits } from './commits.ts';
import { git, GitError } from './git-run.ts';
import type { CommitInfo } from './branches.ts';
import { badRequest } from '../../util/errors.ts';

/** Consecutive lines of a file last changed by one commit. */
export interface BlameGroup {
  commit: CommitInfo;
  lines: string[];
}

/** Blame's output past this is refused rather than held (a file of millions of lines). */
const MAX_BLAME_BYTES = 64 * 1024 * 1024;

/**
 * `git blame --porcelain`: for each line a header `<sha> <orig> <final> [<count>]`, the
 * commit's fields the first time it appears, then the line after a tab. Answers each line's commit
 * and text, in order.
 */
export function parsePorcelain(out: Buffer): { sha: string; line: string }[] {
  const lines: { sha: string; line: string }[] = [];
  let sha = '';
  let at = 0;
  while (at < out.length) {
    let eol = out.indexOf(0x0a, at);
    if (eol < 0) eol = out.length;
    if (out[at] === 0x09) lines.push({ sha, line: out.subarray(at + 1, eol).toString('utf8') });
    else {
      const head = /^([0-9a-f]{40,64}) \d+ \d+/.exec(out.subarray(at, Math.min(eol, at + 200)).toString('latin1'));
      if (head) sha = head[1];
    }
    at = eol + 1;
  }
  return lines;
}

/**
 * The file at `ref` in groups of consecutive lines with the commit that last changed them, as the
 * platform's blame API answers it; `range` (1-based, inclusive) limits it to those lines.
 * 404 Commit or File as reading the file; 400 for a range the file does not have.
 */
export async function blame(dir: string, ref: string, filePath: string, range?: { start: number; end: number }): Promise<BlameGroup[]> {
  const blob = await blobAt(dir, ref, filePath);
  if (range && range.start > range.end) throw badRequest('range[start] must be less than or equal to range[end]');
  let out: Buffer;
  try {
    out = await git(dir, ['blame', '--porcelain', ...(range ? ['-L', `${range.start},${range.end}`] : []), blob.commit, '--', blob.path], { maxBytes: MAX_BLAME_BYTES });
  } catch (e) {
    if (e instanceof GitError && /has only \d+ lines?/.test(e.stderr)) throw badRequest('range is outside of the file length');
    throw e;
  }
  const lines = parsePorcelain(out);
  const commits = await readCommits(dir, [...new Set(lines.map((l) => l.sha))]);
  const groups: BlameGroup[] = [];
  for (const { sha, line } of lines) {
    const last = groups[groups.length - 1];
    if (last && last.commit.id === sha) last.lines.push(line);
    else groups.push({ commit: commits.get(sha)!, lines: [line] });
  }
  return groups;
}
