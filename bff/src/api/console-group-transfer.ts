import { CONSOLE_PLACEHOLDER_LIMIT, consoleGroupTransfer } from '../../../shared/src/console-group-transfer.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { canGroup } from '../policies/index.ts';
import { presentGroupExport, presentPlaceholder } from '../presenters/group-transfer.ts';
import { listPlaceholders, readGroupExport } from '../services/transfer/transfer-state.ts';
import { nowIso } from '../util/time.ts';

/**
 * The console's read of a group's transfers (not part of the platform API): the state and
 * times of its export, which the platform answers only as the archive (404 until written),
 * and its placeholder users with whom they were reassigned to, which the platform answers
 * only as the CSV of the pending ones.
 */
export const consoleGroupTransferRoutes: RouteSpec[] = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/groups/:id/transfer',
    area: 'console',
    summary: "The group's export (state, when it was asked for and written, whether it downloads) and its placeholder users with their reassignment",
    load: 'group',
    permission: 'export_group',
    response: consoleGroupTransfer,
    handler: async ({ db, actor, group, level }) => {
      const row = await readGroupExport(db, group);
      // Owners export and reassign alike today; the placeholders follow their own rule should that change.
      const placeholders = canGroup(actor, 'admin_placeholders', { group, level }) ? await listPlaceholders(db, group, CONSOLE_PLACEHOLDER_LIMIT) : { rows: [], total: 0 };
      return {
        export: row && presentGroupExport(row, nowIso()),
        placeholders: placeholders.rows.map(presentPlaceholder),
        placeholders_total: placeholders.total,
      };
    },
  }),
];
