import { nameSearch, type CommitInfo } from './branches.ts';
import { requireAllowed, resolveCommit, type RefCheck } from './branches.ts';
import { ZERO_SHA } from './push-git.ts';
import { readCommits } from './commits.ts';
import { git, gitSucceeds, gitText } from './git-run.ts';
import { badRequest, notFound } from '../../util/errors.ts';
import type { TagListQuery } from '../../../../shared/src/tags.ts';

/** A tag read from git: `target` is what the ref names (a tag object or the commit itself). */
export interface TagInfo {
  name: string;
  target: string;
  message: string | null;
  createdAt: string | null;
  commit: CommitInfo;
}

const FIELDS = ['%(refname:lstrip=2)', '%(objectname)', '%(objecttype)', '%(*objectname)', '%(*objecttype)', '%(taggerdate:iso-strict)', '%(contents)'];

/** Tags pointing (perhaps through a tag object) at a commit; tags of trees or blobs have no commit to show and are left out. */
async function readTags(dir: string, pattern: string, sort: string): Promise<TagInfo[]> {
  const out = await gitText(dir, ['for-each-ref', `--sort=${sort}`, `--format=%1e${FIELDS.join('%1d')}`, pattern]);
  const refs = out
    .split('\x1e')
    .slice(1)
    .map((r) => {
      const [name, id, type, peeled, peeledType, taggerDate, contents] = r.split('\x1d');
      const annotated = type === 'tag';
      return { name, target: id, commitId: annotated ? (peeledType === 'commit' ? peeled : '') : type === 'commit' ? id : '', message: annotated ? contents.replace(/\n+$/, '') : null, createdAt: annotated ? taggerDate || null : null };
    })
    .filter((r) => r.commitId);
  const commits = await readCommits(dir, [...new Set(refs.map((r) => r.commitId))]);
  return refs.map(({ commitId, ...r }) => ({ ...r, commit: commits.get(commitId)! })).filter((t) => t.commit);
}

const SORT_KEYS = { name: 'refname', updated: '*committerdate', version: 'version:refname' } as const;

/** The platform's order: by the commit's date, newest first, unless `order_by`/`sort` say otherwise. */
export async function listTags(dir: string, q: Pick<TagListQuery, 'search' | 'order_by' | 'sort'>): Promise<TagInfo[]> {
  const key = SORT_KEYS[q.order_by ?? 'updated'];
  const sort = (q.sort ?? 'desc') === 'desc' ? `-${key}` : key;
  let tags = await readTags(dir, 'refs/tags', sort);
  // `*committerdate` is empty for lightweight tags: sort those by their own commit's date.
  if (key === '*committerdate') {
    const sign = sort.startsWith('-') ? -1 : 1;
    tags = tags.sort((a, b) => sign * (Date.parse(a.commit.committedDate) - Date.parse(b.commit.committedDate)) || a.name.localeCompare(b.name));
  }
  if (q.search) {
    const matches = nameSearch(q.search);
    tags = tags.filter((t) => matches(t.name));
  }
  return tags;
}

async function validTagName(dir: string, name: string): Promise<boolean> {
  return !name.startsWith('-') && (await gitSucceeds(dir, ['check-ref-format', `refs/tags/${name}`]));
}

export async function getTag(dir: string, name: string): Promise<TagInfo> {
  if (!(await validTagName(dir, name))) throw notFound('Tag');
  const [found] = await readTags(dir, `refs/tags/${name}`, 'refname');
  if (!found || found.name !== name) throw notFound('Tag');
  return found;
}

/** A lightweight tag, or an annotated one (tagged by `tagger`) when there is a message; the platform's 400s otherwise. */
export async function createTag(dir: string, body: { tag_name: string; ref: string; message?: string }, tagger: { name: string; email: string }, check: RefCheck): Promise<TagInfo> {
  const name = body.tag_name;
  if (!(await validTagName(dir, name))) throw badRequest('Tag name invalid');
  const sha = await resolveCommit(dir, body.ref);
  if (!sha) throw badRequest(`Target ${body.ref} is invalid`);
  // Checked as the commit it names: an annotated tag's object is made only once it may be.
  await requireAllowed(check, { before: ZERO_SHA, after: sha, ref: `refs/tags/${name}` });
  const message = body.message?.trim();
  try {
    if (message) {
      // `git tag` takes the ref's lock and refuses a name that exists, atomically.
      await git(dir, ['tag', '-a', '-F', '-', name, sha], { input: message, env: { GIT_COMMITTER_NAME: tagger.name, GIT_COMMITTER_EMAIL: tagger.email } });
    } else {
      await git(dir, ['update-ref', `refs/tags/${name}`, sha, '']);
    }
  } catch {
    throw badRequest(`Tag ${name} already exists`);
  }
  return getTag(dir, name);
}

export async function deleteTag(dir: string, name: string, check: RefCheck): Promise<void> {
  const tag = await getTag(dir, name);
  await requireAllowed(check, { before: tag.target, after: ZERO_SHA, ref: `refs/tags/${name}` });
  await git(dir, ['update-ref', '-d', `refs/tags/${name}`, tag.target]);
}
