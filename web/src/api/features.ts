import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeatureActorGateInput } from '../../../shared/src/features.ts';
import { consoleApi, data, v4, type MutationOptions } from './client.ts';
import { exportsKeys } from './exports.ts';

export const featuresKeys = {
  all: ['features'] as const,
  list: () => [...featuresKeys.all, 'list'] as const,
};

/** The admin area's view of the flags (GET /api/console/feature_flags): each flag's default, state, gates and named actors. */
export function useFeatureFlags() {
  return useQuery({
    queryKey: featuresKeys.list(),
    queryFn: ({ signal }) => data(consoleApi.GET('/feature_flags', { signal })),
  });
}

/** A change of a flag through the platform's Features API: for everyone (`value` alone) or for one actor. */
export type FeatureChange = { value: 'true' | 'false' | 'opt_out' | 'remove_opt_out' } & Partial<Record<FeatureActorGateInput['kind'], string>>;

/** What a flag changes: where the console shows its effect (the Exports screens ask whether PDF is on). */
const invalidate = (qc: ReturnType<typeof useQueryClient>) =>
  Promise.all([qc.invalidateQueries({ queryKey: featuresKeys.all }), qc.invalidateQueries({ queryKey: exportsKeys.all })]);

/** POST /features/:name, one change after another (an opt-out of a flag that is on by default first turns it on for everyone). */
export function useSetFeature(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: async ({ name, changes }: { name: string; changes: FeatureChange[] }) => {
      for (const body of changes) await data(v4.POST('/features/{name}', { params: { path: { name } }, body }));
    },
    onSettled: () => invalidate(qc),
  });
}

/** DELETE /features/:name: the flag has its default again. */
export function useResetFeature(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (name: string) => data(v4.DELETE('/features/{name}', { params: { path: { name } } })),
    onSettled: () => invalidate(qc),
  });
}
