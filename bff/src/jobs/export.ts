import { defineJob } from '../queue/define.ts';
import { exportTicket, writeExport } from '../services/security/exports/write.ts';

/**
 * A vulnerability or dependency list export's file, written in the background
 * (services/security/exports/write.ts). The lease is renewed every few seconds while the file
 * is written, so a dead worker's export restarts soon.
 */
export const exportJob = defineJob({
  ...exportTicket,
  leaseMs: () => 15_000,
  handler: ({ export_id }, deps) => writeExport(deps, export_id),
});
