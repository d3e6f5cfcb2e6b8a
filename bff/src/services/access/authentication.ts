import { prepared, tableChangesOf, type Db } from '../../db/index.ts';
import type { TokenRow, UserRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import { safeEqual, tokenDigest } from '../../auth/secrets.ts';
import { nowIso, today } from '../../util/time.ts';
import { json } from '../../util/rows.ts';

export type TokenProblem = 'unknown' | 'revoked' | 'expired' | 'user_blocked';

/** The token's columns, read as `token_<column>` beside its user's (the two tables share names such as id). */
const TOKEN_COLUMNS = [
  'id',
  'user_id',
  'name',
  'description',
  'scopes',
  'token_digest',
  'expires_at',
  'revoked',
  'last_used_at',
  'created_at',
  'previous_token_id',
  'family_id',
] as const satisfies readonly (keyof TokenRow)[];
// Every column of the table is listed: a new one fails the type check here until it is.
const _everyTokenColumn: [Exclude<keyof TokenRow, (typeof TOKEN_COLUMNS)[number]>] extends [never] ? true : never = true;
const PREFIX = 'token_';

const tokenWithUser = prepared((db, v: { digest: string }) =>
  db
    .selectFrom('personal_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select(TOKEN_COLUMNS.map((c) => `t.${c} as ${PREFIX}${c}` as const))
    .where('t.token_digest', '=', v.digest),
);

/**
 * Resolves a plaintext access token to its actor, or says why it cannot be used. One query
 * reads the token with its user: this runs on every API call made with a token. On
 * PostgreSQL, where that query is a round trip, the lookups found are kept while the
 * database's change notices say they still hold (see lookups below).
 */
export async function actorForToken(db: Db, plaintext: string): Promise<Actor | TokenProblem> {
  const digest = tokenDigest(plaintext);
  const found = await lookup(db, digest);
  if (!found) return 'unknown';
  const { user, token } = found;
  // The lookup is by digest; comparing the digests again in constant time costs nothing.
  if (!safeEqual(token.token_digest, digest)) return 'unknown';
  if (token.revoked) return 'revoked';
  if (token.expires_at !== null && token.expires_at <= today()) return 'expired';
  if (user.state !== 'active') return 'user_blocked';
  await touchToken(db, token);
  return { user, via: 'token', token, scopes: found.scopes };
}

interface Lookup {
  user: UserRow;
  token: TokenRow;
  scopes: string[];
}

/**
 * Token lookups kept by digest, per database, with the generation of users and tokens they
 * were read under (db/table-changes.ts): one is used only while no change to a user or a token
 * has been heard since, and kept only when none was heard while it was read. At most
 * MAX_KEPT, the oldest going first; none on SQLite, whose lookup costs less than keeping it
 * would. Not a kept read of `prepared`: the token kept here learns its mark of use
 * (touchToken), which sends no notice.
 */
const lookups = new WeakMap<Db, Map<string, { lookup: Lookup; generation: number }>>();
const MAX_KEPT = 10_000;
const AUTH_TABLES = ['users', 'personal_access_tokens'];

async function lookup(db: Db, digest: string): Promise<Lookup | undefined> {
  const changes = tableChangesOf(db);
  const generation = changes?.generationOf(AUTH_TABLES);
  const kept = generation === undefined ? undefined : lookups.get(db)?.get(digest);
  if (kept && kept.generation === generation) return kept.lookup;
  const [row] = await tokenWithUser(db, { digest });
  if (!row) return undefined;
  const { user, token } = split(row);
  const found: Lookup = { user: Object.freeze(user), token, scopes: Object.freeze(json<string[]>(token.scopes, [])) as string[] };
  if (generation !== undefined && changes!.generationOf(AUTH_TABLES) === generation) {
    let map = lookups.get(db);
    if (!map) lookups.set(db, (map = new Map()));
    map.delete(digest);
    if (map.size >= MAX_KEPT) map.delete(map.keys().next().value!);
    map.set(digest, { lookup: found, generation });
  }
  return found;
}

/**
 * The joined row as the user's row and the token's (its `token_` columns, unprefixed), by a
 * function compiled for the row's columns (the same on every call: one hidden class per
 * object, no walk over seventy entries per request).
 */
function split(row: object): { user: UserRow; token: TokenRow } {
  const keys = Object.keys(row);
  if (splitter?.width !== keys.length) splitter = compileSplit(keys);
  return splitter.fn(row) as { user: UserRow; token: TokenRow };
}
let splitter: { width: number; fn: (row: object) => unknown } | undefined;
function compileSplit(keys: string[]) {
  const field = (k: string) => `${JSON.stringify(k.startsWith(PREFIX) ? k.slice(PREFIX.length) : k)}: r[${JSON.stringify(k)}]`;
  const user = keys.filter((k) => !k.startsWith(PREFIX)).map(field);
  const token = keys.filter((k) => k.startsWith(PREFIX)).map(field);
  return { width: keys.length, fn: new Function('r', `return { user: { ${user.join(', ')} }, token: { ${token.join(', ')} } };`) as (row: object) => unknown };
}

/**
 * last_used_at is kept to the minute: one write per token per minute at most. A kept lookup's
 * token learns the new time too (this write sends no change notice: it changes no decision).
 */
async function touchToken(db: Db, token: TokenRow): Promise<void> {
  const now = nowIso();
  if (token.last_used_at && Date.parse(now) - Date.parse(token.last_used_at) < 60_000) return;
  token.last_used_at = now;
  await db.updateTable('personal_access_tokens').set({ last_used_at: now }).where('id', '=', token.id).execute();
}
