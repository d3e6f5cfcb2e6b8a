import { CONSOLE_PLACEHOLDER_LIMIT, consoleGroupExportState, consoleGroupPlaceholders } from '../../../shared/src/console-group-transfer.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { presentGroupExport, presentPlaceholder } from '../presenters/group-transfer.ts';
import { listPlaceholders, readGroupExport } from '../services/transfer/transfer-state.ts';
import { nowIso } from '../util/time.ts';

/**
 * The console's reads of a group's transfers (not part of the platform API): the state and
 * times of its export, which the platform answers only as the archive (404 until written),
 * and its placeholder users with whom they were reassigned to, which the platform answers
 * only as the CSV of the pending ones. Two routes, each under its own permission.
 */
export const consoleGroupTransferRoutes: RouteSpec[] = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/groups/:id/transfer',
    area: 'console',
    summary: "The group's export: its state, when it was asked for and written, whether it downloads",
    load: 'group',
    permission: 'export_group',
    response: consoleGroupExportState,
    handler: async ({ db, group }) => {
      const row = await readGroupExport(db, group);
      return { export: row && presentGroupExport(row, nowIso()) };
    },
  }),
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/groups/:id/placeholders',
    area: 'console',
    summary: "The group's placeholder users (from its imports) with whom each was reassigned to, awaiting ones first",
    load: 'group',
    permission: 'admin_placeholders',
    response: consoleGroupPlaceholders,
    handler: async ({ db, group }) => {
      const { rows, total } = await listPlaceholders(db, group, CONSOLE_PLACEHOLDER_LIMIT);
      return { placeholders: rows.map(presentPlaceholder), placeholders_total: total };
    },
  }),
];
