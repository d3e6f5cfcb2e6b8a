import { z } from './errors.ts';

/**
 * The console's view of a group's transfer state: its export in the platform's archive
 * (GET /api/console/groups/:id/transfer) and the placeholder users of its imports
 * (GET /api/console/groups/:id/placeholders). The platform API
 * answers the archive (404 until it is written) and the pending placeholders as CSV only; the
 * console's Export panel and Placeholders screen need the state, the times and what was
 * reassigned to whom.
 */

export const GROUP_EXPORT_STATUSES = ['scheduled', 'started', 'finished', 'failed'] as const;
export const PLACEHOLDER_STATUSES = ['pending_reassignment', 'reassignment_in_progress', 'completed'] as const;

export const consoleGroupExport = z.object({
  /** The latest export asked for: queued, being written, written, or failed (with `error`). */
  status: z.enum(GROUP_EXPORT_STATUSES),
  error: z.string().nullable(),
  /** When its state last changed (asked for, started, written or failed). */
  updated_at: z.string(),
  /** When the archive that downloads now was written (an export being written still serves the one before). */
  finished_at: z.string().nullable(),
  file_size: z.number().int().nullable(),
  expires_at: z.string(),
  /** Whether GET /groups/:id/export/download answers the archive now. */
  downloadable: z.boolean(),
});
export type ConsoleGroupExport = z.infer<typeof consoleGroupExport>;

export const consolePlaceholder = z.object({
  id: z.number().int(),
  source_hostname: z.string(),
  import_type: z.string(),
  source_user_identifier: z.string(),
  source_name: z.string().nullable(),
  source_username: z.string().nullable(),
  status: z.enum(PLACEHOLDER_STATUSES),
  /** The user the placeholder's contributions go (or went) to, once a CSV named one. */
  reassigned_to: z.object({ id: z.number().int(), username: z.string(), name: z.string() }).nullable(),
  updated_at: z.string(),
});
export type ConsolePlaceholder = z.infer<typeof consolePlaceholder>;

/** How many placeholders the console lists at most (the CSV download has them all). */
export const CONSOLE_PLACEHOLDER_LIMIT = 1000;

/** GET /api/console/groups/:id/transfer: the latest export, or null before the first. */
export const consoleGroupExportState = z.object({
  export: consoleGroupExport.nullable(),
});
export type ConsoleGroupExportState = z.infer<typeof consoleGroupExportState>;

/** GET /api/console/groups/:id/placeholders: pending ones first, up to CONSOLE_PLACEHOLDER_LIMIT. */
export const consoleGroupPlaceholders = z.object({
  placeholders: z.array(consolePlaceholder),
  /** Every placeholder of the group, listed or not (the list stops at CONSOLE_PLACEHOLDER_LIMIT). */
  placeholders_total: z.number().int(),
});
export type ConsoleGroupPlaceholders = z.infer<typeof consoleGroupPlaceholders>;
