import zlib from 'node:zlib';
import { prepared, type Db } from '../../db/index.ts';
import type { Config } from '../../config.ts';
import { FEATURE_DEFINITIONS, featureDefinitionOf, type FeatureDefinition, type FeatureFlagName } from '../../../../shared/src/features.ts';

/**
 * The flags service: every place that depends on a feature flag asks it here, for everyone or
 * for an actor (the platform's `Feature.enabled?(:name, project)`). Flags live in the database
 * (`features`, `feature_actors`), so every instance sees a change: on PostgreSQL a flag's read
 * is kept while neither table changed (db/table-changes.ts: the triggers of migration 028 tell
 * every instance), and read again after any write, wherever it was made.
 *
 * A flag never set has its definition's default, or its environment variable's
 * (GATEHOUSE_VULNERABILITIES_PDF_EXPORT). Once set it is decided by its gates, as Flipper
 * decides: on for everyone (boolean), for an actor named (actors), for a share of actors or
 * of calls (percentages); an actor's opt-out (`User:3:opt_out`) turns it off for them.
 */

/** Whom a flag is read for. */
export interface FlagActor {
  kind: 'user' | 'group' | 'project';
  id: number;
}

const FLIPPER_TYPE = { user: 'User', group: 'Group', project: 'Project' } as const;
export const flipperIdOf = (actor: FlagActor) => `${FLIPPER_TYPE[actor.kind]}:${actor.id}`;
export const OPT_OUT = ':opt_out';

/** A flag as stored once set: its gates. */
export interface StoredFeature {
  name: string;
  boolean: boolean;
  percentageOfActors: number | null;
  percentageOfTime: number | null;
  /** Flipper ids, in the order they were added. */
  actors: string[];
}

// ─── defaults ──────────────────────────────────────────────────────────────────────────

/** The defaults an instance's environment gives (per database: each server opens its own). */
const environmentDefaults = new WeakMap<Db, Partial<Record<FeatureFlagName, boolean>>>();

/** Called once the server opened its database: the environment variables become the flags' defaults. */
export function useEnvironmentDefaults(db: Db, config: Pick<Config, 'vulnerabilitiesPdfExport'>): void {
  environmentDefaults.set(db, { vulnerabilities_pdf_export: config.vulnerabilitiesPdfExport });
}

/** A flag's state when it was never set (or reset): the environment's value, else its definition's; false for an unknown name. */
export function defaultOf(db: Db, name: string): boolean {
  const fromEnvironment = environmentDefaults.get(db)?.[name as FeatureFlagName];
  return fromEnvironment ?? featureDefinitionOf(name)?.default_enabled ?? false;
}

/** Where a flag's default comes from, as the console shows it: the environment variable that sets it, else its definition. */
export const defaultSourceOf = (name: string): string => featureDefinitionOf(name)?.env ?? 'definition';

/** A definition as the platform shows it, its default the one that applies here. */
export function presentedDefinition(db: Db, name: string): FeatureDefinition | null {
  const d = featureDefinitionOf(name);
  if (!d) return null;
  return {
    name: d.name,
    feature_issue_url: d.feature_issue_url,
    introduced_by_url: d.introduced_by_url,
    rollout_issue_url: d.rollout_issue_url,
    milestone: d.milestone,
    log_state_changes: d.log_state_changes,
    type: d.type,
    group: d.group,
    default_enabled: defaultOf(db, d.name),
  };
}

export const definitions = (db: Db): FeatureDefinition[] =>
  [...FEATURE_DEFINITIONS].sort((a, b) => a.name.localeCompare(b.name)).map((d) => presentedDefinition(db, d.name)!);

// ─── reads ─────────────────────────────────────────────────────────────────────────────

/** One flag with its actors (a row per actor, or one without), kept on PostgreSQL while neither table changed. */
const flagRows = prepared(
  (db, v: { name: string }) =>
    db
      .selectFrom('features as f')
      .leftJoin('feature_actors as a', 'a.feature_name', 'f.name')
      .select(['f.name', 'f.boolean_value', 'f.percentage_of_actors', 'f.percentage_of_time', 'a.actor'])
      .where('f.name', '=', v.name)
      .orderBy('a.id'),
  { keep: true },
);

type FlagRow = Awaited<ReturnType<typeof flagRows>>[number];

function stored(rows: readonly FlagRow[]): StoredFeature | undefined {
  const [first] = rows;
  if (!first) return undefined;
  const actors = rows.flatMap((r) => (r.actor === null ? [] : [r.actor]));
  return {
    name: first.name,
    boolean: first.boolean_value === 1,
    percentageOfActors: first.percentage_of_actors,
    percentageOfTime: first.percentage_of_time,
    actors,
  };
}

/** The flag's gates if it was set; undefined while its default applies. */
export async function storedFeature(db: Db, name: string): Promise<StoredFeature | undefined> {
  return stored(await flagRows(db, { name }));
}

/** Every flag that was set (the platform's `Feature.all`), by name. */
export async function storedFeatures(db: Db): Promise<StoredFeature[]> {
  const [features, actors] = await Promise.all([
    db.selectFrom('features').selectAll().orderBy('name').execute(),
    db.selectFrom('feature_actors').selectAll().orderBy('id').execute(),
  ]);
  return features.map((f) => ({
    name: f.name,
    boolean: f.boolean_value === 1,
    percentageOfActors: f.percentage_of_actors,
    percentageOfTime: f.percentage_of_time,
    actors: actors.filter((a) => a.feature_name === f.name).map((a) => a.actor),
  }));
}

// ─── decisions ─────────────────────────────────────────────────────────────────────────

/** Flipper's bucket of an actor for a flag: the same actor always falls in the same share. */
export const actorBucket = (name: string, flipperId: string) => zlib.crc32(`${name}${flipperId}`) % 100_000;

/** Whether the gates turn the flag on for this actor (none: for a call that names nobody). */
export function openFor(f: StoredFeature, actor?: FlagActor, random: () => number = Math.random): boolean {
  const id = actor && flipperIdOf(actor);
  let on = f.boolean || (id !== undefined && f.actors.includes(id));
  if (!on && id !== undefined && f.percentageOfActors) on = actorBucket(f.name, id) < f.percentageOfActors * 1000;
  if (!on && f.percentageOfTime) on = random() * 100 < f.percentageOfTime;
  return on && !(id !== undefined && f.actors.includes(`${id}${OPT_OUT}`));
}

/** The state Flipper reports: on for everyone, off, or conditional (on for some actors or some of the time). */
export function stateOf(f: StoredFeature): 'on' | 'off' | 'conditional' {
  if (f.boolean || f.percentageOfTime === 100) return 'on';
  return f.actors.length || f.percentageOfActors || f.percentageOfTime ? 'conditional' : 'off';
}

export const flags = {
  /** `Feature.enabled?(:name, actor)`: the default while the flag is not set, else what its gates say for the actor. */
  async enabled(db: Db, name: FeatureFlagName, actor?: FlagActor): Promise<boolean> {
    const f = await storedFeature(db, name);
    return f ? openFor(f, actor) : defaultOf(db, name);
  },
  /** On for everyone, leaving actors and chance aside: the default, or the boolean gate once set (what a switch for everyone shows). */
  async onForEveryone(db: Db, name: FeatureFlagName): Promise<boolean> {
    const f = await storedFeature(db, name);
    return f ? stateOf(f) === 'on' : defaultOf(db, name);
  },
};
