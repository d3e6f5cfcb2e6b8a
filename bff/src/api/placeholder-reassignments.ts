import { z } from 'zod';
import { reassignmentAccepted } from '../../../shared/src/placeholder-reassignments.ts';
import { defineRoute, FileAnswer } from '../http/route.ts';
import { badRequest, unprocessable } from '../util/errors.ts';
import { placeholderCsv, REASSIGNMENT_ACCEPTED, requestReassignment } from '../services/transfer/placeholders.ts';

const area = 'placeholder-reassignments';

export const placeholderReassignmentRoutes = [
  defineRoute({
    method: 'get',
    path: '/groups/:id/placeholder_reassignments',
    area,
    summary: 'The group’s placeholder users awaiting reassignment, as the CSV to fill in',
    load: 'group',
    permission: 'admin_placeholders',
    file: ['text/csv'],
    handler: async (ctx) => {
      const csv = await placeholderCsv(ctx.db, ctx.group);
      return new FileAnswer(
        {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="placeholder_reassignments_for_group_${ctx.group.id}_${Math.floor(Date.now() / 1000)}.csv"`,
          'X-Content-Type-Options': 'nosniff',
        },
        csv,
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/groups/:id/placeholder_reassignments',
    area,
    summary: 'Reassign placeholder users from the filled-in CSV (checked whole, then processed in the background)',
    load: 'group',
    permission: 'admin_placeholders',
    body: z.object({}),
    upload: 'file',
    errors: [422],
    response: reassignmentAccepted,
    handler: async (ctx) => {
      if (!ctx.file) throw badRequest('file is missing');
      if (!ctx.file.originalname.toLowerCase().endsWith('.csv')) throw unprocessable('You must upload a CSV file with a .csv file extension.');
      await requestReassignment(ctx.db, ctx.group, ctx.actor.user!.id, ctx.file.buffer.toString('utf8'));
      return { message: REASSIGNMENT_ACCEPTED };
    },
  }),
];
