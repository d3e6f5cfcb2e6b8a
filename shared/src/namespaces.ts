import { z } from './errors.ts';
import { boolParam, intParam, paginationQuery } from './params.ts';

/** A namespace as the platform shows it inside a project (`namespace`): Gatehouse's are its groups, so `kind` is always `group`. */
export const namespaceBasic = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  kind: z.literal('group'),
  full_path: z.string(),
  parent_id: z.number().int().nullable(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});

/**
 * A namespace as the platform's Namespaces API shows it (its `Namespace` entity). Gatehouse's
 * namespaces are its groups: projects live in groups, and users have no personal namespace.
 * The counts are shown only to those who administer the group.
 */
export const namespaceEntity = namespaceBasic.extend({
  /** Distinct members of the group and its subgroups (Owners and administrators only). */
  members_count_with_descendants: z.number().int().optional(),
  /** Repository bytes of the whole tree: null, as on the platform until its statistics are computed. */
  root_repository_size: z.number().int().nullable().optional(),
  /** Projects in the group and its subgroups (Owners and administrators only). */
  projects_count: z.number().int().optional(),
});
export type NamespaceEntity = z.infer<typeof namespaceEntity>;

export const namespaceListQuery = paginationQuery.extend({
  search: z.string().max(255).optional(),
  owned_only: boolParam().optional(),
  top_level_only: boolParam().optional(),
  /** Match `search` against the full path as well as the name and path. */
  full_path_search: boolParam().optional(),
});
export type NamespaceListQuery = z.infer<typeof namespaceListQuery>;

export const namespaceExistsQuery = z.object({
  /** The parent's ID; without it, top-level namespaces are looked at. */
  parent_id: intParam().optional(),
});

export const namespaceExistence = z.object({
  exists: z.boolean(),
  /** A free path like the one asked for, where it is taken. */
  suggests: z.array(z.string()),
});
