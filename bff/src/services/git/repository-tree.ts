import { resolveCommit } from './branches.ts';
import { gitText } from './git-run.ts';
import { notFound } from '../../util/errors.ts';

export interface TreeItem {
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  path: string;
  mode: string;
}

/**
 * The entries of a folder at a ref, folders first then by name as the platform lists them
 * (every level below with `recursive`); 404 Tree for a ref or a path that is no folder.
 */
export async function listTree(dir: string, ref: string, folder: string | undefined, recursive: boolean): Promise<TreeItem[]> {
  const commit = await resolveCommit(dir, ref);
  if (!commit) throw notFound('Tree');
  const clean = (folder ?? '').replace(/^\/+|\/+$/g, '');
  if (clean.split('/').some((part) => part === '.' || part === '..')) throw notFound('Tree');
  let treeish = commit;
  if (clean) {
    const type = (await gitText(dir, ['cat-file', '-t', `${commit}:${clean}`]).catch(() => '')).trim();
    if (type !== 'tree') throw notFound('Tree');
    treeish = `${commit}:${clean}`;
  }
  const out = await gitText(dir, ['ls-tree', '-z', ...(recursive ? ['-r', '-t'] : []), treeish]);
  const items = out
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, type, id] = line.slice(0, tab).split(' ');
      const rel = line.slice(tab + 1);
      return { id, name: rel.split('/').pop()!, type: type as TreeItem['type'], path: clean ? `${clean}/${rel}` : rel, mode };
    });
  if (recursive) return items;
  const rank = { tree: 0, blob: 1, commit: 2 };
  return items.sort((a, b) => rank[a.type] - rank[b.type] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
