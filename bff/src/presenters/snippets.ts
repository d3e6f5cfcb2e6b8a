import type { Snippet } from '../../../shared/src/snippets.ts';
import type { SnippetView } from '../services/planning/snippets.ts';
import { presentUserBasic } from './users.ts';

/** Snippets keep no history: their files' raw URLs name this ref, as the platform names a snippet repository's branch. */
export const SNIPPET_REF = 'main';

export const snippetWebUrl = (baseUrl: string, v: Pick<SnippetView, 'project' | 'snippet'>) => `${baseUrl}/${v.project.path_with_namespace}/-/snippets/${v.snippet.id}`;

export function presentSnippet(v: SnippetView, ctx: { baseUrl: string }): Snippet {
  const s = v.snippet;
  const web = snippetWebUrl(ctx.baseUrl, v);
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: s.visibility as Snippet['visibility'],
    author: v.author ? presentUserBasic(v.author, ctx.baseUrl) : null,
    created_at: s.created_at,
    updated_at: s.updated_at,
    project_id: s.project_id,
    web_url: web,
    raw_url: `${web}/raw`,
    file_name: v.files[0]?.path ?? null,
    files: v.files.map((f) => ({ path: f.path, raw_url: `${web}/raw/${SNIPPET_REF}/${f.path.split('/').map(encodeURIComponent).join('/')}` })),
    imported: false,
    imported_from: 'none',
  };
}
