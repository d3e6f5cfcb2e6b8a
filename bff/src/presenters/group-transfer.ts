import type { ConsoleGroupExport, ConsolePlaceholder } from '../../../shared/src/console-group-transfer.ts';
import type { GroupExportRow } from '../db/schema.ts';
import type { PlaceholderListing } from '../services/transfer/transfer-state.ts';

/** A group's export as the console's Export panel shows it; `now` decides whether its file still downloads. */
export function presentGroupExport(row: GroupExportRow, now: string): ConsoleGroupExport {
  return {
    status: row.status,
    error: row.error,
    updated_at: row.updated_at,
    finished_at: row.file_key ? row.finished_at : null,
    file_size: row.file_key ? row.file_size : null,
    expires_at: row.expires_at,
    downloadable: row.file_key !== null && row.expires_at > now,
  };
}

export function presentPlaceholder(p: PlaceholderListing): ConsolePlaceholder {
  return {
    id: p.id,
    source_hostname: p.source_hostname,
    import_type: p.import_type,
    source_user_identifier: p.source_user_identifier,
    source_name: p.source_name,
    source_username: p.source_username,
    status: p.status,
    reassigned_to: p.user_id !== null ? { id: p.user_id, username: p.user_username ?? '', name: p.user_name ?? '' } : null,
    updated_at: p.updated_at,
  };
}
