import type { Db } from '../../db/index.ts';
import type { ContainerRepositoryRow, ProjectRow } from '../../db/schema.ts';
import { pageOfList, type Page, type PageRequest } from '../../db/pagination.ts';
import { notFound, ServerFault } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { registryToken, type TokenServiceSettings } from './signing.ts';

/** The registry Gatehouse reads: its URL and what signs Gatehouse's own tokens. */
export interface RegistryReader extends TokenServiceSettings {
  url: string;
}

/** A repository's path in the registry: the project's full path (lower case), then its name. */
export const repositoryPath = (project: Pick<ProjectRow, 'path_with_namespace'>, name: string) =>
  [project.path_with_namespace.toLowerCase(), name].filter(Boolean).join('/');

/** Records a repository the token service granted a push to, once (as the platform does on push). */
export async function recordRepository(db: Db, projectId: number, name: string): Promise<void> {
  // Read first: every push asks for a token, and only the first should write.
  if (await db.selectFrom('container_repositories').select('id').where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst()) return;
  await db
    .insertInto('container_repositories')
    .values({ project_id: projectId, name, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
    .execute();
}

export async function listRepositories(db: Db, projectId: number, page: PageRequest): Promise<Page<ContainerRepositoryRow>> {
  const rows = await db.selectFrom('container_repositories').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  return pageOfList(rows, page);
}

/** A repository of the project by id; any other is the platform's plain 404. */
export async function getRepository(db: Db, projectId: number, id: number): Promise<ContainerRepositoryRow> {
  const row = await db.selectFrom('container_repositories').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * The tags the registry holds for `path`, by name, read with a pull token of Gatehouse's own
 * (Distribution's tags list, page by page). None while no registry is connected, or when the
 * registry knows no such repository (every tag deleted).
 */
export async function registryTags(reader: RegistryReader | undefined, path: string): Promise<string[]> {
  if (!reader) return [];
  const token = registryToken(reader, 'gatehouse', [{ type: 'repository', name: path, actions: ['pull'] }]);
  const tags: string[] = [];
  let next: string | undefined = `${reader.url}/v2/${path}/tags/list?n=1000`;
  while (next) {
    let res: Response;
    try {
      res = await fetch(next, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    } catch (e) {
      throw new ServerFault('the container registry did not answer', { registry: reader.url, path, error: (e as Error).message });
    }
    if (res.status === 404) return [];
    if (!res.ok) throw new ServerFault('the container registry refused to list tags', { registry: reader.url, path, status: res.status, body: (await res.text()).slice(0, 500) });
    const body = (await res.json()) as { tags?: string[] | null };
    tags.push(...(body.tags ?? []));
    // RFC 5988 Link: </v2/…/tags/list?last=…&n=…>; rel="next"
    const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    next = link ? new URL(link, reader.url).href : undefined;
  }
  return tags.sort();
}
