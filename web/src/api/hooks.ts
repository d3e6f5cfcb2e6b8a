import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { HookCreateInput, HookEvent, HookFlag, Webhook, hookTestResult, resendResult } from '../../../shared/src/hooks.ts';
import { api, pageInfo, request, type PageInfo } from './client.ts';

/** Group hooks and project hooks are one area: the same endpoints under /groups/:id or /projects/:id. */
export type HookScope = 'groups' | 'projects';

/** Whose hooks: a group or a project, by numeric ID. */
export interface HookOwner {
  scope: HookScope;
  id: number;
}

/** What the delivery log keeps in the URL and sends to GET …/hooks/:hook_id/events. */
export interface HookEventsQuery {
  /** An HTTP status code, or successful | client_failure | server_failure. */
  status?: string;
  /** A trigger such as push_hooks. */
  trigger?: string;
  page?: number;
}

/** The log is read 50 records at a time; it may hold thousands. */
export const HOOK_EVENTS_PER_PAGE = 50;

export const hooksKeys = {
  all: ['hooks'] as const,
  owner: (scope: HookScope, id: number) => [...hooksKeys.all, scope, id] as const,
  list: (scope: HookScope, id: number) => [...hooksKeys.owner(scope, id), 'list'] as const,
  detail: (scope: HookScope, id: number, hookId: number) => [...hooksKeys.owner(scope, id), 'detail', hookId] as const,
  /** The newest delivery of a hook, for the health column. */
  latest: (scope: HookScope, id: number, hookId: number) => [...hooksKeys.owner(scope, id), 'latest', hookId] as const,
  events: (scope: HookScope, id: number, hookId: number) => [...hooksKeys.owner(scope, id), 'events', hookId] as const,
  eventList: (scope: HookScope, id: number, hookId: number, query: HookEventsQuery) => [...hooksKeys.events(scope, id, hookId), query] as const,
};

const hooksUrl = (o: HookOwner) => `/api/v4/${o.scope}/${o.id}/hooks`;

export type HookTestResult = z.infer<typeof hookTestResult>;
export type ResendResult = z.infer<typeof resendResult>;

export function useHooks(owner: HookOwner) {
  return useQuery({
    queryKey: hooksKeys.list(owner.scope, owner.id),
    queryFn: ({ signal }) => api.get<Webhook[]>(hooksUrl(owner), { signal }),
  });
}

export function useHook(owner: HookOwner, hookId: number) {
  const qc = useQueryClient();
  // Coming from the list, show what it already knows while the hook is read again.
  const listed = qc.getQueryData<Webhook[]>(hooksKeys.list(owner.scope, owner.id))?.find((h) => h.id === hookId);
  return useQuery({
    queryKey: hooksKeys.detail(owner.scope, owner.id, hookId),
    queryFn: ({ signal }) => api.get<Webhook>(`${hooksUrl(owner)}/${hookId}`, { signal }),
    placeholderData: listed,
  });
}

/** The hook's newest delivery of the past seven days, or null: one record, not the log. */
export function useLatestDelivery(owner: HookOwner, hookId: number) {
  return useQuery({
    queryKey: hooksKeys.latest(owner.scope, owner.id, hookId),
    queryFn: async ({ signal }) => (await api.get<HookEvent[]>(`${hooksUrl(owner)}/${hookId}/events`, { query: { per_page: 1 }, signal }))[0] ?? null,
  });
}

export interface HookEventsPage {
  items: HookEvent[];
  page: PageInfo;
}

export function useHookEvents(owner: HookOwner, hookId: number, query: HookEventsQuery) {
  return useQuery({
    queryKey: hooksKeys.eventList(owner.scope, owner.id, hookId, query),
    queryFn: async ({ signal }): Promise<HookEventsPage> => {
      const res = await request<HookEvent[]>(`${hooksUrl(owner)}/${hookId}/events`, {
        query: { ...query, per_page: HOOK_EVENTS_PER_PAGE },
        signal,
      });
      return { items: res.data, page: pageInfo(res.headers) };
    },
    placeholderData: keepPreviousData,
  });
}

/** Creates a hook (no `hookId`) or changes one; either way the owner's hooks are read again. */
export function useSaveHook(owner: HookOwner) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ hookId, body }: { hookId?: number; body: Partial<HookCreateInput> }) =>
      hookId === undefined ? api.post<Webhook>(hooksUrl(owner), body) : api.put<Webhook>(`${hooksUrl(owner)}/${hookId}`, body),
    onSuccess: (hook) => qc.setQueryData(hooksKeys.detail(owner.scope, owner.id, hook.id), hook),
    onSettled: () => qc.invalidateQueries({ queryKey: hooksKeys.owner(owner.scope, owner.id) }),
  });
}

export function useDeleteHook(owner: HookOwner) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (hookId: number) => api.delete<void>(`${hooksUrl(owner)}/${hookId}`),
    onSettled: () => qc.invalidateQueries({ queryKey: hooksKeys.owner(owner.scope, owner.id) }),
  });
}

/** Sends a sample event; a success also re-enables a disabled hook, so its status is read again. */
export function useTestHook(owner: HookOwner) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ hookId, flag }: { hookId: number; flag: HookFlag }) => api.post<HookTestResult>(`${hooksUrl(owner)}/${hookId}/test/${flag}`, {}),
    onSettled: () => qc.invalidateQueries({ queryKey: hooksKeys.owner(owner.scope, owner.id) }),
  });
}

/** Delivers a logged event again (same Idempotency-Key); the log gains a record and the hook may come back. */
export function useResendHookEvent(owner: HookOwner, hookId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (eventId: number) => api.post<ResendResult>(`${hooksUrl(owner)}/${hookId}/events/${eventId}/resend`, {}),
    onSettled: () => qc.invalidateQueries({ queryKey: hooksKeys.owner(owner.scope, owner.id) }),
  });
}
