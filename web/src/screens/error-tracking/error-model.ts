import type { ErrorStatus, StackTraceEntry } from '../../../../shared/src/error-tracking.ts';

/*
 * What the Errors screens work out from the API's answers, without React: which frames are the
 * application's own, and a frequency in words (the text alternative of its chart).
 */

export const FORBIDDEN_TITLE = 'You need the Reporter role to see the project’s errors';
export const FORBIDDEN_HINT = 'Errors reported by the project’s applications are shown to its Reporters, Developers, Maintainers and Owners.';

export const STATUS_LABELS: Record<ErrorStatus, string> = { unresolved: 'Unresolved', resolved: 'Resolved', ignored: 'Ignored' };

/** Paths of installed packages and of the runtime itself: npm, Python's site/dist-packages, Node's `node:` and `internal/` modules. */
const DEPENDENCY = /(^|[\\/])node_modules[\\/]|(^|[\\/])(site|dist)-packages[\\/]|^node:|^internal[\\/]/;

/** A frame of a dependency or of the runtime: its filename says so, or the SDK marked it not the application's. */
export const isDependencyFrame = (f: Pick<StackTraceEntry, 'filename' | 'in_app'>) => f.in_app === false || DEPENDENCY.test(f.filename ?? '');

export interface FoldedTrace {
  /** The frames to draw, innermost (most recent call) first. */
  shown: StackTraceEntry[];
  /** How many frames are folded away. */
  hidden: number;
}

/**
 * The frames as a reader wants them: most recent call first (SDKs send it last), and, unless
 * `all`, only the application's own. A trace with no frame of the application's shows whole
 * (folding everything would leave nothing).
 */
export function foldFrames(frames: StackTraceEntry[], all: boolean): FoldedTrace {
  const ordered = [...frames].reverse();
  const own = ordered.filter((f) => !isDependencyFrame(f));
  if (all || own.length === 0) return { shown: ordered, hidden: 0 };
  return { shown: own, hidden: ordered.length - own.length };
}

/** `[unix seconds, count]` buckets in words: the total, and the busiest bucket when there is one. */
export function frequencySummary(buckets: [number, number][], span: string, bucketName: (start: Date) => string): string {
  const total = buckets.reduce((n, [, c]) => n + c, 0);
  if (total === 0) return `No events in the last ${span}.`;
  const busiest = buckets.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `${total.toLocaleString()} ${total === 1 ? 'event' : 'events'} in the last ${span}; the most, ${busiest[1].toLocaleString()}, ${bucketName(new Date(busiest[0] * 1000))}.`;
}

/** The hour a bucket starts, in the reader's time: "in the hour from 14:00". */
export const hourName = (d: Date) => `in the hour from ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
/** The day (UTC, as the API counts them): "on Nov 29". */
export const dayName = (d: Date) => `on ${d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })}`;
