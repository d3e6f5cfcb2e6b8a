import { z } from 'zod';
import { label, labelCreateBody, labelListQuery, labelUpdateBody } from '../../../shared/src/labels.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordKey } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import { badRequest } from '../util/errors.ts';
import * as labels from '../services/planning/labels.ts';
import { presentLabel } from '../presenters/labels.ts';
import type { TwinScope } from '../db/twins.ts';

type Loaded = RouteContext<unknown, unknown, unknown, 'group' | 'project'>;

const labelName = z.string().min(1).max(255);
const labelNameQuery = z.object({ name: labelName.optional() });
/** `name` from a DELETE's body, or the platform's 400 for a missing one. */
function parseLabelName(body: unknown): string {
  const parsed = z.object({ name: labelName }).safeParse(body ?? {});
  if (!parsed.success) throw badRequest('name is missing');
  return parsed.data.name;
}

/** Group and project labels, written once (platform paths /groups/:id/labels and /projects/:id/labels). */
function makeLabelRoutes(scope: TwinScope) {
  const area = scope === 'groups' ? 'group-labels' : 'labels';
  const load = scope === 'groups' ? ('group' as const) : ('project' as const);
  const base = `/${scope}/:id/labels`;
  const what = scope === 'groups' ? 'group' : 'project';
  const of = (ctx: Loaded): labels.LabelScope => ({ owner: { scope, id: scope === 'groups' ? ctx.group.id : ctx.project!.id }, group: ctx.group });
  const read = scope === 'groups' ? ('read_group' as const) : ('read_project' as const);
  /** :label_id is a label's id or its title (URL-encoded), as on the platform. */
  const withLabel = {
    params: { label_id: recordKey('Label') },
    with: { label: (ctx: Loaded & { params: { label_id: string } }) => labels.findLabel(ctx.db, of(ctx), ctx.params.label_id) },
  };
  return [
    defineRoute({
      method: 'get',
      path: base,
      area,
      summary: `List the ${what}'s labels and those it inherits from its groups (with_counts, include_ancestor_groups, search)`,
      auth: 'optional',
      load,
      permission: read,
      query: labelListQuery,
      response: z.array(label),
      handler: async (ctx) => labels.listLabels(ctx.db, of(ctx), ctx.query, pageRequest(ctx.query)),
      present: presentLabel,
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:label_id`,
      area,
      summary: 'Get a label (by id or name)',
      auth: 'optional',
      load,
      permission: read,
      ...withLabel,
      response: label,
      handler: async (ctx) => ctx.label,
      present: presentLabel,
    }),
    defineRoute({
      method: 'post',
      path: base,
      area,
      summary: `Create a ${what} label (name, color; description, priority) (Reporter)`,
      load,
      permission: 'admin_label',
      body: labelCreateBody,
      status: 201,
      response: label,
      errors: [409],
      handler: async (ctx) => labels.createLabel(ctx.db, of(ctx), ctx.body),
      present: presentLabel,
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:label_id`,
      area,
      summary: `Update one of the ${what}'s own labels (new_name, color, description, priority) (Reporter)`,
      load,
      permission: 'admin_label',
      ...withLabel,
      body: labelUpdateBody,
      response: label,
      errors: [409],
      handler: async (ctx) => labels.updateLabel(ctx.db, of(ctx), labels.ownLabel(of(ctx), ctx.label), ctx.body),
      present: presentLabel,
    }),
    defineRoute({
      method: 'put',
      path: base,
      area,
      summary: `Update one of the ${what}'s own labels named by \`name\` in the body (the platform's older form, which SDKs still send) (Reporter)`,
      load,
      permission: 'admin_label',
      body: labelUpdateBody.extend({ name: z.string().min(1).max(255) }),
      response: label,
      errors: [409],
      handler: async (ctx) => labels.updateLabel(ctx.db, of(ctx), labels.ownLabel(of(ctx), await labels.findLabel(ctx.db, of(ctx), ctx.body.name)), ctx.body),
      present: presentLabel,
    }),
    defineRoute({
      method: 'delete',
      path: base,
      area,
      summary: `Delete one of the ${what}'s own labels named by \`name\` (the platform's older form, in the query or the body) (Reporter)`,
      load,
      permission: 'admin_label',
      query: labelNameQuery,
      handler: async (ctx) => {
        // A DELETE's body is read too, as the platform reads parameters from either.
        const name = ctx.query.name ?? parseLabelName(ctx.req.body);
        return labels.deleteLabel(ctx.db, labels.ownLabel(of(ctx), await labels.findLabel(ctx.db, of(ctx), name)));
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:label_id`,
      area,
      summary: `Delete one of the ${what}'s own labels (Reporter)`,
      load,
      permission: 'admin_label',
      ...withLabel,
      handler: async (ctx) => labels.deleteLabel(ctx.db, labels.ownLabel(of(ctx), ctx.label)),
    }),
  ];
}

export const labelRoutes = [...makeLabelRoutes('groups'), ...makeLabelRoutes('projects')];
