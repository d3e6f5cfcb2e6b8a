import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GroupPushRule, GroupPushRuleBody } from '../../../shared/src/group-push-rules.ts';
import { ApiError, data, v4, type MutationOptions } from './client.ts';

export const groupPushRulesKeys = {
  all: ['group-push-rules'] as const,
  detail: (groupId: number) => [...groupPushRulesKeys.all, groupId] as const,
};

const ruleParams = (groupId: number) => ({ params: { path: { id: String(groupId) } } });

/** The group's push rule, or null when it was never configured (the API answers 404 then). */
export function useGroupPushRule(groupId: number, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: groupPushRulesKeys.detail(groupId),
    enabled: opts.enabled ?? true,
    queryFn: async ({ signal }): Promise<GroupPushRule | null> => {
      try {
        return await data(v4.GET('/groups/{id}/push_rule', { ...ruleParams(groupId), signal }));
      } catch (e) {
        if (e instanceof ApiError && e.status === 404 && /push rule/i.test(e.message)) return null;
        throw e;
      }
    },
  });
}

/** Saves the rule: POST when the group had none, PUT otherwise. */
export function useSaveGroupPushRule(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ body, exists }: { body: GroupPushRuleBody; exists: boolean }) =>
      data(exists ? v4.PUT('/groups/{id}/push_rule', { ...ruleParams(groupId), body }) : v4.POST('/groups/{id}/push_rule', { ...ruleParams(groupId), body })),
    onSuccess: (rule) => qc.setQueryData(groupPushRulesKeys.detail(groupId), rule),
    onSettled: () => qc.invalidateQueries({ queryKey: groupPushRulesKeys.all }),
  });
}

export function useDeleteGroupPushRule(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: () => data(v4.DELETE('/groups/{id}/push_rule', ruleParams(groupId))),
    onSuccess: () => qc.setQueryData(groupPushRulesKeys.detail(groupId), null),
    onSettled: () => qc.invalidateQueries({ queryKey: groupPushRulesKeys.all }),
  });
}
