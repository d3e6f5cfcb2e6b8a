import { z } from 'zod';
import { tag, tagCreateBody, tagListQuery } from '../../../shared/src/tags.ts';
import { defineRoute } from '../http/route.ts';
import { pageOfList, pageRequest } from '../db/pagination.ts';
import * as tags from '../services/git/tags.ts';
import { presentTag } from '../presenters/tags.ts';
import { refCheck, withRepository, type Ctx } from './branches.ts';
import { matching, tagProtections, type TagProtection } from '../services/git/protected-refs.ts';

const area = 'tags';
const base = '/projects/:id/repository/tags';
/** A tag name in the path (slashes sent as %2F): a name that cannot exist is a missing tag. */
const tagParam = { tag_name: z.string().min(1).max(255) };
const present = (t: tags.TagInfo, ctx: { repo: { projectUrl: string }; protections: TagProtection[] }) => presentTag(t, ctx.repo.projectUrl, matching(ctx.protections, t.name).length > 0);

/** The repository and the project's protected tags, read once for a page of tags. */
const withProtections = {
  with: {
    ...withRepository.with,
    protections: (ctx: Ctx) => tagProtections(ctx.db, ctx.project.id),
  },
};

export const tagRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the repository’s tags, newest commit first (search: part of the name, ^ and $ anchor it; order_by name, updated or version)',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    ...withProtections,
    query: tagListQuery,
    response: z.array(tag),
    handler: async (ctx) => pageOfList(await tags.listTags(ctx.repo.dir, ctx.query), pageRequest(ctx.query)),
    present,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:tag_name`,
    area,
    summary: 'Get a tag',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: tagParam,
    ...withProtections,
    response: tag,
    handler: async (ctx) => tags.getTag(ctx.repo.dir, ctx.params.tag_name),
    present,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Create a tag at a ref; a message makes it an annotated tag (Developer)',
    load: 'project',
    permission: 'push_code',
    ...withProtections,
    body: tagCreateBody,
    response: tag,
    handler: async (ctx) => tags.createTag(ctx.repo.dir, ctx.body, { name: ctx.actor.user!.name, email: ctx.actor.user!.email }, refCheck(ctx)),
    present,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:tag_name`,
    area,
    summary: 'Delete a tag (Developer)',
    load: 'project',
    permission: 'push_code',
    params: tagParam,
    ...withRepository,
    handler: async (ctx) => tags.deleteTag(ctx.repo.dir, ctx.params.tag_name, refCheck(ctx)),
  }),
];
