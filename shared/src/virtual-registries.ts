import { z } from './errors.ts';
import { intParam, paginationQuery } from './params.ts';

/**
 * Maven virtual registries (spec part 2, "Virtual package registries"): a top-level group's
 * registries, the upstream repositories they pull through in order, and the connection test.
 */

/** How many registries a top-level group may have, and upstreams a registry (the platform's limits). */
export const MAX_REGISTRIES_PER_GROUP = 20;
export const MAX_UPSTREAMS_PER_REGISTRY = 20;
/** Hours a cached file (metadata: `maven-metadata.xml`) is served before the upstream is asked again. */
export const DEFAULT_CACHE_VALIDITY_HOURS = 24;

export const virtualRegistry = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type VirtualRegistry = z.infer<typeof virtualRegistry>;

/** An upstream's place in one registry: the registry tries its upstreams by `position`, from 1. */
export const registryUpstreamLink = z.object({
  id: z.number().int(),
  registry_id: z.number().int(),
  position: z.number().int(),
});

/** An upstream repository; its password is kept encrypted and never shown. */
export const virtualRegistryUpstream = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  url: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  username: z.string().nullable(),
  cache_validity_hours: z.number().int(),
  metadata_cache_validity_hours: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type VirtualRegistryUpstream = z.infer<typeof virtualRegistryUpstream>;

/** An upstream as a registry lists it: with its place there. */
export const virtualRegistryUpstreamInRegistry = virtualRegistryUpstream.extend({ registry_upstream: registryUpstreamLink });
export type VirtualRegistryUpstreamInRegistry = z.infer<typeof virtualRegistryUpstreamInRegistry>;

/** One upstream read by its id: its place in every registry that uses it. */
export const virtualRegistryUpstreamDetail = virtualRegistryUpstream.extend({ registry_upstreams: z.array(registryUpstreamLink) });
export type VirtualRegistryUpstreamDetail = z.infer<typeof virtualRegistryUpstreamDetail>;

/** The connection test's answer: `result` says why, when it failed. */
export const upstreamTestResult = z.object({ success: z.boolean(), result: z.string().optional() });
export type UpstreamTestResult = z.infer<typeof upstreamTestResult>;

const name = z.string().trim().min(1).max(255);
const description = z.string().max(1024);
/** An upstream's address: an http(s) URL of at most 255 characters. */
const upstreamUrl = z
  .string()
  .min(1, 'is empty')
  .max(255)
  .refine((v) => {
    // An empty one is the length check's to refuse.
    if (v === '') return true;
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'is not a valid http(s) URL');
const credential = z.string().min(1).max(510);
const cacheHours = intParam().pipe(z.number().int().min(0));
const metadataCacheHours = intParam().pipe(z.number().int().min(1));

const BOTH_OR_NEITHER = 'username, password provide all or none of parameters';
const bothOrNeither = (b: { username?: string; password?: string }, ctx: z.RefinementCtx) => {
  if ((b.username === undefined) !== (b.password === undefined)) ctx.addIssue({ code: 'custom', path: [], message: BOTH_OR_NEITHER });
};

export const virtualRegistryCreateBody = z.object({ name, description: description.optional() });
export type VirtualRegistryCreateBody = z.infer<typeof virtualRegistryCreateBody>;
/**
 * PATCH …/registries/:id: the spec requires the name. Its absence is the service's 400, after
 * the caller is known to be allowed (the registry's group decides, loaded after the body is read).
 */
export const virtualRegistryUpdateBody = z.object({ name: name.optional(), description: description.optional() });
export type VirtualRegistryUpdateBody = z.infer<typeof virtualRegistryUpdateBody>;

export const upstreamListQuery = paginationQuery.extend({ upstream_name: z.string().max(255).optional() });
export type UpstreamListQuery = z.infer<typeof upstreamListQuery>;

export const upstreamTestBody = z
  .object({ url: upstreamUrl, username: credential.optional(), password: credential.optional() })
  .superRefine(bothOrNeither);
export type UpstreamTestBody = z.infer<typeof upstreamTestBody>;

/** POST …/registries/:id/upstreams: the url is required, which the service says (as the registry's name above). */
export const upstreamCreateBody = z
  .object({
    url: upstreamUrl.optional(),
    username: credential.optional(),
    password: credential.optional(),
    name: name.optional(),
    description: description.optional(),
    cache_validity_hours: cacheHours.optional(),
    metadata_cache_validity_hours: metadataCacheHours.optional(),
  })
  .superRefine(bothOrNeither);
export type UpstreamCreateBody = z.infer<typeof upstreamCreateBody>;

/** PATCH …/upstreams/:id: any of these, at least one (the service says so); an empty url, name, username or password is refused. */
export const upstreamUpdateBody = z.object({
  url: upstreamUrl.optional(),
  name: name.optional(),
  description: description.optional(),
  username: credential.optional(),
  password: credential.optional(),
  cache_validity_hours: cacheHours.optional(),
  metadata_cache_validity_hours: metadataCacheHours.optional(),
});
export type UpstreamUpdateBody = z.infer<typeof upstreamUpdateBody>;

/**
 * PATCH …/registry_upstreams/:id: the upstream's new place in its registry, from 1 to 20; a place
 * past the last is the last (the platform's rule), and the upstreams between move by one.
 */
export const registryUpstreamPositionBody = z.object({
  // Required: its absence is the handler's 400, once the caller is known to be allowed (the place is loaded after the body is read).
  position: intParam()
    .pipe(z.number().int().min(1, 'does not have a valid value').max(MAX_UPSTREAMS_PER_REGISTRY, 'does not have a valid value'))
    .optional(),
});
export type RegistryUpstreamPositionBody = z.infer<typeof registryUpstreamPositionBody>;

/** An upstream's place in a registry as the platform's registry_upstreams endpoints answer it. */
export const registryUpstream = registryUpstreamLink.extend({ upstream_id: z.number().int() });
export type RegistryUpstream = z.infer<typeof registryUpstream>;

/** The console's reading of a registry's cache: entries and bytes in all, and per upstream (each of the registry's, in its order). */
export const registryCacheSummary = z.object({
  entries: z.number().int(),
  bytes: z.number().int(),
  upstreams: z.array(z.object({ upstream_id: z.number().int(), entries: z.number().int(), bytes: z.number().int() })),
});
export type RegistryCacheSummary = z.infer<typeof registryCacheSummary>;
