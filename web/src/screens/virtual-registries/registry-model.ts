import type { FieldPath, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  MAX_UPSTREAMS_PER_REGISTRY,
  upstreamCreateBody,
  upstreamUpdateBody,
  virtualRegistryCreateBody,
  type UpstreamCreateBody,
  type UpstreamTestResult,
  type UpstreamUpdateBody,
  type VirtualRegistry,
  type VirtualRegistryUpstream,
} from '../../../../shared/src/virtual-registries.ts';
import type { FieldErrors } from '../../api/client.ts';

/*
 * What the Virtual registries screen works out without React: the pull-through's address and
 * the settings.xml that points Maven at it, the connection test's answer in plain words, and the
 * upstream form's values, checks (the shared body schemas) and bodies.
 */

/** Where Maven asks the registry for files: the platform's pull-through endpoint. */
export const pullThroughUrl = (origin: string, registryId: number) => `${origin}/api/v4/virtual_registries/packages/maven/${registryId}`;

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The placeholder the user replaces with a token of their own: the console never holds one. */
export const TOKEN_PLACEHOLDER = '<your personal access token>';

/**
 * The settings.xml that sends every repository Maven asks through the registry (a mirror of
 * `*`), signed in with Basic credentials: the user's name, a personal access token as the password.
 */
export function mavenSettings(registry: Pick<VirtualRegistry, 'id' | 'name'>, url: string, username: string): string {
  const serverId = `gatehouse-registry-${registry.id}`;
  return [
    '<settings>',
    '  <mirrors>',
    '    <mirror>',
    `      <id>${serverId}</id>`,
    `      <name>${xmlText(registry.name)}</name>`,
    `      <url>${xmlText(url)}</url>`,
    '      <mirrorOf>*</mirrorOf>',
    '    </mirror>',
    '  </mirrors>',
    '  <servers>',
    '    <server>',
    `      <id>${serverId}</id>`,
    `      <username>${xmlText(username)}</username>`,
    `      <password>${TOKEN_PLACEHOLDER}</password>`,
    '    </server>',
    '  </servers>',
    '</settings>',
  ].join('\n');
}

export interface ConnectionVerdict {
  ok: boolean;
  /** One sentence for the user. */
  text: string;
  /** The server's own reason, when it failed. */
  detail?: string;
}

/** The connection test's answer (`Error: 401 - Unauthorized`, `Error: ECONNREFUSED: …`) in plain words. */
export function connectionVerdict(name: string, result: UpstreamTestResult, signsIn: boolean): ConnectionVerdict {
  if (result.success) return { ok: true, text: `${name} answered: Gatehouse can reach it${signsIn ? ' and sign in with these credentials' : ' anonymously'}.` };
  const detail = result.result ?? 'no reason given';
  const reason = detail.replace(/^Error:\s*/, '');
  const status = /^(\d{3}|5XX)\b/.exec(reason)?.[1];
  let text: string;
  if (status === '401') text = `${name} refused the credentials (401): check the username and password.`;
  else if (status === '403') text = `${name} refused access (403): the account may not read this repository.`;
  else if (status?.startsWith('5')) text = `${name} failed on its side (${status}): it may be down or overloaded; try again later.`;
  else if (status) text = `${name} answered ${status}, which is not a repository’s answer: check the URL.`;
  else if (/ECONNREFUSED/.test(reason)) text = `${name} could not be reached: nothing answers at that address and port.`;
  else if (/ENOTFOUND|EAI_AGAIN/.test(reason)) text = `${name} could not be reached: its host name is unknown.`;
  else if (/timeout/i.test(reason)) text = `${name} did not answer in time.`;
  else if (/blocked|local network|not allowed/i.test(reason)) text = `Gatehouse may not reach ${name}’s address: ${reason}.`;
  else text = `${name} could not be reached: ${reason}.`;
  return { ok: false, text, detail };
}

/** The upstream form: every field a string as typed. */
export interface UpstreamFormValues {
  url: string;
  name: string;
  description: string;
  username: string;
  password: string;
  cache_validity_hours: string;
  metadata_cache_validity_hours: string;
}
export const UPSTREAM_FIELDS = ['url', 'name', 'description', 'username', 'password', 'cache_validity_hours', 'metadata_cache_validity_hours'] as const satisfies readonly (keyof UpstreamFormValues)[];

export function upstreamFormValues(upstream: VirtualRegistryUpstream | null): UpstreamFormValues {
  return {
    url: upstream?.url ?? '',
    name: upstream?.name ?? '',
    description: upstream?.description ?? '',
    username: upstream?.username ?? '',
    // Never shown: empty keeps the saved one.
    password: '',
    cache_validity_hours: String(upstream?.cache_validity_hours ?? 24),
    metadata_cache_validity_hours: String(upstream?.metadata_cache_validity_hours ?? 24),
  };
}

const hours = (v: string) => (v.trim() === '' ? undefined : /^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim());

/** A new upstream's body: what is filled in (the name defaults to the URL's host on the server). */
export function createBodyOf(v: UpstreamFormValues): UpstreamCreateBody {
  const body: Record<string, unknown> = { url: v.url.trim() };
  if (v.name.trim()) body.name = v.name.trim();
  if (v.description.trim()) body.description = v.description.trim();
  if (v.username !== '' || v.password !== '') Object.assign(body, { username: v.username, password: v.password });
  body.cache_validity_hours = hours(v.cache_validity_hours);
  body.metadata_cache_validity_hours = hours(v.metadata_cache_validity_hours);
  return body as UpstreamCreateBody;
}

/** An edit's body: only what changed; an empty password keeps the saved one. */
export function updateBodyOf(v: UpstreamFormValues, upstream: VirtualRegistryUpstream): UpstreamUpdateBody {
  const was = upstreamFormValues(upstream);
  const body: Record<string, unknown> = {};
  if (v.url.trim() !== was.url) body.url = v.url.trim();
  if (v.name.trim() !== was.name) body.name = v.name.trim();
  if (v.description.trim() !== was.description) body.description = v.description.trim();
  if (v.username !== was.username) body.username = v.username;
  if (v.password !== '') body.password = v.password;
  for (const key of ['cache_validity_hours', 'metadata_cache_validity_hours'] as const) if (v[key].trim() !== was[key]) body[key] = hours(v[key]);
  return body as UpstreamUpdateBody;
}

const BOTH_OR_NEITHER = 'Fill in both the username and the password, or neither (anonymous).';

/** Problems by field, from the shared body schema (and what the form adds: a URL is required, credentials set stay set). */
export function upstreamProblems(v: UpstreamFormValues, upstream: VirtualRegistryUpstream | null): Partial<Record<keyof UpstreamFormValues, string>> {
  const out: Partial<Record<keyof UpstreamFormValues, string>> = {};
  if (v.url.trim() === '') out.url = "can't be blank";
  if (upstream?.username && v.username === '') out.username = 'can be changed but not removed: delete the upstream and add it again to reach it anonymously';
  // A username needs a password: typed, or (an edit) the saved one, which an anonymous upstream has not.
  if (v.username === '' && v.password !== '') out.username ??= BOTH_OR_NEITHER;
  if (v.username !== '' && v.password === '' && !upstream?.username) out.password ??= BOTH_OR_NEITHER;
  const parsed = upstream ? upstreamUpdateBody.safeParse(updateBodyOf(v, upstream)) : upstreamCreateBody.safeParse(createBodyOf(v));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof UpstreamFormValues | undefined;
      if (field === undefined) out.password ??= BOTH_OR_NEITHER;
      else out[field] ??= issue.message;
    }
  }
  return out;
}

/** The form's resolver: the problems above, under their fields. */
export const upstreamResolver =
  (upstream: VirtualRegistryUpstream | null): Resolver<UpstreamFormValues> =>
  async (values) => {
    const problems = upstreamProblems(values, upstream);
    const keys = Object.keys(problems) as (keyof UpstreamFormValues)[];
    if (!keys.length) return { values, errors: {} };
    return { values: {}, errors: Object.fromEntries(keys.map((k) => [k, { type: 'validate', message: problems[k] }])) };
  };

export const upstreamFieldOf = (path: string): FieldPath<UpstreamFormValues> | null => UPSTREAM_FIELDS.find((f) => f === path) ?? null;

/** What a refusal says of what no field shows, in words for the dialog. */
export function otherProblems(errors: FieldErrors): string[] {
  return Object.entries(errors)
    .filter(([path]) => upstreamFieldOf(path) === null)
    .map(([path, messages]) =>
      path === 'group'
        ? `This group ${messages.join(', ')}.`
        : path === 'registry_upstreams.position'
          ? `This registry already has the most upstreams it may have (${MAX_UPSTREAMS_PER_REGISTRY}).`
          : `${path}: ${messages.join(', ')}`,
    );
}

/** The registry form's values: the shared create body. */
export type RegistryFormValues = z.input<typeof virtualRegistryCreateBody>;

/** An upstream's cache validity, as the table says it. */
export const validityText = (u: Pick<VirtualRegistryUpstream, 'cache_validity_hours' | 'metadata_cache_validity_hours'>) =>
  `${u.cache_validity_hours === 0 ? 'Files: always asked again' : `Files ${u.cache_validity_hours} h`} · metadata ${u.metadata_cache_validity_hours} h`;
