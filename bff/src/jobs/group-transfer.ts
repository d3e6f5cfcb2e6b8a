import { defineJob } from '../queue/define.ts';
import { groupExportTicket, writeGroupExport } from '../services/transfer/group-export.ts';
import { groupImportTicket, runGroupImport } from '../services/transfer/group-import.ts';
import { reassignTicket, runReassignment } from '../services/transfer/placeholders.ts';

/**
 * A group's export in the platform's archive, written into the file store (services/transfer/
 * group-export.ts); the lease is renewed while it is written, so a dead worker's export restarts soon.
 */
export const groupExportJob = defineJob({
  ...groupExportTicket,
  leaseMs: () => 30_000,
  handler: ({ export_id }, deps) => writeGroupExport(deps, export_id),
});

/** A group import from an archive kept in the file store (services/transfer/group-import.ts), in one transaction. */
export const groupImportJob = defineJob({
  ...groupImportTicket,
  leaseMs: () => 60_000,
  handler: (payload, deps) => runGroupImport(deps, payload),
});

/** Placeholder users reassigned from an uploaded CSV (services/transfer/placeholders.ts). */
export const placeholderReassignmentJob = defineJob({
  ...reassignTicket,
  leaseMs: () => 30_000,
  handler: (payload, deps) => runReassignment(deps, payload),
});
