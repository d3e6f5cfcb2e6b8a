import crypto from 'node:crypto';
import type { GroupRow, PipelineJobRow, PipelineRow, ProjectRow, UserRow } from '../../db/schema.ts';
import type { HookFlag } from '../../../../shared/src/hooks.ts';
import { detailedStatusOf, type PipelineStatus } from '../../../../shared/src/pipelines.ts';
import { json } from '../../util/rows.ts';
import { nowIso } from '../../util/time.ts';

/**
 * Event payloads in the platform's shapes. Push and tag push carry every field the spec lists
 * for push; until the platform hosts repositories they come from the hook test.
 */
const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 };

export interface PayloadContext {
  baseUrl: string;
  user: UserRow | null;
  group: GroupRow;
  project?: ProjectRow;
}

export function projectObject(base: string, p: ProjectRow, ns: GroupRow) {
  const host = new URL(base).host.replace(/:\d+$/, '');
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    web_url: `${base}/${p.path_with_namespace}`,
    avatar_url: null,
    git_ssh_url: `git@${host}:${p.path_with_namespace}.git`,
    git_http_url: `${base}/${p.path_with_namespace}.git`,
    namespace: ns.name,
    visibility_level: VISIBILITY_LEVEL[p.visibility] ?? 0,
    path_with_namespace: p.path_with_namespace,
    default_branch: p.default_branch ?? 'main',
    ci_config_path: null,
    homepage: `${base}/${p.path_with_namespace}`,
    url: `git@${host}:${p.path_with_namespace}.git`,
    ssh_url: `git@${host}:${p.path_with_namespace}.git`,
    http_url: `${base}/${p.path_with_namespace}.git`,
  };
}

/** A stand-in project for group hooks tested before the group has one. */
function sampleProject(ctx: PayloadContext): ProjectRow {
  return (
    ctx.project ??
    ({
      id: 0,
      name: 'sample-project',
      path: 'sample-project',
      path_with_namespace: `${ctx.group.full_path}/sample-project`,
      description: 'A project that stands in for the test event',
      visibility: ctx.group.visibility,
      default_branch: 'main',
    } as ProjectRow)
  );
}

const sha = () => crypto.randomBytes(20).toString('hex');

/** What a real push brings to its event; the hook test makes a sample up. */
export interface PushData {
  before: string;
  after: string;
  ref: string;
  checkoutSha: string | null;
  /** The tag's message (annotated tags), else null. */
  message: string | null;
  commits: { id: string; message: string; timestamp: string; author: { name: string; email: string }; added: string[]; modified: string[]; removed: string[] }[];
  totalCommitsCount: number;
  /** Whether a protected branch or tag names the ref (a real push says; a sample guesses). */
  refProtected?: boolean;
}

function samplePush(ctx: PayloadContext, project: ProjectRow, tag: boolean): PushData {
  const after = sha();
  const user = ctx.user;
  return {
    before: tag ? '0000000000000000000000000000000000000000' : sha(),
    after,
    ref: tag ? 'refs/tags/v1.0.0' : `refs/heads/${project.default_branch ?? 'main'}`,
    checkoutSha: after,
    message: null,
    commits: tag
      ? []
      : [{ id: after, message: 'Update the README\n\nExplain how to start the service.', timestamp: nowIso(), author: { name: user?.name ?? 'Gatehouse', email: user?.email ?? 'gatehouse@example.com' }, added: ['docs/start.md'], modified: ['README.md'], removed: [] }],
    totalCommitsCount: tag ? 0 : 1,
  };
}

/** The push or tag push payload: of a real push when `push` is given, else a sample. */
export function pushPayload(ctx: PayloadContext, opts: { tag?: boolean; push?: PushData } = {}) {
  const project = sampleProject(ctx);
  const proj = projectObject(ctx.baseUrl, project, ctx.group);
  const push = opts.push ?? samplePush(ctx, project, opts.tag ?? false);
  const user = ctx.user;
  return {
    object_kind: opts.tag ? 'tag_push' : 'push',
    event_name: opts.tag ? 'tag_push' : 'push',
    before: push.before,
    after: push.after,
    ref: push.ref,
    ref_protected: push.refProtected ?? (push.ref === `refs/heads/${project.default_branch ?? 'main'}` || !!opts.tag),
    checkout_sha: push.checkoutSha,
    message: push.message,
    user_id: user?.id ?? 0,
    user_name: user?.name ?? 'Gatehouse',
    user_username: user?.username ?? 'gatehouse',
    user_email: user?.email ?? '',
    user_avatar: null,
    project_id: project.id,
    project: proj,
    commits: push.commits.map((c) => ({ ...c, title: c.message.split('\n')[0], url: `${proj.web_url}/-/commit/${c.id}` })),
    total_commits_count: push.totalCommitsCount,
    push_options: {},
    repository: repositoryObject(project, proj),
  };
}

const repositoryObject = (project: ProjectRow, proj: ReturnType<typeof projectObject>) => ({
  name: project.name,
  url: proj.url,
  description: project.description,
  homepage: proj.homepage,
  git_http_url: proj.git_http_url,
  git_ssh_url: proj.git_ssh_url,
  visibility_level: proj.visibility_level,
});

/** repository_update: once per push, every ref it changed. */
export function repositoryUpdatePayload(ctx: PayloadContext & { project: ProjectRow }, changes: { before: string; after: string; ref: string }[]) {
  const proj = projectObject(ctx.baseUrl, ctx.project, ctx.group);
  return {
    event_name: 'repository_update',
    user_id: ctx.user?.id ?? 0,
    user_name: ctx.user?.name ?? 'Gatehouse',
    user_email: ctx.user?.email ?? '',
    user_avatar: null,
    project_id: ctx.project.id,
    project: proj,
    changes,
    refs: changes.map((c) => c.ref),
  };
}

export function memberPayload(event: 'user_add_to_group' | 'user_update_for_group' | 'user_remove_from_group', group: GroupRow, user: UserRow, member: { access_level: number; expires_at: string | null; created_at: string; updated_at: string }) {
  const roles: Record<number, string> = { 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };
  return {
    created_at: member.created_at,
    updated_at: member.updated_at,
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    user_username: user.username,
    user_name: user.name,
    user_email: user.email,
    user_id: user.id,
    group_access: roles[member.access_level] ?? String(member.access_level),
    group_plan: null,
    expires_at: member.expires_at,
    event_name: event,
  };
}

export function subgroupPayload(event: 'subgroup_create' | 'subgroup_destroy', parent: GroupRow, subgroup: GroupRow) {
  return {
    created_at: subgroup.created_at,
    updated_at: subgroup.updated_at,
    event_name: event,
    name: subgroup.name,
    path: subgroup.path,
    full_path: subgroup.full_path,
    group_id: subgroup.id,
    parent_group_id: parent.id,
    parent_name: parent.name,
    parent_path: parent.path,
    parent_full_path: parent.full_path,
  };
}

export function projectPayload(event: 'project_create' | 'project_destroy', project: ProjectRow, namespace: GroupRow, owner: UserRow | null) {
  return {
    event_name: event,
    created_at: project.created_at,
    updated_at: project.last_activity_at,
    name: project.name,
    path: project.path,
    path_with_namespace: project.path_with_namespace,
    project_id: project.id,
    project_namespace_id: namespace.id,
    owners: owner ? [{ name: owner.name, email: owner.email }] : [],
    project_visibility: project.visibility,
  };
}

export function accessTokenPayload(event: string, group: GroupRow, token: { id: number; name: string; user_id: number; created_at: string; expires_at: string | null }) {
  return {
    object_kind: 'access_token',
    group: { group_name: group.name, group_path: group.path, group_id: group.id, full_path: group.full_path },
    object_attributes: { user_id: token.user_id, created_at: token.created_at, id: token.id, name: token.name, expires_at: token.expires_at },
    event_name: event,
  };
}

/** What the pipeline and job payloads are built from: rows read in the event's transaction. */
export interface PipelineEventContext {
  baseUrl: string;
  project: ProjectRow;
  group: GroupRow;
  pipeline: PipelineRow;
  users: Map<number, UserRow>;
}

const hookUser = (u: UserRow | undefined) => (u ? { id: u.id, name: u.name, username: u.username, avatar_url: null, email: u.email } : null);
const secondsBetween = (from: string | null, to: string | null) => (from && to ? Math.round((Date.parse(to) - Date.parse(from)) / 1000) : null);

function commitObject(ctx: PipelineEventContext) {
  const p = ctx.pipeline;
  return {
    id: p.sha,
    message: p.commit_message,
    title: p.commit_message.split('\n')[0],
    timestamp: p.committed_at,
    url: `${ctx.baseUrl}/${ctx.project.path_with_namespace}/-/commit/${p.sha}`,
    author: { name: p.commit_author_name, email: p.commit_author_email },
  };
}

/** The platform's Pipeline Hook payload (object_kind "pipeline"), with the pipeline's latest jobs as builds. */
export function pipelinePayload(ctx: PipelineEventContext & { jobs: PipelineJobRow[] }) {
  const p = ctx.pipeline;
  const proj = projectObject(ctx.baseUrl, ctx.project, ctx.group);
  const url = `${proj.web_url}/-/pipelines/${p.id}`;
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: p.id,
      iid: p.iid,
      name: null,
      ref: p.ref,
      tag: p.tag === 1,
      sha: p.sha,
      before_sha: p.before_sha,
      source: p.source,
      status: p.status,
      detailed_status: detailedStatusOf(p.status as PipelineStatus, new URL(url).pathname).label,
      stages: [...new Set(ctx.jobs.map((j) => j.stage))],
      created_at: p.created_at,
      finished_at: p.finished_at,
      duration: p.duration,
      queued_duration: p.queued_duration,
      variables: json<{ key: string; value: string }[]>(p.variables, []),
      url,
    },
    merge_request: null,
    user: hookUser(p.user_id === null ? undefined : ctx.users.get(p.user_id)),
    project: proj,
    commit: commitObject(ctx),
    source_pipeline: null,
    builds: ctx.jobs.map((j) => ({
      id: j.id,
      stage: j.stage,
      name: j.name,
      status: j.status,
      created_at: j.created_at,
      started_at: j.started_at,
      finished_at: j.finished_at,
      duration: secondsBetween(j.started_at, j.finished_at),
      queued_duration: secondsBetween(j.created_at, j.started_at),
      failure_reason: j.status === 'failed' ? 'api_failure' : null,
      when: 'on_success',
      manual: false,
      allow_failure: j.allow_failure === 1,
      user: hookUser(j.user_id === null ? undefined : ctx.users.get(j.user_id)),
      runner: null,
      artifacts_file: { filename: null, size: null },
      environment: null,
    })),
  };
}

/** The platform's Job Hook payload (object_kind "build") of one job. */
export function jobPayload(ctx: PipelineEventContext & { job: PipelineJobRow; retriesCount: number }) {
  const { pipeline: p, job: j } = ctx;
  const proj = projectObject(ctx.baseUrl, ctx.project, ctx.group);
  return {
    object_kind: 'build',
    ref: p.ref,
    tag: p.tag === 1,
    before_sha: p.before_sha,
    sha: p.sha,
    retries_count: ctx.retriesCount,
    build_id: j.id,
    build_name: j.name,
    build_stage: j.stage,
    build_status: j.status,
    build_created_at: j.created_at,
    build_started_at: j.started_at,
    build_finished_at: j.finished_at,
    build_duration: secondsBetween(j.started_at, j.finished_at),
    build_queued_duration: secondsBetween(j.created_at, j.started_at),
    build_allow_failure: j.allow_failure === 1,
    build_failure_reason: j.status === 'failed' ? 'api_failure' : 'unknown_failure',
    pipeline_id: p.id,
    runner: null,
    project_id: ctx.project.id,
    project_name: `${ctx.group.full_name} / ${ctx.project.name}`,
    user: hookUser(j.user_id === null ? undefined : ctx.users.get(j.user_id)),
    commit: {
      id: p.id,
      name: null,
      sha: p.sha,
      message: p.commit_message,
      author_name: p.commit_author_name,
      author_email: p.commit_author_email,
      author_url: null,
      status: p.status,
      duration: p.duration,
      started_at: p.started_at,
      finished_at: p.finished_at,
    },
    repository: {
      name: ctx.project.name,
      url: proj.url,
      description: ctx.project.description,
      homepage: proj.homepage,
      git_http_url: proj.git_http_url,
      git_ssh_url: proj.git_ssh_url,
      visibility_level: proj.visibility_level,
    },
    project: proj,
    environment: null,
  };
}

/** A realistic sample of each event kind, for POST …/hooks/:hook_id/test/:trigger. */
export function samplePayload(flag: HookFlag, ctx: PayloadContext): Record<string, unknown> {
  const user = ctx.user ?? ({ id: 0, username: 'gatehouse', name: 'Gatehouse', email: 'gatehouse@example.com', created_at: nowIso(), updated_at: nowIso() } as UserRow);
  const project = sampleProject(ctx);
  const proj = projectObject(ctx.baseUrl, project, ctx.group);
  const userObj = { id: user.id, name: user.name, username: user.username, avatar_url: null, email: user.email };
  const now = nowIso();
  switch (flag) {
    case 'push_events':
      return pushPayload(ctx);
    case 'tag_push_events':
      return pushPayload(ctx, { tag: true });
    case 'member_events':
      return memberPayload('user_add_to_group', ctx.group, user, { access_level: 30, expires_at: null, created_at: now, updated_at: now });
    case 'subgroup_events':
      return subgroupPayload('subgroup_create', ctx.group, { ...ctx.group, id: 0, name: 'Sample subgroup', path: 'sample-subgroup', full_path: `${ctx.group.full_path}/sample-subgroup` });
    case 'project_events':
      return projectPayload('project_create', project, ctx.group, user);
    case 'pipeline_events':
    case 'job_events': {
      const pipeline = samplePipeline(project, user, now);
      const job = { id: 1, pipeline_id: 1, project_id: project.id, name: 'test', stage: 'test', status: 'success', ref: pipeline.ref, sha: pipeline.sha, target_url: null, description: null, coverage: null, allow_failure: 0, retried: 0, user_id: user.id, created_at: now, updated_at: now, started_at: now, finished_at: now };
      const base = { baseUrl: ctx.baseUrl, project, group: ctx.group, pipeline, users: new Map([[user.id, user]]) };
      return flag === 'pipeline_events' ? pipelinePayload({ ...base, jobs: [job] }) : jobPayload({ ...base, job, retriesCount: 0 });
    }
    case 'resource_access_token_events':
      return accessTokenPayload('expiring_access_token', ctx.group, { id: 0, name: 'sample-token', user_id: user.id, created_at: now, expires_at: now.slice(0, 10) });
    default: {
      const kind = flag.replace(/_events$/, '').replace(/^confidential_/, '');
      const objectKind = kind === 'merge_requests' ? 'merge_request' : kind === 'issues' ? 'issue' : kind === 'releases' ? 'release' : kind;
      return {
        object_kind: objectKind,
        event_type: objectKind,
        user: userObj,
        project: proj,
        repository: { name: project.name, url: proj.url, description: project.description, homepage: proj.homepage },
        object_attributes: { id: 1, iid: 1, title: `Sample ${objectKind.replace(/_/g, ' ')}`, created_at: now, updated_at: now, action: 'open', url: `${proj.web_url}/-/${objectKind}s/1`, confidential: flag.startsWith('confidential_') },
      };
    }
  }
}

/** A finished pipeline on the default branch, standing in for the test event. */
function samplePipeline(project: ProjectRow, user: UserRow, now: string): PipelineRow {
  return {
    id: 1, iid: 1, project_id: project.id, sha: sha(), before_sha: sha(), ref: project.default_branch ?? 'main', tag: 0, status: 'success', source: 'push',
    user_id: user.id, trigger_id: null, variables: '[]', inputs: '{}', coverage: null, commit_message: 'Update the README', commit_author_name: user.name,
    commit_author_email: user.email, committed_at: now, started_at: now, finished_at: now, duration: 0, queued_duration: 0, created_at: now, updated_at: now,
  };
}
