import http from 'node:http';
import type { Db } from '../../db/index.ts';
import type { GroupRow, VirtualRegistryRegistryUpstreamRow, VirtualRegistryRow, VirtualRegistryUpstreamRow } from '../../db/schema.ts';
import type { Vault } from '../../auth/vault.ts';
import type { FileStore } from '../../files/index.ts';
import {
  DEFAULT_CACHE_VALIDITY_HOURS,
  MAX_REGISTRIES_PER_GROUP,
  MAX_UPSTREAMS_PER_REGISTRY,
  type UpstreamCreateBody,
  type UpstreamListQuery,
  type UpstreamTestBody,
  type UpstreamTestResult,
  type RegistryCacheSummary,
  type UpstreamUpdateBody,
  type VirtualRegistryCreateBody,
  type VirtualRegistryUpdateBody,
} from '../../../../shared/src/virtual-registries.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { matchesSearch } from '../../db/search.ts';
import { BlockedRequestError, checkUrl } from '../../outbound/guard.ts';
import { badRequest, notFound, validationFailed } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { getSettings } from '../instance/application-settings.ts';
import { upstreamClient } from '../../outbound/upstream-lazy.ts';

/**
 * Maven virtual registries (spec part 2): a top-level group's registries and the upstream
 * repositories they pull through, in position order. An upstream belongs to the group and may
 * serve several of its registries; its password is sealed by the vault and never shown. The
 * pull-through itself and the cache are virtual-registries-cache.ts.
 */

export type UpstreamLink = Pick<VirtualRegistryRegistryUpstreamRow, 'id' | 'registry_id' | 'position'>;

/** Registries belong to top-level groups; a subgroup is refused, as on the platform. */
export function assertTopLevel(group: GroupRow): void {
  if (group.parent_id !== null) throw validationFailed({ group: ['must be a top level Group'] });
}

export async function listRegistries(db: Db, group: GroupRow): Promise<VirtualRegistryRow[]> {
  assertTopLevel(group);
  return db.selectFrom('virtual_registries').selectAll().where('group_id', '=', group.id).orderBy('id').execute();
}

export async function createRegistry(db: Db, group: GroupRow, body: VirtualRegistryCreateBody): Promise<VirtualRegistryRow> {
  assertTopLevel(group);
  const { n } = await db.selectFrom('virtual_registries').select((eb) => eb.fn.countAll<number>().as('n')).where('group_id', '=', group.id).executeTakeFirstOrThrow();
  if (Number(n) >= MAX_REGISTRIES_PER_GROUP) throw validationFailed({ group: [`already has the most registries it may have (${MAX_REGISTRIES_PER_GROUP})`] });
  const now = nowIso();
  return db
    .insertInto('virtual_registries')
    .values({ group_id: group.id, name: body.name, description: body.description ?? null, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A registry by its id (the platform's plain 404 when there is none). */
export async function findRegistry(db: Db, id: number): Promise<VirtualRegistryRow> {
  const row = await db.selectFrom('virtual_registries').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Registry');
  return row;
}

export async function updateRegistry(db: Db, registry: VirtualRegistryRow, body: VirtualRegistryUpdateBody): Promise<VirtualRegistryRow> {
  if (body.name === undefined) throw badRequest('name is missing');
  return db
    .updateTable('virtual_registries')
    .set({ name: body.name, ...(body.description !== undefined ? { description: body.description } : {}), updated_at: nowIso() })
    .where('id', '=', registry.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The registry's upstreams that no other registry uses. */
async function exclusiveUpstreamIds(db: Db, registryId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('virtual_registry_registry_upstreams as mine')
    .select('mine.upstream_id')
    .where('mine.registry_id', '=', registryId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('virtual_registry_registry_upstreams as other')
            .select('other.id')
            .whereRef('other.upstream_id', '=', 'mine.upstream_id')
            .where('other.registry_id', '<>', registryId),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.upstream_id);
}

/** Deletes the cache entries of these upstreams, then their files (the rows first: a reader never meets a row without its file). */
async function dropCache(db: Db, files: FileStore, upstreamIds: number[]): Promise<void> {
  if (!upstreamIds.length) return;
  const gone = await db.deleteFrom('virtual_registry_cache_entries').where('upstream_id', 'in', upstreamIds).returning('file_key').execute();
  for (const { file_key } of gone) await files.delete(file_key);
}

/** Deletes the registry, the upstreams only it used and their cache; shared upstreams stay for the other registries. */
export async function deleteRegistry(db: Db, files: FileStore, registry: VirtualRegistryRow): Promise<void> {
  const exclusive = await exclusiveUpstreamIds(db, registry.id);
  await dropCache(db, files, exclusive);
  await db.transaction().execute(async (trx) => {
    if (exclusive.length) await trx.deleteFrom('virtual_registry_upstreams').where('id', 'in', exclusive).execute();
    await trx.deleteFrom('virtual_registries').where('id', '=', registry.id).execute();
  });
}

/** Empties the cache of the registry's exclusive upstreams (a shared upstream's cache serves other registries too). */
export async function purgeRegistryCache(db: Db, files: FileStore, registry: VirtualRegistryRow): Promise<void> {
  await dropCache(db, files, await exclusiveUpstreamIds(db, registry.id));
}

// ─── upstreams ─────────────────────────────────────────────────────────────────────────

export async function listGroupUpstreams(db: Db, group: GroupRow, query: UpstreamListQuery, page: PageRequest): Promise<Page<VirtualRegistryUpstreamRow>> {
  assertTopLevel(group);
  let q = db.selectFrom('virtual_registry_upstreams').selectAll().where('group_id', '=', group.id);
  if (query.upstream_name) q = q.where(matchesSearch(['name'], query.upstream_name));
  return offsetPage(db, q.orderBy('id'), page);
}

/** The registry's upstreams with their places, in position order. */
export async function listRegistryUpstreams(db: Db, registry: VirtualRegistryRow): Promise<{ upstream: VirtualRegistryUpstreamRow; link: UpstreamLink }[]> {
  const rows = await db
    .selectFrom('virtual_registry_registry_upstreams as link')
    .innerJoin('virtual_registry_upstreams as u', 'u.id', 'link.upstream_id')
    .selectAll('u')
    .select(['link.id as link_id', 'link.registry_id as link_registry_id', 'link.position as link_position'])
    .where('link.registry_id', '=', registry.id)
    .orderBy('link.position')
    .orderBy('link.id')
    .execute();
  return rows.map(({ link_id, link_registry_id, link_position, ...upstream }) => ({ upstream, link: { id: link_id, registry_id: link_registry_id, position: link_position } }));
}

export async function findUpstream(db: Db, id: number): Promise<VirtualRegistryUpstreamRow> {
  const row = await db.selectFrom('virtual_registry_upstreams').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Upstream');
  return row;
}

/** Every registry that uses the upstream, with the upstream's place there. */
export async function upstreamLinks(db: Db, upstreamId: number): Promise<UpstreamLink[]> {
  return db.selectFrom('virtual_registry_registry_upstreams').select(['id', 'registry_id', 'position']).where('upstream_id', '=', upstreamId).orderBy('registry_id').execute();
}

/** The URL's host refused by the outbound guard (as webhooks' URLs are), as the field's message. */
async function urlProblem(db: Db, url: string): Promise<string | undefined> {
  const allowLocal = (await getSettings(db)).allow_local_requests_from_web_hooks_and_services;
  try {
    await checkUrl(url, allowLocal);
    return undefined;
  } catch (e) {
    if (!(e instanceof BlockedRequestError)) throw e;
    return e.message.startsWith('is ') || e.message.startsWith('must') ? e.message : `is blocked: ${e.message}`;
  }
}

/** Two upstreams of one group with the same URL and the same credentials are refused, as on the platform. */
async function assertDistinct(db: Db, vault: Vault, groupId: number, candidate: { url: string; username: string | null; password: string | null }, except?: number): Promise<void> {
  let q = db.selectFrom('virtual_registry_upstreams').select(['id', 'username', 'encrypted_password']).where('group_id', '=', groupId).where('url', '=', candidate.url);
  if (except !== undefined) q = q.where('id', '<>', except);
  for (const other of await q.execute()) {
    const password = other.encrypted_password === null ? null : vault.decrypt(other.encrypted_password);
    if (other.username === candidate.username && password === candidate.password) throw validationFailed({ group: ['already has an upstream with the same credentials'] });
  }
}

/** A new upstream of the registry's group, placed last in the registry. */
export async function createUpstream(db: Db, vault: Vault, registry: VirtualRegistryRow, body: UpstreamCreateBody): Promise<{ upstream: VirtualRegistryUpstreamRow; link: UpstreamLink }> {
  const url = body.url;
  if (url === undefined) throw badRequest('url is missing');
  const blocked = await urlProblem(db, url);
  if (blocked) throw validationFailed({ url: [blocked] });
  const username = body.username ?? null;
  const password = body.password ?? null;
  await assertDistinct(db, vault, registry.group_id, { url, username, password });
  const now = nowIso();
  return db.transaction().execute(async (trx) => {
    const { last, n } = await trx
      .selectFrom('virtual_registry_registry_upstreams')
      .select((eb) => [eb.fn.max('position').as('last'), eb.fn.countAll<number>().as('n')])
      .where('registry_id', '=', registry.id)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_UPSTREAMS_PER_REGISTRY) throw validationFailed({ 'registry_upstreams.position': [`must be less than or equal to ${MAX_UPSTREAMS_PER_REGISTRY}`] });
    const upstream = await trx
      .insertInto('virtual_registry_upstreams')
      .values({
        group_id: registry.group_id,
        url,
        name: body.name ?? new URL(url).host,
        description: body.description ?? null,
        username,
        encrypted_password: password === null ? null : vault.encrypt(password),
        cache_validity_hours: body.cache_validity_hours ?? DEFAULT_CACHE_VALIDITY_HOURS,
        metadata_cache_validity_hours: body.metadata_cache_validity_hours ?? DEFAULT_CACHE_VALIDITY_HOURS,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const link = await trx
      .insertInto('virtual_registry_registry_upstreams')
      .values({ registry_id: registry.id, upstream_id: upstream.id, position: Number(last ?? 0) + 1 })
      .returning(['id', 'registry_id', 'position'])
      .executeTakeFirstOrThrow();
    return { upstream, link };
  });
}

/** Changes what is given; a new URL passes the guard, and URL and credentials stay distinct in the group. */
export async function updateUpstream(db: Db, vault: Vault, upstream: VirtualRegistryUpstreamRow, body: UpstreamUpdateBody): Promise<VirtualRegistryUpstreamRow> {
  if (Object.values(body).every((v) => v === undefined)) {
    throw badRequest('url, name, description, username, password, cache_validity_hours, metadata_cache_validity_hours are missing, at least one parameter must be provided');
  }
  const url = body.url ?? upstream.url;
  if (body.url !== undefined) {
    const blocked = await urlProblem(db, url);
    if (blocked) throw validationFailed({ url: [blocked] });
  }
  const username = body.username ?? upstream.username;
  const password = body.password ?? (upstream.encrypted_password === null ? null : vault.decrypt(upstream.encrypted_password));
  if ((username === null) !== (password === null)) throw validationFailed({ [username === null ? 'username' : 'password']: ["can't be blank"] });
  if (body.url !== undefined || body.username !== undefined || body.password !== undefined) await assertDistinct(db, vault, upstream.group_id, { url, username, password }, upstream.id);
  return db
    .updateTable('virtual_registry_upstreams')
    .set({
      url,
      username,
      ...(body.password !== undefined ? { encrypted_password: vault.encrypt(body.password) } : {}),
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.cache_validity_hours !== undefined ? { cache_validity_hours: body.cache_validity_hours } : {}),
      ...(body.metadata_cache_validity_hours !== undefined ? { metadata_cache_validity_hours: body.metadata_cache_validity_hours } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', upstream.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A registry's place for an upstream (the platform's registry_upstream), by its id. */
export async function findRegistryUpstream(db: Db, id: number): Promise<VirtualRegistryRegistryUpstreamRow> {
  const row = await db.selectFrom('virtual_registry_registry_upstreams').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Registry upstream');
  return row;
}

/**
 * Moves an upstream to `position` in its registry, as the platform does: a place past the last
 * is the last; the upstreams between the old place and the new one move by one toward the gap.
 */
export async function moveUpstream(db: Db, link: VirtualRegistryRegistryUpstreamRow, position: number): Promise<VirtualRegistryRegistryUpstreamRow> {
  return db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('virtual_registry_registry_upstreams').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    const { last } = await trx
      .selectFrom('virtual_registry_registry_upstreams')
      .select((eb) => eb.fn.max('position').as('last'))
      .where('registry_id', '=', current.registry_id)
      .executeTakeFirstOrThrow();
    const target = Math.min(position, Number(last ?? current.position));
    if (target === current.position) return current;
    const [from, to, shift] = target > current.position ? [current.position + 1, target, -1] : [target, current.position - 1, 1];
    await trx
      .updateTable('virtual_registry_registry_upstreams')
      .set((eb) => ({ position: eb('position', '+', shift) }))
      .where('registry_id', '=', current.registry_id)
      .where('position', '>=', from)
      .where('position', '<=', to)
      .where('id', '<>', current.id)
      .execute();
    return trx.updateTable('virtual_registry_registry_upstreams').set({ position: target }).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow();
  });
}

/** Deletes an upstream and its cache; in each registry that used it, the upstreams after it move up one place. */
export async function deleteUpstream(db: Db, files: FileStore, upstream: VirtualRegistryUpstreamRow): Promise<void> {
  await dropCache(db, files, [upstream.id]);
  await db.transaction().execute(async (trx) => {
    const links = await trx.selectFrom('virtual_registry_registry_upstreams').select(['registry_id', 'position']).where('upstream_id', '=', upstream.id).execute();
    for (const link of links) {
      await trx
        .updateTable('virtual_registry_registry_upstreams')
        .set((eb) => ({ position: eb('position', '-', 1) }))
        .where('registry_id', '=', link.registry_id)
        .where('position', '>', link.position)
        .execute();
    }
    await trx.deleteFrom('virtual_registry_upstreams').where('id', '=', upstream.id).execute();
  });
}

/** How many files the cache of each of the registry's upstreams holds, and their bytes (upstreams in the registry's order). */
export async function registryCacheSummary(db: Db, registry: VirtualRegistryRow): Promise<RegistryCacheSummary> {
  const rows = await db
    .selectFrom('virtual_registry_registry_upstreams as link')
    .leftJoin('virtual_registry_cache_entries as entry', 'entry.upstream_id', 'link.upstream_id')
    .select((eb) => ['link.upstream_id', eb.fn.count<number>('entry.id').as('entries'), eb.fn.coalesce(eb.fn.sum<number>('entry.size'), eb.lit(0)).as('bytes')])
    .where('link.registry_id', '=', registry.id)
    .groupBy(['link.upstream_id', 'link.position'])
    .orderBy('link.position')
    .execute();
  const upstreams = rows.map((r) => ({ upstream_id: r.upstream_id, entries: Number(r.entries), bytes: Number(r.bytes) }));
  return { entries: upstreams.reduce((n, u) => n + u.entries, 0), bytes: upstreams.reduce((n, u) => n + u.bytes, 0), upstreams };
}

/** The upstream's password, opened from the vault (null when it is reached anonymously). */
export const upstreamPassword = (vault: Vault, upstream: Pick<VirtualRegistryUpstreamRow, 'encrypted_password'>) =>
  upstream.encrypted_password === null ? null : vault.decrypt(upstream.encrypted_password);

// ─── the connection test ───────────────────────────────────────────────────────────────

/** The path the connection test asks for: a metadata file no repository is expected to hold (404 means reachable). */
export const CONNECTION_TEST_PATH = 'com/gatehouse/connection-test/maven-metadata.xml';

export interface Reach {
  allowLocal: boolean;
  timeoutMs: number;
}

/** How the outbound side is set: local addresses as webhooks may reach them, and the upstream timeout. */
export async function reachSettings(db: Db, timeoutMs: number): Promise<Reach> {
  return { allowLocal: (await getSettings(db)).allow_local_requests_from_web_hooks_and_services, timeoutMs };
}

/**
 * A HEAD request for a test path with the given credentials, through the outbound guard:
 * success for 2XX and 404 (reachable, artifact missing), else the reason.
 */
export async function testConnection(reach: Reach, body: UpstreamTestBody, path = CONNECTION_TEST_PATH): Promise<UpstreamTestResult> {
  const { upstreamRequest, basicAuthorization, UpstreamUnreachable } = await upstreamClient();
  const url = `${body.url.replace(/\/+$/, '')}/${path}`;
  try {
    const answer = await upstreamRequest({
      url,
      method: 'HEAD',
      authorization: body.username !== undefined && body.password !== undefined ? basicAuthorization(body.username, body.password) : undefined,
      ...reach,
    });
    await answer.body.dump();
    const status = answer.status;
    if ((status >= 200 && status < 300) || status === 404) return { success: true };
    if (status >= 500) return { success: false, result: `Error: ${status} - Server Error` };
    return { success: false, result: `Error: ${status} - ${http.STATUS_CODES[status] ?? 'Unexpected answer'}` };
  } catch (e) {
    if (!(e instanceof UpstreamUnreachable)) throw e;
    return { success: false, result: `Error: ${e.message}` };
  }
}

/**
 * Tests a saved upstream with the credentials Gatehouse keeps (the platform's GET …/upstreams/:id/test):
 * the path of a file its cache holds, if any, else the test path.
 */
export async function testUpstream(db: Db, vault: Vault, reach: Reach, upstream: VirtualRegistryUpstreamRow): Promise<UpstreamTestResult> {
  const cached = await db.selectFrom('virtual_registry_cache_entries').select('relative_path').where('upstream_id', '=', upstream.id).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const password = upstreamPassword(vault, upstream);
  const credentials = upstream.username !== null && password !== null ? { username: upstream.username, password } : {};
  return testConnection(reach, { url: upstream.url, ...credentials }, cached?.relative_path ?? CONNECTION_TEST_PATH);
}
