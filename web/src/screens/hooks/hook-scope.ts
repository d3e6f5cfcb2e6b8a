import { createContext, useContext, type ReactNode } from 'react';
import type { HookOwner } from '../../api/hooks.ts';

/**
 * What the webhook screens need to know about whose hooks they show. The same screens serve a
 * group (Owners) and a project (Maintainers); the page that mounts them fills this in.
 */
export interface HookScopeValue {
  owner: HookOwner;
  /** "Acme Corp / Platform", as people read it. */
  ownerName: string;
  /** The hooks section's address, plus a sub-path such as `12/events`. */
  href: (sub?: string) => string;
  /** What to show when the server refuses (403) although the role looked sufficient. */
  forbidden: () => ReactNode;
  /** Which screen the router's splat asks for; a group's or project's `…/-/hooks/…` unless given. */
  parseRoute?: (splat: string) => HookRoute;
}

export const HookScopeContext = createContext<HookScopeValue | null>(null);

export function useHookScope(): HookScopeValue {
  const value = useContext(HookScopeContext);
  if (!value) throw new Error('useHookScope outside a webhooks section');
  return value;
}

export type HookRoute =
  | { kind: 'list' }
  | { kind: 'new' }
  | { kind: 'edit'; hookId: number }
  | { kind: 'events'; hookId: number }
  | { kind: 'unknown'; path: string };

/** `acme/-/hooks/12/events` → `{ kind: 'events', hookId: 12 }`: the part of the address after the section. */
export function parseHookRoute(splat: string): HookRoute {
  const clean = splat.replace(/^\/+|\/+$/g, '');
  const at = clean.indexOf('/-/');
  return hookRouteOf((at === -1 ? '' : clean.slice(at + 3)).split('/').slice(1).filter(Boolean));
}

/** `hooks/12/events` → `{ kind: 'events', hookId: 12 }`: the admin area's system hooks, /admin/hooks[/…]. */
export function parseSystemHookRoute(splat: string): HookRoute {
  return hookRouteOf(splat.replace(/^\/+|\/+$/g, '').split('/').slice(1).filter(Boolean));
}

/** The parts of the address after the section's own (`hooks`). */
function hookRouteOf(rest: string[]): HookRoute {
  if (rest.length === 0) return { kind: 'list' };
  if (rest.length === 1 && rest[0] === 'new') return { kind: 'new' };
  const id = /^\d{1,10}$/.test(rest[0]) ? Number(rest[0]) : NaN;
  if (rest.length === 2 && Number.isSafeInteger(id) && rest[1] === 'edit') return { kind: 'edit', hookId: id };
  if (rest.length === 2 && Number.isSafeInteger(id) && rest[1] === 'events') return { kind: 'events', hookId: id };
  return { kind: 'unknown', path: rest.join('/') };
}
