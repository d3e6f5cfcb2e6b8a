import type { Db } from '../../db/index.ts';
import { FEATURE_DEFINITIONS, featureDefinitionOf, type ConsoleFeature, type FeatureActor } from '../../../../shared/src/features.ts';
import { defaultOf, defaultSourceOf, OPT_OUT, presentedDefinition, stateOf, storedFeatures, type StoredFeature } from './features.ts';

/**
 * The console's Feature flags screen in one read: every flag Gatehouse defines, set or not,
 * then any flag set without a definition (with `force`), each with its default and where that
 * comes from, its gates, and its actors named as people know them (`@alice`, `acme/web`).
 */

const FLIPPER_ID = /^(User|Group|Project):(\d+)(:opt_out)?$/;
const KIND = { User: 'user', Group: 'group', Project: 'project' } as const;

/** Usernames and full paths of the actors the flags name, by flipper id (without the opt-out). */
async function actorLabels(db: Db, features: StoredFeature[]): Promise<Map<string, string>> {
  const ids = { User: new Set<number>(), Group: new Set<number>(), Project: new Set<number>() };
  for (const actor of features.flatMap((f) => f.actors)) {
    const m = FLIPPER_ID.exec(actor);
    if (m) ids[m[1] as keyof typeof ids].add(Number(m[2]));
  }
  const labels = new Map<string, string>();
  const [users, groups, projects] = await Promise.all([
    ids.User.size ? db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...ids.User]).execute() : [],
    ids.Group.size ? db.selectFrom('groups').select(['id', 'full_path']).where('id', 'in', [...ids.Group]).execute() : [],
    ids.Project.size ? db.selectFrom('projects').select(['id', 'path_with_namespace']).where('id', 'in', [...ids.Project]).execute() : [],
  ]);
  for (const u of users) labels.set(`User:${u.id}`, `@${u.username}`);
  for (const g of groups) labels.set(`Group:${g.id}`, g.full_path);
  for (const p of projects) labels.set(`Project:${p.id}`, p.path_with_namespace);
  return labels;
}

function actorView(flipperId: string, labels: Map<string, string>): FeatureActor {
  const m = FLIPPER_ID.exec(flipperId);
  if (!m) return { flipper_id: flipperId, kind: 'other', label: null, opt_out: flipperId.endsWith(OPT_OUT) };
  return { flipper_id: flipperId, kind: KIND[m[1] as keyof typeof KIND], label: labels.get(`${m[1]}:${m[2]}`) ?? null, opt_out: m[3] !== undefined };
}

export async function consoleFeatures(db: Db): Promise<ConsoleFeature[]> {
  const persisted = await storedFeatures(db);
  const byName = new Map(persisted.map((f) => [f.name, f]));
  const labels = await actorLabels(db, persisted);
  const names = [...FEATURE_DEFINITIONS.map((d) => d.name).sort(), ...persisted.filter((f) => !featureDefinitionOf(f.name)).map((f) => f.name)];
  return names.map((name) => {
    const d = featureDefinitionOf(name);
    const f = byName.get(name);
    return {
      name,
      description: d?.description ?? null,
      read_for: d ? [...d.read_for] : [],
      definition: presentedDefinition(db, name),
      default_from: defaultSourceOf(name),
      persisted: f !== undefined,
      state: f ? stateOf(f) : defaultOf(db, name) ? 'on' : 'off',
      on_for_everyone: f ? stateOf(f) === 'on' : defaultOf(db, name),
      percentage_of_time: f?.percentageOfTime || null,
      percentage_of_actors: f?.percentageOfActors || null,
      actors: (f?.actors ?? []).map((a) => actorView(a, labels)),
    };
  });
}
