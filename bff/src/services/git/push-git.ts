import { git } from './git-run.ts';

export { git };

/**
 * Reading what a push brings, with git, asynchronously (a push is checked while the server
 * goes on serving). During pre-receive the pushed objects sit in git's quarantine: `env`
 * carries the quarantine variables so that git sees them.
 */
export const ZERO_SHA = '0000000000000000000000000000000000000000';

export type GitEnv = Record<string, string>;

export interface RefUpdate {
  before: string;
  after: string;
  ref: string;
}

/** git's pre-receive and post-receive input: "<old> <new> <ref>" a line. */
export function parseRefUpdates(text: string): RefUpdate[] {
  return text
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter((parts) => parts.length === 3 && /^[0-9a-f]{40,64}$/.test(parts[0]) && /^[0-9a-f]{40,64}$/.test(parts[1]))
    .map(([before, after, ref]) => ({ before, after, ref }));
}

export const isZero = (sha: string) => /^0+$/.test(sha);

/** Is `ancestor` reachable from `descendant` (a fast-forward)? git answers 1 for no. */
export async function isAncestor(dir: string, ancestor: string, descendant: string, env?: GitEnv): Promise<boolean> {
  try {
    await git(dir, ['merge-base', '--is-ancestor', ancestor, descendant], { env });
    return true;
  } catch (e) {
    if ((e as { code?: number }).code === 1) return false;
    throw e;
  }
}

/** Commits reachable from `include` and from none of `exclude` (`--all`: any ref before the push), newest first. */
export async function revList(dir: string, include: string[], exclude: string[], env?: GitEnv): Promise<string[]> {
  if (!include.length) return [];
  const out = await git(dir, ['rev-list', ...include, '--not', ...exclude], { env });
  return out.toString().split('\n').filter(Boolean);
}

export interface RawCommit {
  id: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  signed: boolean;
  message: string;
}

/** "Name <email> 1700000000 +0100" → name, email, ISO date. */
function person(line: string): { name: string; email: string; date: string } {
  const m = /^(.*?) ?<([^>]*)> (\d+) ([+-]\d{4})$/.exec(line);
  if (!m) return { name: line, email: '', date: new Date(0).toISOString() };
  return { name: m[1], email: m[2], date: new Date(Number(m[3]) * 1000).toISOString() };
}

/** The commits' raw objects, read in one `git cat-file --batch`. */
export async function readCommits(dir: string, ids: string[], env?: GitEnv): Promise<RawCommit[]> {
  if (!ids.length) return [];
  const out = await git(dir, ['cat-file', '--batch'], { env, input: ids.join('\n') + '\n' });
  const commits: RawCommit[] = [];
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    const [id, type, size] = out.subarray(at, eol).toString().split(' ');
    const body = out.subarray(eol + 1, eol + 1 + Number(size)).toString('utf8');
    at = eol + 1 + Number(size) + 1;
    if (type !== 'commit') continue;
    const split = body.indexOf('\n\n');
    const headers = (split < 0 ? body : body.slice(0, split)).split('\n');
    const header = (name: string) => headers.find((h) => h.startsWith(`${name} `))?.slice(name.length + 1) ?? '';
    const author = person(header('author'));
    const committer = person(header('committer'));
    commits.push({
      id,
      parents: headers.filter((h) => h.startsWith('parent ')).map((h) => h.slice(7)),
      authorName: author.name,
      authorEmail: author.email,
      authoredDate: author.date,
      committerName: committer.name,
      committerEmail: committer.email,
      committedDate: committer.date,
      signed: headers.some((h) => h.startsWith('gpgsig ') || h.startsWith('gpgsig-sha256 ')),
      message: split < 0 ? '' : body.slice(split + 2),
    });
  }
  return commits;
}

export interface FileChange {
  path: string;
  /** git's status letter: A added, M modified, D deleted, T type changed. */
  status: string;
  blob: string;
}

/** What each commit changes against its first parent (a root commit: everything), in one `git diff-tree --stdin`. Merges are not listed. */
export async function readChanges(dir: string, ids: string[], env?: GitEnv): Promise<Map<string, FileChange[]>> {
  const changes = new Map<string, FileChange[]>();
  if (!ids.length) return changes;
  const out = (await git(dir, ['diff-tree', '--stdin', '-r', '--root', '--no-renames', '-z'], { env, input: ids.join('\n') + '\n' })).toString('utf8').split('\0');
  let current: FileChange[] | undefined;
  for (let i = 0; i < out.length; i++) {
    const token = out[i];
    if (token.startsWith(':')) {
      const [, , , blob, status] = token.slice(1).split(' ');
      current?.push({ path: out[++i], status: status[0], blob });
    } else if (/^[0-9a-f]{40,64}$/.test(token)) {
      current = [];
      changes.set(token, current);
    }
  }
  return changes;
}

/** Sizes of blobs in bytes, in one `git cat-file --batch-check`. */
export async function blobSizes(dir: string, blobs: string[], env?: GitEnv): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (!blobs.length) return sizes;
  const out = await git(dir, ['cat-file', '--batch-check'], { env, input: blobs.join('\n') + '\n' });
  for (const line of out.toString().split('\n')) {
    const [id, type, size] = line.split(' ');
    if (type === 'blob') sizes.set(id, Number(size));
  }
  return sizes;
}
