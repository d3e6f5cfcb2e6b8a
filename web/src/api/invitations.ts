import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationResult } from '../../../shared/src/invitations.ts';
import { data, page, v4, type MutationOptions } from './client.ts';
import { membersKeys, type MemberScope } from './members.ts';

export const invitationsKeys = {
  of: (scope: MemberScope, id: number) => [...membersKeys.of(scope, id), 'invitations'] as const,
  list: (scope: MemberScope, id: number, pageNo: number) => [...invitationsKeys.of(scope, id), pageNo] as const,
};

/** A page of the pending invitations by email (GET …/invitations): Owners of a group, Maintainers of a project. */
export function useInvitations(scope: MemberScope, id: number, pageNo: number, enabled: boolean) {
  return useQuery({
    queryKey: invitationsKeys.list(scope, id, pageNo),
    enabled,
    queryFn: ({ signal }) => {
      const params = { path: { id: String(id) }, query: { page: pageNo, per_page: 10 } };
      return page(scope === 'groups' ? v4.GET('/groups/{id}/invitations', { params, signal }) : v4.GET('/projects/{id}/invitations', { params, signal }));
    },
    placeholderData: keepPreviousData,
  });
}

export interface InviteRequest {
  emails: string[];
  access_level: number;
  expires_at: string | null;
}

/**
 * Invites addresses in one request (POST …/invitations): the platform answers
 * 201 either way, with the refused addresses and why in `message`. Members list too, since an
 * address of an existing user makes them a member at once.
 */
export function useInvite(scope: MemberScope, id: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ emails, access_level, expires_at }: InviteRequest): Promise<InvitationResult> => {
      const params = { path: { id: String(id) } };
      const body = { email: emails, access_level, expires_at };
      return scope === 'groups' ? data(v4.POST('/groups/{id}/invitations', { params, body })) : data(v4.POST('/projects/{id}/invitations', { params, body }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: membersKeys.of(scope, id) }),
  });
}

export function useRevokeInvitation(scope: MemberScope, id: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (email: string) => {
      const params = { path: { id: String(id), email } };
      return scope === 'groups' ? data(v4.DELETE('/groups/{id}/invitations/{email}', { params })) : data(v4.DELETE('/projects/{id}/invitations/{email}', { params }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: invitationsKeys.of(scope, id) }),
  });
}
