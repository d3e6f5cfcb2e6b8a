import type { Db } from '../../db/index.ts';
import { featureDefinitionOf, type FeatureFlagName, type FeatureSetBody } from '../../../../shared/src/features.ts';
import { badRequest } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { OPT_OUT, stateOf, storedFeature, type StoredFeature } from './features.ts';

/**
 * Setting a flag's gates (POST /features/:name) and removing it (DELETE), with the platform's
 * rules (Admin::SetFeatureFlagService): `true`/`100` and `false`/`0` turn a flag on or off for
 * everyone (every other gate goes, as Flipper clears them) or for the actors named; a number
 * is a percentage of time, or of actors with `key=percentage_of_actors`; `opt_out` and
 * `remove_opt_out` are for actors. Every actor is found and every rule checked before anything
 * is written, and the change is one transaction: a refused request leaves the flag as it was.
 */

/** An actor named in the request: its flipper id, and how the platform names it in messages. */
interface Target {
  flipperId: string;
  label: string;
}

type Change =
  | { kind: 'everyone'; on: boolean }
  | { kind: 'percentage'; column: 'percentage_of_actors' | 'percentage_of_time'; value: number }
  | { kind: 'actors'; add: string[]; remove: string[] };

const ENABLE = new Set(['100', '100.0', 'true']);
const DISABLE = new Set(['0', '0.0', 'false']);
const NUMERIC = /^\d+(\.\d+)?$/;
const refused = (reason: string) => badRequest(`400 Bad request - ${reason}`);
/** A value as the platform's messages quote it (Ruby's String#inspect). */
const quoted = (v: string) => JSON.stringify(v);

const listOf = (text: string | undefined) =>
  text === undefined
    ? []
    : text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
const notFoundTarget = (arg: string) => refused(`${arg} is not found!`);

/** The actors the request names, in the platform's order (users, projects, groups, namespaces); undefined when it names none. */
async function targetsOf(db: Db, body: FeatureSetBody): Promise<Target[] | undefined> {
  const named = ['feature_group', 'user', 'project', 'group', 'namespace', 'repository'] as const;
  if (!named.some((p) => body[p] !== undefined)) return undefined;
  if (body.feature_group !== undefined) throw refused('feature groups are not supported: no feature group is registered on this instance');
  if (body.repository !== undefined) throw refused('repository gates are not supported: Gatehouse reads its flags per user, group or project');
  const targets: Target[] = [];
  for (const arg of listOf(body.user)) {
    const user = await db.selectFrom('users').select(['id', 'username']).where((eb) => eb(eb.fn('lower', ['username']), '=', arg.toLowerCase())).executeTakeFirst();
    if (!user) throw notFoundTarget(arg);
    targets.push({ flipperId: `User:${user.id}`, label: `@${user.username}` });
  }
  for (const arg of listOf(body.project)) {
    const project = await db.selectFrom('projects').select(['id', 'path_with_namespace']).where((eb) => eb(eb.fn('lower', ['path_with_namespace']), '=', arg.toLowerCase())).executeTakeFirst();
    if (!project) throw notFoundTarget(arg);
    targets.push({ flipperId: `Project:${project.id}`, label: project.path_with_namespace });
  }
  // Groups are the only namespaces here (projects live in groups): a namespace gate is a group's.
  for (const arg of [...listOf(body.group), ...listOf(body.namespace)]) {
    const group = await db.selectFrom('groups').select(['id', 'full_path']).where((eb) => eb(eb.fn('lower', ['full_path']), '=', arg.toLowerCase())).executeTakeFirst();
    if (!group) throw notFoundTarget(arg);
    targets.push({ flipperId: `Group:${group.id}`, label: `@${group.full_path}` });
  }
  const seen = new Set<string>();
  return targets.filter((t) => !seen.has(t.flipperId) && seen.add(t.flipperId));
}

function percentage(value: string): number {
  if (!NUMERIC.test(value)) throw refused('Not a percentage');
  const n = Number(value);
  if (n > 100) throw refused(`value must be a positive number less than or equal to 100, but was ${value}`);
  return n;
}

/** What the value does to the actors named (the platform's update_targets). */
function forTargets(name: string, current: StoredFeature, targets: Target[], value: string): Change {
  const change = { kind: 'actors' as const, add: [] as string[], remove: [] as string[] };
  for (const t of targets) {
    const optOut = `${t.flipperId}${OPT_OUT}`;
    if (ENABLE.has(value)) {
      if (current.actors.includes(optOut)) throw refused(`Opt-out exists for ${t.label} - remove opt-out before enabling`);
      change.add.push(t.flipperId);
    } else if (DISABLE.has(value)) {
      change.remove.push(t.flipperId);
    } else if (value === 'opt_out') {
      change.add.push(optOut);
    } else if (value === 'remove_opt_out') {
      if (!current.actors.includes(optOut)) throw refused(`No opt-out exists for ${t.flipperId}`);
      change.remove.push(optOut);
    } else {
      throw refused(`Cannot set '${name}' to ${quoted(value)} for ${t.label}`);
    }
  }
  return change;
}

/** What the value does for everyone (the platform's update_global). */
function forEveryone(name: string, current: StoredFeature, value: string, key: string | undefined): Change {
  if (ENABLE.has(value)) return { kind: 'everyone', on: true };
  if (DISABLE.has(value)) return { kind: 'everyone', on: false };
  const column = key === 'percentage_of_actors' ? 'percentage_of_actors' : key === 'percentage_of_time' || (key === undefined && NUMERIC.test(value)) ? 'percentage_of_time' : undefined;
  if (!column) throw refused(key === undefined ? `Cannot set '${name}' to ${quoted(value)}` : `Cannot set '${name}' (${quoted(key)}) to ${quoted(value)}`);
  const share = percentage(value);
  if (stateOf(current) === 'on') throw refused(`Cannot enable percentage of ${column === 'percentage_of_actors' ? 'actors' : 'time'} for a fully-enabled flag`);
  return { kind: 'percentage', column, value: share };
}

async function apply(db: Db, name: string, change: Change): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    await trx
      .insertInto('features')
      .values({ name, boolean_value: 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ updated_at: now }))
      .execute();
    if (change.kind === 'everyone') {
      // Flipper clears every gate when a flag is turned on or off for everyone.
      await trx.deleteFrom('feature_actors').where('feature_name', '=', name).execute();
      await trx.updateTable('features').set({ boolean_value: change.on ? 1 : 0, percentage_of_actors: null, percentage_of_time: null }).where('name', '=', name).execute();
    } else if (change.kind === 'percentage') {
      await trx.updateTable('features').set({ [change.column]: change.value }).where('name', '=', name).execute();
    } else {
      if (change.remove.length) await trx.deleteFrom('feature_actors').where('feature_name', '=', name).where('actor', 'in', change.remove).execute();
      for (const actor of change.add) {
        await trx.insertInto('feature_actors').values({ feature_name: name, actor, created_at: now }).onConflict((oc) => oc.columns(['feature_name', 'actor']).doNothing()).execute();
      }
    }
  });
}

const unset = (name: string): StoredFeature => ({ name, boolean: false, percentageOfActors: null, percentageOfTime: null, actors: [] });

/** POST /features/:name: the flag's gates after the change. A name without a definition is refused unless `force`. */
export async function setFeature(db: Db, name: string, body: FeatureSetBody): Promise<StoredFeature> {
  if (!body.force && !featureDefinitionOf(name)) {
    throw refused(`the feature flag '${name}' has no definition: Gatehouse reads no such flag (GET /features/definitions lists those it does); send force=true to set it all the same`);
  }
  const targets = await targetsOf(db, body);
  const current = (await storedFeature(db, name)) ?? unset(name);
  // Actor parameters that name nobody (`user=,`) change nothing, as on the platform.
  if (targets?.length === 0) return current;
  await apply(db, name, targets ? forTargets(name, current, targets, body.value) : forEveryone(name, current, body.value, body.key));
  return (await storedFeature(db, name))!;
}

/** Turns a flag on or off for everyone (what the instance settings that stood in for flags still do). */
export const setForEveryone = (db: Db, name: FeatureFlagName, on: boolean) => apply(db, name, { kind: 'everyone', on });

/** DELETE /features/:name: the flag goes back to its default; nothing to do for one never set. */
export async function removeFeature(db: Db, name: string): Promise<void> {
  await db.deleteFrom('features').where('name', '=', name).execute();
}
