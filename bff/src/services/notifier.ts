import type { Db } from '../db/index.ts';
import type { GroupRow, MergeRequestRow, PipelineRow, ProjectRow, UserRow } from '../db/schema.ts';

/**
 * What happened, announced by the room where it happens and heard by the rooms above it, so
 * that no room imports one above it (the way Gitea's notifier decouples its services). A
 * push is announced by git, a pipeline's move by ci, a closed merge request by planning;
 * merging (auto-merge and trains) and planning (issue closing) listen. The listeners are
 * registered once at start-up (bff/src/listeners.ts), heard one after the other in the order
 * they were registered, and awaited: a listener that fails fails the announcement, and with
 * it the announcer's transaction, exactly as a direct call did.
 */

/** Where a push went and who pushed (null for a deploy token). */
export interface PushedTo {
  db: Db;
  dir: string;
  baseUrl: string;
  project: ProjectRow;
  group: GroupRow;
  user: UserRow | null;
}

/** One ref a push moved: git's "<old> <new> <ref>". */
export interface RefMove {
  before: string;
  after: string;
  ref: string;
}

export interface Happenings {
  /** A push's branches and tags moved: heard in the transaction that records its events, hooks and activity. */
  pushWritten: { trx: Db; pushed: PushedTo; refs: RefMove[] };
  /** A push was recorded and its transaction committed: heard outside any transaction. */
  pushRecorded: { pushed: PushedTo; refs: RefMove[] };
  /** A pipeline's status changed: heard in the transaction that changed it. */
  pipelineMoved: { trx: Db; pipeline: PipelineRow };
  /** A merge request was closed: heard in the transaction that closed it, with its row as closed. */
  mergeRequestClosed: { trx: Db; project: ProjectRow; mergeRequest: MergeRequestRow };
}

type Listener<K extends keyof Happenings> = (event: Happenings[K]) => Promise<void>;
type Listeners = { [K in keyof Happenings]: Listener<K>[] };

const listeners: Listeners = { pushWritten: [], pushRecorded: [], pipelineMoved: [], mergeRequestClosed: [] };

/** Registers a listener (at start-up). */
export function listen<K extends keyof Happenings>(kind: K, listener: Listener<K>): void {
  (listeners[kind] as Listener<K>[]).push(listener);
}

/** Tells every listener of `kind`, one after the other. */
export async function announce<K extends keyof Happenings>(kind: K, event: Happenings[K]): Promise<void> {
  for (const listener of listeners[kind] as Listener<K>[]) await listener(event);
}
