import { useMutation, useQueryClient } from '@tanstack/react-query';
import { data, v4, type MutationOptions } from './client.ts';
import { groupAccessTokensKeys } from './group-access-tokens.ts';

/**
 * POST /groups/:id/tokens/revoke. The variables hold a leaked credential in plaintext: the
 * mutation is not kept once nothing observes it (`gcTime: 0`), and the screen resets it as soon
 * as it has the answer.
 */
export function useRevokeLeakedToken(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    gcTime: 0,
    mutationFn: (token: string) => data(v4.POST('/groups/{id}/tokens/revoke', { params: { path: { id: String(groupId) } }, body: { token } })),
    // A group access token of this tree may have been the one revoked: its list changes.
    onSuccess: (revoked) => {
      if (revoked.token_type === 'group_access_token') void qc.invalidateQueries({ queryKey: groupAccessTokensKeys.all });
    },
  });
}
