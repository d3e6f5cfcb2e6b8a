import { re2Problem, re2Test } from '../../../../shared/src/re2.ts';
import { badRequest, notFound, validationFailed } from '../../util/errors.ts';
import { ZERO_SHA, type RefUpdate } from './push-git.ts';
import { gitText } from './git-run.ts';

/** What a ref update made through the API is refused for, as a push of it would be (services/push-checks.ts refUpdateRefusals); none: accept. */
export type RefCheck = (update: RefUpdate) => Promise<string[]>;

/** Refuses the update with the check's reasons, as the platform answers a refused ref change of its API (400). */
export async function requireAllowed(check: RefCheck, update: RefUpdate): Promise<void> {
  const refused = await check(update);
  if (refused.length) throw badRequest(refused.join('\n'));
}

/** A commit read from git, in the fields the platform shows. */
export interface CommitInfo {
  id: string;
  parentIds: string[];
  subject: string;
  message: string;
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  trailers: [string, string][];
}

export interface BranchInfo {
  name: string;
  commit: CommitInfo;
  merged: boolean;
}

const git = (dir: string, args: string[]) => gitText(dir, args, { maxBytes: 64 * 1024 * 1024 });

const FIELDS = ['%(refname:lstrip=2)', '%(objectname)', '%(parent)', '%(authorname)', '%(authoremail:trim)', '%(authordate:iso-strict)', '%(committername)', '%(committeremail:trim)', '%(committerdate:iso-strict)', '%(trailers:unfold,separator=%x1f)', '%(contents)'];
const SEP = '\x1e';

function parseRef(record: string): BranchInfo {
  const [name, ...fields] = record.split('\x1d');
  return { name, merged: false, commit: commitFrom(fields.slice(0, 9), fields.slice(9).join('\x1d')) };
}

/** A commit from its fields in the order both formats print them: id, parents, author, committer, trailers. */
function commitFrom([id, parents, authorName, authorEmail, authoredDate, committerName, committerEmail, committedDate, trailers]: string[], message: string): CommitInfo {
  return {
    id,
    parentIds: parents ? parents.split(' ') : [],
    subject: message.split('\n')[0],
    message,
    authorName,
    authorEmail,
    authoredDate,
    committerName,
    committerEmail,
    committedDate,
    trailers: parseTrailers(trailers),
  };
}

/** Trailers as `%(trailers:unfold,separator=%x1f)` prints them. */
export function parseTrailers(text: string): [string, string][] {
  return text
    .split('\x1f')
    .filter(Boolean)
    .map((t) => [t.slice(0, t.indexOf(':')).trim(), t.slice(t.indexOf(':') + 1).trim()] as [string, string]);
}

/**
 * `git log --format` of one commit in the fields of CommitInfo: each record starts with \x1e,
 * fields end with \x1d (the message last), so whatever git prints after a record (`--numstat`)
 * follows the record's last \x1d.
 */
export const COMMIT_LOG_FORMAT = '%x1e' + ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%(trailers:unfold,separator=%x1f)', '%B'].map((f) => `${f}%x1d`).join('');

/** The commits of `git log --format=COMMIT_LOG_FORMAT` output, each with what followed its record. */
export function parseCommitLog(out: string): { commit: CommitInfo; tail: string }[] {
  return out
    .split('\x1e')
    .slice(1)
    .map((record) => {
      const parts = record.split('\x1d');
      return { tail: parts[parts.length - 1], commit: commitFrom(parts.slice(0, 9), parts.slice(9, -1).join('\x1d')) };
    });
}

/** The platform's `search` of ref names: a part of the name, case-insensitive; `^` anchors it to the start, `$` to the end. */
export function nameSearch(search: string): (name: string) => boolean {
  const starts = search.startsWith('^');
  const ends = search.endsWith('$');
  const term = search.slice(starts ? 1 : 0, ends ? -1 : undefined).toLowerCase();
  return (name) => {
    const n = name.toLowerCase();
    return starts && ends ? n === term : starts ? n.startsWith(term) : ends ? n.endsWith(term) : n.includes(term);
  };
}

async function readBranches(dir: string, pattern = 'refs/heads'): Promise<BranchInfo[]> {
  const out = await git(dir, ['for-each-ref', '--sort=refname', `--format=${FIELDS.join('%1d')}${SEP}`, pattern]);
  return out
    .split(SEP)
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => r.length > 0)
    .map(parseRef);
}

/** Branches whose tip is already in the default branch. */
async function mergedInto(dir: string, defaultBranch: string): Promise<Set<string>> {
  try {
    const out = await git(dir, ['for-each-ref', '--format=%(refname:lstrip=2)', `--merged=refs/heads/${defaultBranch}`, 'refs/heads']);
    return new Set(out.split('\n').filter(Boolean));
  } catch {
    return new Set();
  }
}

/**
 * The project's branches in name order, filtered as the platform filters: `search` matches a
 * part of the name (`^` anchors it to the start, `$` to the end), `regex` is an RE2 pattern.
 */
export async function listBranches(dir: string, defaultBranch: string, q: { search?: string; regex?: string }): Promise<BranchInfo[]> {
  let branches = await readBranches(dir);
  if (q.search) {
    const matches = nameSearch(q.search);
    branches = branches.filter((b) => matches(b.name));
  }
  if (q.regex) {
    const problem = re2Problem(q.regex);
    if (problem) throw validationFailed({ regex: [problem] });
    branches = branches.filter((b) => re2Test(q.regex!, b.name));
  }
  const merged = await mergedInto(dir, defaultBranch);
  return branches.map((b) => ({ ...b, merged: b.name !== defaultBranch && merged.has(b.name) }));
}

export async function getBranch(dir: string, defaultBranch: string, name: string): Promise<BranchInfo> {
  if (!(await validBranchName(dir, name))) throw notFound('Branch');
  const [found] = await readBranches(dir, `refs/heads/${name}`);
  if (!found || found.name !== name) throw notFound('Branch');
  const merged = await mergedInto(dir, defaultBranch);
  return { ...found, merged: name !== defaultBranch && merged.has(name) };
}

async function validBranchName(dir: string, name: string): Promise<boolean> {
  try {
    await git(dir, ['check-ref-format', '--branch', name]);
    return !name.startsWith('-');
  } catch {
    return false;
  }
}

/** The commit a ref (branch, tag or SHA) names, or undefined. */
export async function resolveCommit(dir: string, ref: string): Promise<string | undefined> {
  if (ref.startsWith('-')) return undefined;
  try {
    return (await git(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A new branch at `ref`; the platform's 400s for a bad name, an unknown ref, a taken name or a refusal of the push rule. */
export async function createBranch(dir: string, defaultBranch: string, name: string, ref: string, check: RefCheck): Promise<BranchInfo> {
  if (!(await validBranchName(dir, name))) throw badRequest('Branch name is invalid');
  const sha = await resolveCommit(dir, ref);
  if (!sha) throw badRequest('Invalid reference name: ' + ref);
  await requireAllowed(check, { before: ZERO_SHA, after: sha, ref: `refs/heads/${name}` });
  try {
    // The empty old value makes git refuse a branch that exists, atomically.
    await git(dir, ['update-ref', `refs/heads/${name}`, sha, '']);
  } catch {
    throw badRequest('Branch already exists');
  }
  return getBranch(dir, defaultBranch, name);
}

/** Deletes a branch; the default branch is protected and cannot be deleted. */
export async function deleteBranch(dir: string, defaultBranch: string, name: string, check: RefCheck): Promise<void> {
  const branch = await getBranch(dir, defaultBranch, name);
  if (name === defaultBranch) throw badRequest('The default branch of a project cannot be deleted.');
  await requireAllowed(check, { before: branch.commit.id, after: ZERO_SHA, ref: `refs/heads/${name}` });
  await git(dir, ['update-ref', '-d', `refs/heads/${name}`, branch.commit.id]);
}
