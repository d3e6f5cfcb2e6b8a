import { useQuery } from '@tanstack/react-query';
import type { Label } from '../../../shared/src/labels.ts';
import { data, v4 } from './client.ts';

export type LabelsOwner = { scope: 'groups' | 'projects'; id: number };

export const labelsKeys = {
  all: ['labels'] as const,
  of: (o: LabelsOwner) => [...labelsKeys.all, o.scope, o.id] as const,
};

/**
 * The labels usable in a project (its own and its groups') or a group (its own and its
 * ancestors'): their colours for the badges, and the choices of filters and forms. The first
 * 100, by name.
 */
export function useLabels(owner: LabelsOwner) {
  return useQuery({
    queryKey: labelsKeys.of(owner),
    queryFn: ({ signal }): Promise<Label[]> => {
      const params = { path: { id: String(owner.id) }, query: { include_ancestor_groups: true, per_page: 100 } };
      return data(owner.scope === 'groups' ? v4.GET('/groups/{id}/labels', { params, signal }) : v4.GET('/projects/{id}/labels', { params, signal }));
    },
    staleTime: 60_000,
  });
}
