import { z } from './errors.ts';
import { boolParam, intParam, paginationQuery } from './params.ts';
import { visibility } from './roles.ts';
import { namespaceBasic } from './namespaces.ts';

const PATH_RE = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;

/** A branch name git accepts (`git check-ref-format --branch`): no spaces, control characters, `~^:?*[\`, `..`, `@{`, `//`, no part starting with `.`, no `.lock` end. */
export const branchName = z
  .string()
  .min(1)
  .max(255)
  // eslint-disable-next-line no-control-regex -- git refuses control characters in ref names
  .refine((v) => /^[^\s~^:?*[\\\x00-\x1f\x7f]+$/.test(v) && !/(^[-/.]|\/\.|\.\.|@\{|\/\/|[/.]$|\.lock$)/.test(v) && v !== '@', 'is not a valid branch name');

/** An item of `shared_with_groups`, on groups and projects alike. */
export const sharedWithGroup = z.object({
  group_id: z.number().int(),
  group_name: z.string(),
  group_full_path: z.string(),
  group_access_level: z.number().int(),
  expires_at: z.string().nullable(),
});

/** Project summary (spec part 1, "Project summary"): GET /projects items, group detail `projects`. */
export const projectSummary = z.object({
  id: z.number().int(),
  description: z.string().nullable(),
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  created_at: z.string(),
  default_branch: z.string().nullable(),
  /** No branch pushed yet. */
  empty_repo: z.boolean(),
  tag_list: z.array(z.string()),
  topics: z.array(z.string()),
  ssh_url_to_repo: z.string(),
  http_url_to_repo: z.string(),
  web_url: z.string(),
  avatar_url: z.string().nullable(),
  star_count: z.number().int(),
  forks_count: z.number().int(),
  last_activity_at: z.string(),
  namespace: namespaceBasic,
  archived: z.boolean(),
  visibility,
  issues_enabled: z.boolean(),
  merge_requests_enabled: z.boolean(),
  wiki_enabled: z.boolean(),
  jobs_enabled: z.boolean(),
  snippets_enabled: z.boolean(),
  container_registry_enabled: z.boolean(),
  shared_runners_enabled: z.boolean(),
  creator_id: z.number().int(),
  open_issues_count: z.number().int(),
  public_jobs: z.boolean(),
  shared_with_groups: z.array(sharedWithGroup),
  request_access_enabled: z.boolean(),
  merge_method: z.enum(['merge', 'rebase_merge', 'ff']),
  merge_trains_enabled: z.boolean(),
  merge_trains_skip_train_allowed: z.boolean(),
  merge_pipelines_enabled: z.boolean(),
  only_allow_merge_if_pipeline_succeeds: z.boolean(),
  remove_source_branch_after_merge: z.boolean(),
  squash_option: z.enum(['never', 'always', 'default_on', 'default_off']),
});
export type ProjectSummary = z.infer<typeof projectSummary>;

/** A project as lists show it with `simple=true` (the platform's BasicProjectDetails). */
export const projectSimple = projectSummary
  .pick({
    id: true,
    description: true,
    name: true,
    name_with_namespace: true,
    path: true,
    path_with_namespace: true,
    created_at: true,
    default_branch: true,
    tag_list: true,
    topics: true,
    ssh_url_to_repo: true,
    http_url_to_repo: true,
    web_url: true,
    forks_count: true,
    avatar_url: true,
    star_count: true,
    last_activity_at: true,
    namespace: true,
  })
  .extend({
    /** Gatehouse does not look for a README in lists: always null. */
    readme_url: z.string().nullable(),
  });
export type ProjectSimple = z.infer<typeof projectSimple>;

export const projectCreateBody = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  path: z.string().min(1).max(255).regex(PATH_RE, 'can contain only letters, digits, "_", "-" and "."').optional(),
  namespace_id: intParam().pipe(z.number().int().min(1)),
  description: z.string().max(2000).optional(),
  visibility: visibility.optional(),
  /** The first branch's name where initialize_with_readme (else the group's, the instance's default_branch_name, or main). */
  default_branch: branchName.optional(),
  /** Make a first commit with a README.md on the default branch. */
  initialize_with_readme: boolParam().optional(),
  topics: z.array(z.string().min(1).max(255)).max(50).optional(),
  issues_enabled: boolParam().optional(),
  merge_requests_enabled: boolParam().optional(),
  wiki_enabled: boolParam().optional(),
  jobs_enabled: boolParam().optional(),
  snippets_enabled: boolParam().optional(),
  container_registry_enabled: boolParam().optional(),
  shared_runners_enabled: boolParam().optional(),
  public_jobs: boolParam().optional(),
  request_access_enabled: boolParam().optional(),
}).refine((b) => b.name !== undefined || b.path !== undefined, { message: 'name or path is missing', path: ['name'] });
export type ProjectCreateBody = z.infer<typeof projectCreateBody>;

export const MERGE_METHODS = ['merge', 'rebase_merge', 'ff'] as const;

/**
 * PUT /projects/:id: the project's settings a Maintainer may change (other keys are ignored,
 * as on the platform). `merge_trains_cars_limit` is ours: how many cars run pipelines at once.
 */
export const projectUpdateBody = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(2000).optional(),
  visibility: visibility.optional(),
  issues_enabled: boolParam().optional(),
  merge_requests_enabled: boolParam().optional(),
  wiki_enabled: boolParam().optional(),
  jobs_enabled: boolParam().optional(),
  snippets_enabled: boolParam().optional(),
  request_access_enabled: boolParam().optional(),
  merge_method: z.enum(MERGE_METHODS).optional(),
  merge_trains_enabled: boolParam().optional(),
  merge_trains_skip_train_allowed: boolParam().optional(),
  merge_trains_cars_limit: intParam().pipe(z.number().int().min(1).max(100)).optional(),
  /** Stored and shown: Gatehouse runs no merged-results pipelines itself (an external CI does). */
  merge_pipelines_enabled: boolParam().optional(),
  only_allow_merge_if_pipeline_succeeds: boolParam().optional(),
  remove_source_branch_after_merge: boolParam().optional(),
  squash_option: z.enum(['never', 'always', 'default_on', 'default_off']).optional(),
  /** Must name a branch of the repository. */
  default_branch: z.string().min(1).max(255).optional(),
});
export type ProjectUpdateBody = z.infer<typeof projectUpdateBody>;

export const projectListQuery = paginationQuery.extend({
  search: z.string().max(255).optional(),
  order_by: z.enum(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  visibility: visibility.optional(),
  membership: boolParam().optional(),
  owned: boolParam().optional(),
  archived: boolParam().optional(),
  min_access_level: intParam().pipe(z.number().int().min(5).max(50)).optional(),
  simple: boolParam().optional(),
  with_custom_attributes: boolParam().optional(),
});
export type ProjectListQuery = z.infer<typeof projectListQuery>;

/** GET /groups/:id/projects: the project list's filters, and the group's tree. */
export const groupProjectListQuery = projectListQuery.extend({
  order_by: z.enum(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count']).optional(),
  include_subgroups: boolParam().optional(),
  include_ancestor_groups: boolParam().optional(),
  /** Projects shared with the group are included by default on the platform; Gatehouse shares none. */
  with_shared: boolParam().optional(),
  with_issues_enabled: boolParam().optional(),
  with_merge_requests_enabled: boolParam().optional(),
});
export type GroupProjectListQuery = z.infer<typeof groupProjectListQuery>;

/** GET /projects/:id/languages: language name → percentage of the bytes (two decimals). */
export const projectLanguages = z.record(z.string(), z.number());

export const projectDetailQuery = z.object({ with_custom_attributes: boolParam().optional(), statistics: boolParam().optional() });
