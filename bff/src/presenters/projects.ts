import type { GroupRow, ProjectRow } from '../db/schema.ts';
import type { ProjectSimple, ProjectSummary } from '../../../shared/src/projects.ts';
import { bool, json } from '../util/rows.ts';
import { presentNamespace } from './namespaces.ts';
import { DEFAULT_BRANCH, repositoryPath } from '../services/git/repositories.ts';
import { repositoryExists, repositoryIsEmpty } from '../services/git/repository-state.ts';

/** The host of the base URL, parsed once for the projects of a page (they share it) rather than for each. */
let lastBase = '';
let lastHost = '';
const hostOf = (baseUrl: string) => (baseUrl === lastBase ? lastHost : ((lastHost = new URL(baseUrl).host), (lastBase = baseUrl), lastHost));

/** `default_branch` is null while the repository has no branch, as on the platform. */
export function presentProject(p: ProjectRow, ns: GroupRow, baseUrl: string, repositoriesDir: string): ProjectSummary {
  const host = hostOf(baseUrl);
  const dir = repositoryPath(repositoriesDir, p);
  // A repository that was made but is missing is not shown as a new empty one (whose page asks
  // for a first push): the project reads as it was, and its repository's reads answer the error.
  const empty = repositoryIsEmpty(dir) && !(bool(p.repository_created) && !repositoryExists(dir));
  const topics = json<string[]>(p.topics, []);
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${ns.full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: p.path_with_namespace,
    created_at: p.created_at,
    default_branch: empty ? null : (p.default_branch ?? DEFAULT_BRANCH),
    empty_repo: empty,
    tag_list: topics,
    topics,
    ssh_url_to_repo: `git@${host.replace(/:\d+$/, '')}:${p.path_with_namespace}.git`,
    http_url_to_repo: `${baseUrl}/${p.path_with_namespace}.git`,
    web_url: `${baseUrl}/${p.path_with_namespace}`,
    avatar_url: null,
    star_count: p.star_count,
    forks_count: p.forks_count,
    last_activity_at: p.last_activity_at,
    namespace: presentNamespace(ns, baseUrl),
    archived: bool(p.archived),
    visibility: p.visibility as ProjectSummary['visibility'],
    issues_enabled: bool(p.issues_enabled),
    merge_requests_enabled: bool(p.merge_requests_enabled),
    wiki_enabled: bool(p.wiki_enabled),
    jobs_enabled: bool(p.jobs_enabled),
    snippets_enabled: bool(p.snippets_enabled),
    container_registry_enabled: bool(p.container_registry_enabled),
    shared_runners_enabled: bool(p.shared_runners_enabled),
    creator_id: p.creator_id,
    open_issues_count: p.open_issues_count,
    public_jobs: bool(p.public_jobs),
    shared_with_groups: [],
    request_access_enabled: bool(p.request_access_enabled),
    merge_method: p.merge_method as ProjectSummary['merge_method'],
    merge_trains_enabled: bool(p.merge_trains_enabled),
    merge_trains_skip_train_allowed: bool(p.merge_trains_skip_train_allowed),
    merge_pipelines_enabled: bool(p.merge_pipelines_enabled),
    only_allow_merge_if_pipeline_succeeds: bool(p.only_allow_merge_if_pipeline_succeeds),
    remove_source_branch_after_merge: bool(p.remove_source_branch_after_merge),
    squash_option: p.squash_option as ProjectSummary['squash_option'],
  };
}

/** A list item with `simple=true`: what identifies the project and where it lives (the platform's BasicProjectDetails). */
export function presentProjectSimple(p: ProjectRow, ns: GroupRow, baseUrl: string, repositoriesDir: string): ProjectSimple {
  const full = presentProject(p, ns, baseUrl, repositoriesDir);
  return {
    id: full.id,
    description: full.description,
    name: full.name,
    name_with_namespace: full.name_with_namespace,
    path: full.path,
    path_with_namespace: full.path_with_namespace,
    created_at: full.created_at,
    default_branch: full.default_branch,
    tag_list: full.tag_list,
    topics: full.topics,
    ssh_url_to_repo: full.ssh_url_to_repo,
    http_url_to_repo: full.http_url_to_repo,
    web_url: full.web_url,
    readme_url: null,
    forks_count: full.forks_count,
    avatar_url: full.avatar_url,
    star_count: full.star_count,
    last_activity_at: full.last_activity_at,
    namespace: full.namespace,
  };
}
