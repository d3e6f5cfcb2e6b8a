import crypto from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import type { Db } from '../../db/index.ts';
import type { DeployTokenRow, VirtualRegistryCacheEntryRow, VirtualRegistryRow, VirtualRegistryUpstreamRow } from '../../db/schema.ts';
import type { Vault } from '../../auth/vault.ts';
import type { FileStore } from '../../files/index.ts';
import { hasScope, type Actor } from '../../auth/actor.ts';
import { safeEqual, tokenDigest } from '../../auth/secrets.ts';
import { canGroup } from '../../policies/index.ts';
import { badRequest, DomainError, forbidden, notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { json } from '../../util/rows.ts';
import { actorForToken } from '../access/authentication.ts';
import { isExpired } from '../access/deploy-tokens.ts';
import { findGroupWithLevel } from '../groups/groups.ts';
import { findRegistry, upstreamPassword, type Reach } from './virtual-registries.ts';
import { upstreamClient } from '../../outbound/upstream-lazy.ts';

/**
 * The pull-through of a Maven virtual registry: a file Maven asks for (a POM, a JAR, a checksum,
 * `maven-metadata.xml`) is served from the cache while it is fresh, else asked of the
 * registry's upstreams in position order with each upstream's own credentials (never the
 * caller's), streamed to the caller while it is stored, and served from the cache still when
 * every upstream is down. Cached bytes live in the file store, so every instance serves them.
 * Requests of one instance for one file not yet cached share one upstream fetch.
 */

export interface PullDeps {
  db: Db;
  files: FileStore;
  vault: Vault;
  reach: Reach;
  maxFileBytes: number;
}

/** What to answer: a cached file, a file on its way from an upstream, or why there is none. */
export type Pulled =
  | { kind: 'cached'; entry: VirtualRegistryCacheEntryRow; file: Readable; size: number }
  /** `stored` settles once the file is in the cache (or failed to be): the answer ends then, so the next request finds it. */
  | { kind: 'streamed'; contentType: string; contentLength?: number; sha1?: string; md5?: string; body: Readable; stored: Promise<unknown> }
  | { kind: 'missing' }
  | { kind: 'unavailable'; reasons: string[] };

// ─── who may pull ──────────────────────────────────────────────────────────────────────

/** Who pulls: a user (a personal or group access token) or a group deploy token. */
export type PackageCaller = { kind: 'user'; actor: Actor } | { kind: 'deploy_token'; token: DeployTokenRow };

/** The credentials a request presented, as the platform's package endpoints read them. */
export interface PresentedCredentials {
  /** `Private-Token`, or `Authorization: Bearer`. */
  token?: string;
  jobToken?: string;
  deployToken?: string;
  /** HTTP Basic (what Maven's settings.xml sends): any user name and a token as the password, or a deploy token's own user name. */
  basic?: { username: string; password: string };
}

/** The credential refused: 401, which Maven answers by sending its credentials (or giving up). */
const refused = () => new DomainError('unauthorized', '401 Unauthorized');

async function deployTokenBy(db: Db, plaintext: string, username?: string): Promise<DeployTokenRow | undefined> {
  const digest = tokenDigest(plaintext);
  const token = await db.selectFrom('deploy_tokens').selectAll().where('token_digest', '=', digest).executeTakeFirst();
  if (!token || !safeEqual(token.token_digest, digest) || token.revoked || isExpired(token)) return undefined;
  if (username !== undefined && token.username !== username) return undefined;
  return token;
}

/**
 * Whose request it is. A credential that does not work is 401, as is none at all. Gatehouse
 * runs no CI jobs, so there are no job tokens to accept: a `Job-Token` is refused as unknown.
 */
export async function packageCaller(db: Db, presented: PresentedCredentials): Promise<PackageCaller> {
  if (presented.token !== undefined) {
    const actor = await actorForToken(db, presented.token);
    if (typeof actor === 'string') throw refused();
    return { kind: 'user', actor };
  }
  if (presented.jobToken !== undefined) throw refused();
  if (presented.deployToken !== undefined) {
    const token = await deployTokenBy(db, presented.deployToken);
    if (!token) throw refused();
    return { kind: 'deploy_token', token };
  }
  if (presented.basic) {
    const actor = await actorForToken(db, presented.basic.password);
    if (typeof actor !== 'string') return { kind: 'user', actor };
    if (actor !== 'unknown') throw refused();
    const token = await deployTokenBy(db, presented.basic.password, presented.basic.username);
    if (!token) throw refused();
    return { kind: 'deploy_token', token };
  }
  throw refused();
}

/**
 * The registry, if the caller may pull through it: a member of its group (Guest and up) with a
 * token that reads the API, or a deploy token of its group with the read_virtual_registry scope.
 * A registry the caller may not see answers 404 as a missing one does.
 */
export async function registryToPull(db: Db, caller: PackageCaller, registryId: number): Promise<VirtualRegistryRow> {
  const registry = await findRegistry(db, registryId);
  if (caller.kind === 'deploy_token') {
    if (caller.token.group_id !== registry.group_id) throw notFound('Registry');
    if (!json<string[]>(caller.token.scopes, []).includes('read_virtual_registry')) throw forbidden();
    return registry;
  }
  const found = await findGroupWithLevel(db, String(registry.group_id), caller.actor.user?.id);
  if (!found || !canGroup(caller.actor, 'read_group', found)) throw notFound('Registry');
  if (!hasScope(caller.actor, 'read') || !canGroup(caller.actor, 'read_virtual_registry', found)) throw forbidden();
  return registry;
}

// ─── pulling ───────────────────────────────────────────────────────────────────────────

/** The most a relative path may hold, and the characters no Maven path has. */
const MAX_PATH = 1024;

/** The path Maven asked for, checked: segments of printable text, none empty, `.` or `..`. */
export function relativePath(segments: string[]): string {
  const odd = (s: string) => s.includes('\\') || [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  const bad = !segments.length || segments.some((s) => s === '' || s === '.' || s === '..' || odd(s));
  const joined = segments.join('/');
  if (bad || joined.length > MAX_PATH) throw badRequest('400 Bad request - path is invalid');
  return joined;
}

/** `maven-metadata.xml` and its checksums change as versions are published: they have their own validity. */
export const isMetadata = (path: string) => /(^|\/)maven-metadata\.xml(\.(md5|sha1|sha256|sha512))?$/.test(path);

/** Whether a cached file may be served without asking its upstream (0 hours: always, as on the platform). */
export function isFresh(entry: Pick<VirtualRegistryCacheEntryRow, 'relative_path' | 'upstream_checked_at'>, upstream: Pick<VirtualRegistryUpstreamRow, 'cache_validity_hours' | 'metadata_cache_validity_hours'>, now = Date.now()): boolean {
  const hours = isMetadata(entry.relative_path) ? upstream.metadata_cache_validity_hours : upstream.cache_validity_hours;
  if (hours === 0) return true;
  return Date.parse(entry.upstream_checked_at) + hours * 3_600_000 > now;
}

const TYPES: [RegExp, string][] = [
  [/\.(pom|xml)$/, 'application/xml'],
  [/\.jar$/, 'application/java-archive'],
  [/\.(md5|sha1|sha256|sha512|asc)$/, 'text/plain'],
];
/** The upstream's type for a file, else one by its extension. */
const contentTypeOf = (path: string, given: string | undefined) => given || (TYPES.find(([re]) => re.test(path))?.[1] ?? 'application/octet-stream');

const fileKey = (upstreamId: number, path: string) => `virtual-registries/${upstreamId}/${crypto.createHash('sha256').update(path).digest('hex')}`;

/** The registry's upstreams in the order it asks them. */
async function upstreamsOf(db: Db, registry: VirtualRegistryRow): Promise<VirtualRegistryUpstreamRow[]> {
  return db
    .selectFrom('virtual_registry_registry_upstreams as link')
    .innerJoin('virtual_registry_upstreams as u', 'u.id', 'link.upstream_id')
    .selectAll('u')
    .where('link.registry_id', '=', registry.id)
    .orderBy('link.position')
    .orderBy('link.id')
    .execute();
}

async function cacheEntries(db: Db, upstreamIds: number[], path: string): Promise<VirtualRegistryCacheEntryRow[]> {
  if (!upstreamIds.length) return [];
  return db.selectFrom('virtual_registry_cache_entries').selectAll().where('upstream_id', 'in', upstreamIds).where('relative_path', '=', path).execute();
}

/** A cached entry's file, opened; null when its bytes are gone (purged meanwhile). */
async function openCached(files: FileStore, entry: VirtualRegistryCacheEntryRow): Promise<Pulled | null> {
  const file = await files.get(entry.file_key);
  return file && { kind: 'cached', entry, file: file.stream, size: file.size };
}

/**
 * The fetches in flight in this process, by registry and path, each settling with the entry it
 * stored (null when it stored none): requests that come meanwhile wait for it and are served
 * from the cache, so one file not yet cached is fetched once.
 */
const inFlight = new Map<string, Promise<VirtualRegistryCacheEntryRow | null>>();

export async function pull(deps: PullDeps, registry: VirtualRegistryRow, path: string): Promise<Pulled> {
  const key = `${registry.id}:${path}`;
  const pending = inFlight.get(key);
  if (pending) {
    const entry = await pending;
    const served = entry && (await openCached(deps.files, entry));
    if (served) return served;
  }
  const upstreams = await upstreamsOf(deps.db, registry);
  const byUpstream = new Map((await cacheEntries(deps.db, upstreams.map((u) => u.id), path)).map((e) => [e.upstream_id, e]));
  const cached = upstreams.filter((u) => byUpstream.has(u.id)).map((u) => ({ upstream: u, entry: byUpstream.get(u.id)! }));
  const first = cached[0];
  if (first && isFresh(first.entry, first.upstream)) {
    const served = await openCached(deps.files, first.entry);
    if (served) return served;
  }
  // Another request may have started the fetch while this one read the cache.
  if (inFlight.has(key)) return pull(deps, registry, path);
  let settle!: (stored: Promise<VirtualRegistryCacheEntryRow | null>) => void;
  const flight = new Promise<VirtualRegistryCacheEntryRow | null>((resolve) => (settle = (stored) => resolve(stored.catch(() => null))));
  inFlight.set(key, flight);
  void flight.then(() => inFlight.delete(key));
  try {
    const { pulled, stored } = await fetchThrough(deps, upstreams, byUpstream, path);
    settle(stored ?? Promise.resolve(null));
    if (pulled.kind !== 'missing' && pulled.kind !== 'unavailable') return pulled;
    // No upstream gave the file: a copy of it, stale as it may be, is better than none.
    for (const { entry } of cached) {
      const served = await openCached(deps.files, entry);
      if (served) return served;
    }
    return pulled;
  } catch (e) {
    settle(Promise.resolve(null));
    throw e;
  }
}

/** Asks the upstreams in order: the first that has the file gives it (a 304 confirms a stale copy). */
async function fetchThrough(
  deps: PullDeps,
  upstreams: VirtualRegistryUpstreamRow[],
  byUpstream: Map<number, VirtualRegistryCacheEntryRow>,
  path: string,
): Promise<{ pulled: Pulled; stored?: Promise<VirtualRegistryCacheEntryRow> }> {
  const { upstreamRequest, basicAuthorization, unreachable } = await upstreamClient();
  const reasons: string[] = [];
  for (const upstream of upstreams) {
    const entry = byUpstream.get(upstream.id);
    const password = upstreamPassword(deps.vault, upstream);
    let answer;
    try {
      answer = await upstreamRequest({
        url: `${upstream.url.replace(/\/+$/, '')}/${path.split('/').map(encodeURIComponent).join('/')}`,
        method: 'GET',
        authorization: upstream.username !== null && password !== null ? basicAuthorization(upstream.username, password) : undefined,
        // A stale copy is confirmed by its ETag rather than fetched again.
        headers: entry?.upstream_etag ? { 'If-None-Match': entry.upstream_etag } : {},
        ...deps.reach,
      });
    } catch (e) {
      reasons.push(`${upstream.name}: ${unreachable(e).message}`);
      continue;
    }
    if (answer.status === 304 && entry) {
      await answer.body.dump();
      await deps.db.updateTable('virtual_registry_cache_entries').set({ upstream_checked_at: nowIso() }).where('id', '=', entry.id).execute();
      const served = await openCached(deps.files, entry);
      if (served) return { pulled: served };
      continue;
    }
    if (answer.status === 200) {
      const length = answer.headers['content-length'] === undefined ? undefined : Number(answer.headers['content-length']);
      if (length !== undefined && length > deps.maxFileBytes) {
        answer.body.destroy();
        reasons.push(`${upstream.name}: the file is larger than ${deps.maxFileBytes} bytes`);
        continue;
      }
      return streamAndStore(deps, upstream, path, answer.headers, answer.body, length);
    }
    await answer.body.dump().catch(() => undefined);
    if (answer.status === 404 || answer.status === 410) continue;
    reasons.push(`${upstream.name}: answered ${answer.status}`);
  }
  return { pulled: reasons.length ? { kind: 'unavailable', reasons } : { kind: 'missing' } };
}

/**
 * The upstream's body, counted and hashed as it passes, goes to the caller and to the file
 * store at once; once whole, the cache entry is written (or replaced). Past the size limit, or
 * when the upstream stalls, both streams fail: the caller's answer is cut short and nothing is
 * kept. A caller who goes away does not stop the store.
 */
function streamAndStore(deps: PullDeps, upstream: VirtualRegistryUpstreamRow, path: string, headers: Record<string, string>, source: Readable, length: number | undefined): { pulled: Pulled; stored: Promise<VirtualRegistryCacheEntryRow> } {
  const sha1 = crypto.createHash('sha1');
  const md5 = crypto.createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > deps.maxFileBytes) return done(new Error(`the file is larger than ${deps.maxFileBytes} bytes`));
      sha1.update(chunk);
      md5.update(chunk);
      done(null, chunk);
    },
  });
  // Their failures reach the store's put and the caller's answer, which read them; no stray 'error' event.
  const toStore = new PassThrough().on('error', () => undefined);
  const toCaller = new PassThrough().on('error', () => undefined);
  source.on('error', (e) => meter.destroy(e));
  meter.on('error', (e) => {
    toStore.destroy(e);
    toCaller.destroy(e);
  });
  source.pipe(meter);
  meter.pipe(toStore);
  meter.pipe(toCaller);
  const contentType = contentTypeOf(path, headers['content-type']);
  const fileKeyOf = fileKey(upstream.id, path);
  const stored = (async () => {
    await deps.files.put(fileKeyOf, toStore);
    const now = nowIso();
    const values = {
      file_key: fileKeyOf,
      size,
      content_type: contentType,
      file_sha1: sha1.digest('hex'),
      file_md5: md5.digest('hex'),
      upstream_etag: headers.etag ?? null,
      upstream_checked_at: now,
      updated_at: now,
    };
    return deps.db
      .insertInto('virtual_registry_cache_entries')
      .values({ upstream_id: upstream.id, relative_path: path, created_at: now, ...values })
      .onConflict((oc) => oc.columns(['upstream_id', 'relative_path']).doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
  })();
  // A failed store is the caller's broken transfer (and the waiting requests' fetch of their own).
  stored.catch(() => undefined);
  return {
    pulled: { kind: 'streamed', contentType, contentLength: length, sha1: headers['x-checksum-sha1'], md5: headers['x-checksum-md5'], body: toCaller, stored },
    stored,
  };
}
