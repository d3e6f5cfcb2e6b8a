import type { Db } from '../../db/index.ts';
import type { ContainerRepositoryRow, ProjectRow } from '../../db/schema.ts';
import { pageOfList, type Page, type PageRequest } from '../../db/pagination.ts';
import { forbidden, notFound, ServerFault } from '../../util/errors.ts';
import { blockingRule, rulesMatching } from './protection-rules.ts';
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

/** What Distribution answers a manifest's digest for, whatever kind of image the tag names. */
const MANIFEST_TYPES = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
].join(', ');

async function registryCall(reader: RegistryReader, url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    throw new ServerFault('the container registry did not answer', { registry: reader.url, what, error: (e as Error).message });
  }
}

/** What the registry says of a tag's image: its manifest's digest, and for an image (not an index of images) its config's digest and creation date and its layers' size. */
export interface TagImage {
  digest: string;
  /** The config blob's digest without its algorithm (the platform's `revision`). */
  revision: string | null;
  created_at: string | null;
  /** The layers' compressed sizes, summed (as the platform's `total_size`). */
  total_size: number | null;
}

interface Manifest {
  config?: { digest?: string };
  layers?: { size?: number }[];
}

/**
 * A tag's image as the registry holds it (the manifest the tag names, then the config blob it
 * points to, for its creation date); 404 Tag Not Found when the registry holds no such tag or none is connected.
 */
export async function tagImage(reader: RegistryReader | undefined, path: string, tag: string): Promise<TagImage> {
  if (!reader) throw notFound('Tag');
  const token = registryToken(reader, 'gatehouse', [{ type: 'repository', name: path, actions: ['pull'] }]);
  const res = await registryCall(reader, `${reader.url}/v2/${path}/manifests/${encodeURIComponent(tag)}`, { headers: { Authorization: `Bearer ${token}`, Accept: MANIFEST_TYPES } }, 'read a tag');
  if (res.status === 404) throw notFound('Tag');
  const digest = res.headers.get('docker-content-digest');
  if (!res.ok || !digest) throw new ServerFault('the container registry did not answer a tag’s manifest', { registry: reader.url, path, tag, status: res.status });
  const manifest = (await res.json()) as Manifest;
  const config = manifest.config?.digest;
  const layers = manifest.layers;
  let created: string | null = null;
  if (config) {
    const blob = await registryCall(reader, `${reader.url}/v2/${path}/blobs/${config}`, { headers: { Authorization: `Bearer ${token}` } }, 'read an image’s config');
    if (blob.ok) {
      const parsed = Date.parse(((await blob.json().catch(() => ({}))) as { created?: string }).created ?? '');
      created = Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
    }
  }
  return {
    digest,
    revision: config ? config.replace(/^[a-z0-9]+:/, '') : null,
    created_at: created,
    total_size: layers ? layers.reduce((sum, l) => sum + (l.size ?? 0), 0) : null,
  };
}

/** Who deletes: an administrator, or a caller with a role in the project. */
export interface Deleter {
  admin: boolean;
  role: number;
}

/** A protection rule keeping deletes at `path` above the deleter's role stops them, as at the token service (administrators pass). */
async function checkDeleteProtection(db: Db, projectId: number, path: string, deleter: Deleter): Promise<void> {
  if (deleter.admin) return;
  if (blockingRule(await rulesMatching(db, projectId, path), path, deleter.role, 'delete')) throw forbidden('Deleting from protected repository path forbidden');
}

/** Deletes a tag's image from the registry (see deleteRegistryTag); 404 when the registry holds no such tag. */
export async function deleteTag(db: Db, reader: RegistryReader | undefined, project: Pick<ProjectRow, 'id' | 'path_with_namespace'>, repository: ContainerRepositoryRow, tag: string, deleter: Deleter): Promise<void> {
  const path = repositoryPath(project, repository.name);
  await checkDeleteProtection(db, project.id, path, deleter);
  if (!(await deleteRegistryTag(reader, path, tag))) throw notFound('Tag');
}

/**
 * Deletes the image a tag names from the registry: Distribution deletes a manifest by its digest
 * (read from the tag), which takes every tag naming the same image with it. False when the
 * registry holds no such tag (or no registry is connected).
 */
async function deleteRegistryTag(reader: RegistryReader | undefined, path: string, tag: string): Promise<boolean> {
  if (!reader) return false;
  const token = registryToken(reader, 'gatehouse', [{ type: 'repository', name: path, actions: ['pull', 'delete'] }]);
  const headers = { Authorization: `Bearer ${token}`, Accept: MANIFEST_TYPES };
  const head = await registryCall(reader, `${reader.url}/v2/${path}/manifests/${encodeURIComponent(tag)}`, { method: 'HEAD', headers }, 'read a tag');
  if (head.status === 404) return false;
  const digest = head.headers.get('docker-content-digest');
  if (!head.ok || !digest) throw new ServerFault('the container registry did not name the tag’s image', { registry: reader.url, path, tag, status: head.status });
  const deleted = await registryCall(reader, `${reader.url}/v2/${path}/manifests/${digest}`, { method: 'DELETE', headers }, 'delete an image');
  if (deleted.status === 404) return false;
  if (!deleted.ok) throw new ServerFault('the container registry refused to delete an image', { registry: reader.url, path, tag, status: deleted.status, body: (await deleted.text()).slice(0, 500) });
  return true;
}

/** Deletes a repository: every tag's image from the registry, then the record of it. */
export async function deleteRepository(db: Db, reader: RegistryReader | undefined, project: Pick<ProjectRow, 'id' | 'path_with_namespace'>, repository: ContainerRepositoryRow, deleter: Deleter): Promise<void> {
  const path = repositoryPath(project, repository.name);
  await checkDeleteProtection(db, project.id, path, deleter);
  for (const tag of await registryTags(reader, path)) await deleteRegistryTag(reader, path, tag);
  await db.deleteFrom('container_repositories').where('id', '=', repository.id).execute();
}
