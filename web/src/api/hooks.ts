import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HookCreateInput, HookEvent, HookFlag, HookHealth, Webhook } from '../../../shared/src/hooks.ts';
import { consoleApi, data, page, v4, type DataOf, type Page, type MutationOptions } from './client.ts';

/**
 * Group hooks and project hooks are one area: the same endpoints under /groups/:id or /projects/:id.
 * System hooks (the instance's, for administrators) are the third scope: /hooks, and their health
 * and delivery log under the console's /admin/hooks.
 */
export type HookScope = 'groups' | 'projects' | 'system';

/** Whose hooks: a group or a project, by numeric ID; the instance (`system`, ID 0). */
export interface HookOwner {
  scope: HookScope;
  id: number;
}

/** The instance, owner of the system hooks. */
export const SYSTEM_HOOKS_OWNER: HookOwner = { scope: 'system', id: 0 };

type OwnedScope = Exclude<HookScope, 'system'>;
const isSystem = (o: HookOwner): o is HookOwner & { scope: 'system' } => o.scope === 'system';

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
  /** How the listed hooks' recent deliveries went, for the health column: one entry per hook. */
  health: (scope: HookScope, id: number) => [...hooksKeys.owner(scope, id), 'health'] as const,
  events: (scope: HookScope, id: number, hookId: number) => [...hooksKeys.owner(scope, id), 'events', hookId] as const,
  eventList: (scope: HookScope, id: number, hookId: number, query: HookEventsQuery) => [...hooksKeys.events(scope, id, hookId), query] as const,
};

/** The typed path of a hook endpoint under either scope, and its owner's path parameter. */
const at = <P extends string>(o: HookOwner, rest: P) => `/${o.scope as OwnedScope}/{id}/hooks${rest}` as const;
const sysHook = (hookId: number) => ({ params: { path: { hook_id: String(hookId) } } });
const owned = (o: HookOwner) => ({ params: { path: { id: String(o.id) } } });
const ids = (o: HookOwner, hookId: number) => ({ id: String(o.id), hook_id: String(hookId) });
const hook = (o: HookOwner, hookId: number) => ({ params: { path: ids(o, hookId) } });

export type ResendResult = DataOf<Awaited<ReturnType<typeof resendCall>>>;

/** A system hook's test has no kind: it always sends a sample project_create event, and answers what it sent. */
const testCall = (o: HookOwner, hookId: number, flag: HookFlag | null): Promise<unknown> =>
  isSystem(o)
    ? data(v4.POST('/hooks/{hook_id}', sysHook(hookId)))
    : data(v4.POST(at(o, '/{hook_id}/test/{trigger}'), { params: { path: { ...ids(o, hookId), trigger: flag ?? 'push_events' } } }));
const resendCall = (o: HookOwner, hookId: number, eventId: number) =>
  isSystem(o)
    ? consoleApi.POST('/admin/hooks/{hook_id}/events/{hook_event_id}/resend', { params: { path: { hook_id: String(hookId), hook_event_id: String(eventId) } } })
    : v4.POST(at(o, '/{hook_id}/events/{hook_event_id}/resend'), { params: { path: { ...ids(o, hookId), hook_event_id: String(eventId) } } });

/** A page of 100, the most a page holds: the screen shows every hook of a group or project, and the health of each. */
const HOOKS_PER_PAGE = 100;

export function useHooks(owner: HookOwner) {
  return useQuery({
    queryKey: hooksKeys.list(owner.scope, owner.id),
    queryFn: ({ signal }): Promise<Webhook[]> =>
      isSystem(owner)
        ? data(v4.GET('/hooks', { params: { query: { per_page: HOOKS_PER_PAGE } }, signal }))
        : data(v4.GET(at(owner, ''), { params: { ...owned(owner).params, query: { per_page: HOOKS_PER_PAGE } }, signal })),
  });
}

export function useHook(owner: HookOwner, hookId: number) {
  const qc = useQueryClient();
  // Coming from the list, show what it already knows while the hook is read again.
  const listed = qc.getQueryData<Webhook[]>(hooksKeys.list(owner.scope, owner.id))?.find((h) => h.id === hookId);
  return useQuery({
    queryKey: hooksKeys.detail(owner.scope, owner.id, hookId),
    queryFn: ({ signal }): Promise<Webhook> =>
      isSystem(owner) ? data(v4.GET('/hooks/{hook_id}', { ...sysHook(hookId), signal })) : data(v4.GET(at(owner, '/{hook_id}'), { ...hook(owner, hookId), signal })),
    placeholderData: listed,
  });
}

const byHookId = (list: HookHealth[]): ReadonlyMap<number, HookHealth> => new Map(list.map((h) => [h.hook_id, h]));

/**
 * The deliveries of the past seven days of every listed hook, in figures (how many, how many
 * failed, the newest and the newest failure), by hook ID: one request for the whole list
 * (the same page as useHooks), however many hooks it holds.
 */
export function useHooksHealth(owner: HookOwner) {
  return useQuery({
    queryKey: hooksKeys.health(owner.scope, owner.id),
    queryFn: ({ signal }): Promise<HookHealth[]> =>
      isSystem(owner)
        ? data(consoleApi.GET('/admin/hooks/health', { params: { query: { per_page: HOOKS_PER_PAGE } }, signal }))
        : data(consoleApi.GET(`/${owner.scope as OwnedScope}/{id}/hooks/health`, { params: { path: { id: String(owner.id) }, query: { per_page: HOOKS_PER_PAGE } }, signal })),
    select: byHookId,
  });
}

export type HookEventsPage = Page<HookEvent>;

/** A page of a hook's deliveries: what the log reads, and asks for ahead when its filter changes. */
export const hookEventsQuery = (owner: HookOwner, hookId: number, query: HookEventsQuery) =>
  queryOptions({
    queryKey: hooksKeys.eventList(owner.scope, owner.id, hookId, query),
    queryFn: async ({ signal }): Promise<HookEventsPage> => {
      const q = { ...query, per_page: HOOK_EVENTS_PER_PAGE };
      if (isSystem(owner)) return page(consoleApi.GET('/admin/hooks/{hook_id}/events', { params: { ...sysHook(hookId).params, query: q }, signal }));
      return page(v4.GET(at(owner, '/{hook_id}/events'), { params: { ...hook(owner, hookId).params, query: q }, signal }));
    },
  });

export function useHookEvents(owner: HookOwner, hookId: number, query: HookEventsQuery) {
  return useQuery({ ...hookEventsQuery(owner, hookId, query), placeholderData: keepPreviousData });
}

/** Creates a hook (no `hookId`) or changes one; either way the owner's hooks are read again. */
export function useSaveHook(owner: HookOwner, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ hookId, body }: { hookId?: number; body: HookCreateInput }): Promise<Webhook> => {
      if (isSystem(owner)) return data(hookId === undefined ? v4.POST('/hooks', { body }) : v4.PUT('/hooks/{hook_id}', { ...sysHook(hookId), body }));
      return data(hookId === undefined ? v4.POST(at(owner, ''), { ...owned(owner), body }) : v4.PUT(at(owner, '/{hook_id}'), { ...hook(owner, hookId), body }));
    },
    onSuccess: (hook) => qc.setQueryData(hooksKeys.detail(owner.scope, owner.id, hook.id), hook),
    onSettled: () => qc.invalidateQueries({ queryKey: hooksKeys.owner(owner.scope, owner.id) }),
  });
}

export function useDeleteHook(owner: HookOwner, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (hookId: number) => (isSystem(owner) ? data(v4.DELETE('/hooks/{hook_id}', sysHook(hookId))) : data(v4.DELETE(at(owner, '/{hook_id}'), hook(owner, hookId)))),
    onSettled: () => qc.invalidateQueries({ queryKey: hooksKeys.owner(owner.scope, owner.id) }),
  });
}

/** Sends a sample event (of the flag's kind; a system hook's has none: always a system event); a success also re-enables a disabled hook, so its status is read again. */
export function useTestHook(owner: HookOwner, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ hookId, flag }: { hookId: number; flag: HookFlag | null }) => testCall(owner, hookId, flag),
    onSettled: () => qc.invalidateQueries({ queryKey: hooksKeys.owner(owner.scope, owner.id) }),
  });
}

/** Delivers a logged event again (same Idempotency-Key); the log gains a record and the hook may come back. */
export function useResendHookEvent(owner: HookOwner, hookId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (eventId: number) => data(resendCall(owner, hookId, eventId)),
    onSettled: () => qc.invalidateQueries({ queryKey: hooksKeys.owner(owner.scope, owner.id) }),
  });
}
