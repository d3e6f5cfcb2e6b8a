import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Vault } from '../../auth/vault.ts';
import { MAX_BODY_SIZE, type CodeCompletionBody, type ConnectionDetails, type DirectAccessDetails } from '../../../../shared/src/code-suggestions.ts';
import type { Actor } from '../../auth/actor.ts';
import { forbidden, notFound, serviceUnavailable, tooLarge, tooManyRequests } from '../../util/errors.ts';
import { canProject } from '../../policies/index.ts';
import { projectAccessLevel } from '../../policies/access.ts';
import { findProject } from '../groups/projects.ts';
import { hit } from '../rate-limits.ts';
import { signJwt } from '../registry/signing.ts';
import { VERSION } from '../instance/instance.ts';
import { instanceId, instanceKey } from './instance-key.ts';
import { upstreamClient } from '../../outbound/upstream-lazy.ts';

/** The gateway Gatehouse proxies completions to; undefined when none is configured. */
export type Gateway = { url: string; timeoutMs: number } | undefined;

/** Who is asking, as the gateway is told (the X-Service-* headers, the tokens' claims). */
export interface Caller {
  user: UserRow;
  /** The instance's address, whose host name is the gateway's `X-Service-Host-Name`. */
  baseUrl: string;
}

/** The audience of the tokens Gatehouse signs for the gateway. */
export const GATEWAY_AUDIENCE = 'gitlab-ai-gateway';
/** How long a token for the gateway lasts: one hour, the most the platform gives. */
export const TOKEN_SECONDS = 60 * 60;
const REALM = 'self-managed';

/** Per user and minute, as the platform limits them (completions' limit is configured). */
const MINUTE_MS = 60_000;
export const DIRECT_ACCESS_PER_MINUTE = 50;
export const CONNECTION_DETAILS_PER_MINUTE = 10;
const TOO_MANY = 'This endpoint has been requested too many times. Try again later.';

/** Counts one request of `user` to `endpoint`; past `perMinute`, the platform's 429. */
export async function limit(db: Db, endpoint: string, userId: number, perMinute: number): Promise<void> {
  const { count, retryAfterSeconds } = await hit(db, `code_suggestions_${endpoint}:${userId}`, MINUTE_MS, 1);
  if (count > perMinute) throw tooManyRequests(retryAfterSeconds, TOO_MANY);
}

/** The configured gateway; without one, the 503 every route here answers first (before a request is counted against a limit). */
export function requireGateway(gateway: Gateway): NonNullable<Gateway> {
  if (!gateway) throw serviceUnavailable('AI gateway is not configured');
  return gateway;
}

interface Identity {
  instanceId: string;
  globalUserId: string;
  hostName: string;
}

async function identityOf(db: Db, caller: Caller): Promise<Identity> {
  const id = await instanceId(db);
  // An id for the user that names them to the gateway without naming them (no username, no row id).
  const globalUserId = crypto.createHash('sha256').update(`${id}:user:${caller.user.id}`).digest('base64url').slice(0, 32);
  return { instanceId: id, globalUserId, hostName: new URL(caller.baseUrl).hostname };
}

function serviceHeaders(who: Identity): DirectAccessDetails['headers'] {
  return {
    'X-Service-Instance-Id': who.instanceId,
    'X-Service-Realm': REALM,
    'X-Service-Global-User-Id': who.globalUserId,
    'X-Service-Host-Name': who.hostName,
  };
}

/** A token for the gateway, signed RS256 by the installation's key, lasting one hour. */
async function gatewayToken(db: Db, vault: Vault, caller: Caller, who: Identity, subject: string, at = Date.now()) {
  const key = await instanceKey(db, vault);
  const now = Math.floor(at / 1000);
  const exp = now + TOKEN_SECONDS;
  const claims = {
    iss: caller.baseUrl,
    aud: GATEWAY_AUDIENCE,
    sub: subject,
    iat: now,
    nbf: now - 5,
    exp,
    jti: crypto.randomUUID(),
    gitlab_realm: REALM,
    gitlab_instance_id: who.instanceId,
    scopes: ['code_suggestions'],
  };
  return { token: signJwt(claims, key), expiresAt: exp };
}

/** Gatehouse's own token for its calls to the gateway, by issuer: the same for every caller (its subject is the instance). */
const ownTokens = new Map<string, { token: string; expiresAt: number }>();
/** A token is signed again once it has less than this left (signing one costs about 0.5 ms of CPU, a quarter of a completion's). */
const OWN_TOKEN_RENEW_SECONDS = 5 * 60;

async function ownToken(db: Db, vault: Vault, caller: Caller, who: Identity): Promise<string> {
  const key = `${who.instanceId} ${caller.baseUrl}`;
  const kept = ownTokens.get(key);
  if (kept && kept.expiresAt - Date.now() / 1000 > OWN_TOKEN_RENEW_SECONDS) return kept.token;
  const fresh = await gatewayToken(db, vault, caller, who, who.instanceId);
  // The issuer is the address the request came in by: a few per installation, never unbounded.
  if (ownTokens.size >= 64) ownTokens.clear();
  ownTokens.set(key, fresh);
  return fresh.token;
}

export interface GatewayAnswer {
  status: number;
  contentType: string;
  body: Readable;
}

/**
 * One completion: the prompt parts sent to the gateway with Gatehouse's own token (the caller's
 * credential never leaves), its answer handed back as it arrives. A gateway that cannot be
 * reached or does not answer within the timeout is a 503, never a wait.
 */
export async function complete(db: Db, vault: Vault, configured: Gateway, caller: Caller, body: CodeCompletionBody): Promise<GatewayAnswer> {
  const gateway = requireGateway(configured);
  const who = await identityOf(db, caller);
  const token = await ownToken(db, vault, caller, who);
  const generation = body.intent === 'generation';
  const prompt = {
    prompt_version: 1,
    project_path: body.project_path,
    current_file: { content_below_cursor: '', ...body.current_file },
    intent: body.intent,
    generation_type: body.generation_type,
    stream: body.stream ?? false,
    context: body.context,
    user_instruction: body.user_instruction,
  };
  // The whole prompt is bounded as the platform bounds it (each part alone may be within its own limit).
  const sent = JSON.stringify(prompt);
  if (sent.length > MAX_BODY_SIZE) throw tooLarge();
  const { upstreamRequest, UpstreamUnreachable } = await upstreamClient();
  try {
    const answer = await upstreamRequest({
      url: `${gateway.url}/v2/code/${generation ? 'generations' : 'completions'}`,
      method: 'POST',
      body: sent,
      authorization: `Bearer ${token}`,
      headers: { 'Content-Type': 'application/json', 'X-Gitlab-Authentication-Type': 'oidc', ...serviceHeaders(who) },
      // The operator named the gateway; it may be on the local network. Nothing redirects a POST elsewhere.
      allowLocal: true,
      timeoutMs: gateway.timeoutMs,
    });
    return { status: answer.status, contentType: answer.headers['content-type'] ?? 'application/json', body: answer.body };
  } catch (e) {
    if (e instanceof UpstreamUnreachable) throw serviceUnavailable(e.timedOut ? 'AI gateway did not answer in time' : 'AI gateway cannot be reached');
    throw e;
  }
}

/** The gateway's address, a token of one hour and the headers an IDE sends to call it directly. */
export async function directAccess(db: Db, vault: Vault, configured: Gateway, caller: Caller): Promise<DirectAccessDetails> {
  const gateway = requireGateway(configured);
  const who = await identityOf(db, caller);
  const { token, expiresAt } = await gatewayToken(db, vault, caller, who, who.globalUserId);
  return { base_url: gateway.url, token, expires_at: expiresAt, headers: serviceHeaders(who) };
}

/** What a client reports its telemetry with. */
export async function connectionDetails(db: Db, caller: Caller): Promise<ConnectionDetails> {
  const who = await identityOf(db, caller);
  return {
    instance_id: who.instanceId,
    instance_version: VERSION,
    realm: REALM,
    global_user_id: who.globalUserId,
    host_name: who.hostName,
    feature_enablement_type: 'instance',
    saas_ai_pro_namespace_ids: '',
  };
}

/** The public half of the installation's key, as a JSON Web Key Set. */
export async function keySet(db: Db, vault: Vault) {
  const key = await instanceKey(db, vault);
  return { keys: [key.jwk] };
}

/**
 * Whether code suggestions are on for the project at `path`: 404 for an empty path and for a
 * project that does not exist or the caller cannot see, 403 when they are off (no gateway, or
 * the project's group has AI features switched off), nothing to say otherwise.
 */
export async function checkEnabled(db: Db, actor: Actor, configured: Gateway, path: string): Promise<void> {
  const found = path.includes('/') ? await findProject(db, path) : undefined;
  const level = found ? await projectAccessLevel(db, actor.user?.id, found.project, found.group) : 0;
  if (!found || !canProject(actor, 'read_project', { ...found, level })) throw notFound();
  if (!configured || !found.group.ai_features_enabled) throw forbidden();
}
