import type { Feature, FeatureDefinition, FeatureGate } from '../../../shared/src/features.ts';
import { stateOf, type StoredFeature } from '../services/instance/features.ts';

/**
 * A flag as the platform's Features API shows it (API::Entities::Feature): its state, its
 * gates (the boolean one always, the others only when set, in Flipper's order) and its
 * definition, null for a flag Gatehouse does not define.
 */
export function presentFeature(f: StoredFeature, definition: FeatureDefinition | null): Feature {
  const gates: FeatureGate[] = [{ key: 'boolean', value: f.boolean }];
  if (f.actors.length) gates.push({ key: 'actors', value: [...f.actors] });
  if (f.percentageOfActors) gates.push({ key: 'percentage_of_actors', value: f.percentageOfActors });
  if (f.percentageOfTime) gates.push({ key: 'percentage_of_time', value: f.percentageOfTime });
  return { name: f.name, state: stateOf(f), gates, definition };
}
