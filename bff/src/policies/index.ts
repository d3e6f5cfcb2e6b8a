import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import type { GroupRow, ProjectRow } from '../db/schema.ts';
import { isAdmin, type Actor } from '../auth/actor.ts';

/**
 * Every permission rule in one place. Group and project twins (members, hooks) ask for one
 * action name; the rule that applies is the one of the resource the route loaded. A route names the action it needs; the rule decides
 * from the actor, the resource and the actor's effective role on it.
 */
export interface GroupSubject {
  group: GroupRow;
  level: number;
}
export interface ProjectSubject {
  project: ProjectRow;
  group: GroupRow;
  level: number;
}

const signedIn = (a: Actor) => a.user !== null;
/** Visibility alone: public for everyone, internal for any signed-in user who is not external. */
function visibleByLevel(a: Actor, visibility: string): boolean {
  if (visibility === 'public') return true;
  if (visibility === 'internal') return signedIn(a) && a.user?.external !== 1;
  return false;
}

const PROJECT_CREATION_LEVEL: Record<string, number> = {
  developer: L.developer,
  maintainer: L.maintainer,
  owner: L.owner,
  noone: Infinity,
  administrator: Infinity,
};

/** The rule of most actions: an administrator, or a role of at least `level` on the resource. */
const atLeast =
  (level: number) =>
  (a: Actor, s: { level: number }): boolean =>
    isAdmin(a) || s.level >= level;

const readGroup = (a: Actor, s: GroupSubject) => atLeast(L.guest)(a, s) || visibleByLevel(a, s.group.visibility);

/**
 * A read of a project's things as data: a role of at least `role` on the project (or its
 * group tree), or, where `byVisibility`, being someone who sees the project by its visibility.
 * The project rules below are made from these entries, and the lists that span projects and
 * the activity feeds filter by the same entries in SQL (services/readable.ts), so a list never
 * shows what the thing's own route refuses.
 */
export interface ProjectRead {
  role: number;
  byVisibility: boolean;
}
export const PROJECT_READS = {
  read_project: { role: L.guest, byVisibility: true },
  /** Clone and fetch: anyone who may see a public or internal project; Reporters and up of a private one. */
  download_code: { role: L.reporter, byVisibility: true },
  /** Pipelines and commit statuses: as the code (public pipelines of a public project, Reporters of a private one). */
  read_pipeline: { role: L.reporter, byVisibility: true },
  /** Merge requests: as the code. */
  read_merge_request: { role: L.reporter, byVisibility: true },
  /** The vulnerability report: Developers and up, as the platform's read_vulnerability. */
  read_vulnerability: { role: L.developer, byVisibility: false },
  /** Security exports (the platform's read_security_resource): Developers and up. */
  create_vulnerability_export: { role: L.developer, byVisibility: false },
  /** The dependency list and its exports: Developers and up, as on the platform. */
  read_dependency: { role: L.developer, byVisibility: false },
  /**
   * Anyone's confidential issues and internal notes: Reporters and up (an issue's author and
   * assignees see their own confidential issue: the issue rule, services/readable.ts).
   */
  read_confidential: { role: L.reporter, byVisibility: false },
  /** Snippets whatever their own visibility: members (others see a snippet by its visibility). */
  read_all_snippets: { role: L.guest, byVisibility: false },
} as const satisfies Record<string, ProjectRead>;
export type ProjectReadAction = keyof typeof PROJECT_READS;

const byRead =
  ({ role, byVisibility }: ProjectRead) =>
  (a: Actor, s: ProjectSubject): boolean =>
    atLeast(role)(a, s) || (byVisibility && visibleByLevel(a, s.project.visibility));
const readProject = byRead(PROJECT_READS.read_project);

/**
 * What an activity event is about decides the read it needs, as on the platform (its
 * Event#visible_to_user?): a push needs the code, a merge request (or a comment on one) the
 * merge request, a vulnerability the vulnerability report; an issue (or a comment on one)
 * follows the issue rule and a comment on a snippet the snippet's; an internal comment needs
 * read_confidential besides; anything else (a project created, a member joined, a milestone)
 * the project. Event kinds not named here are shown to no one but administrators.
 */
export const EVENT_READS = {
  push: 'download_code',
  MergeRequest: 'read_merge_request',
  Vulnerability: 'read_vulnerability',
  Issue: 'read_project',
  Snippet: 'read_project',
  Milestone: 'read_project',
  untargeted: 'read_project',
} as const satisfies Record<string, ProjectReadAction>;

/** Reads of a group's security data as data, for the same reason as PROJECT_READS: a role of at least `role` on the group (or an ancestor). */
export const GROUP_READS = {
  /** Security exports (the platform's read_security_resource): Developers and up. */
  create_vulnerability_export: { role: L.developer },
  /** The dependency list and its exports: Developers and up, as on the platform. */
  read_dependency: { role: L.developer },
} as const satisfies Record<string, { role: number }>;
export type GroupReadAction = keyof typeof GROUP_READS;

export const groupRules = {
  read_group: readGroup,
  read_members: readGroup,
  /** Owner-only details of a group (runners token, git access protocol, download limits). */
  read_group_settings: atLeast(L.owner),
  admin_group: atLeast(L.owner),
  remove_group: atLeast(L.owner),
  admin_members: atLeast(L.maintainer),
  /** Invitations by email: Owners, as the platform's admin_group (members are added by Maintainers). */
  admin_invitations: atLeast(L.owner),
  /** Group hooks carry the events of every project below: Owners only. */
  admin_hooks: atLeast(L.owner),
  admin_deploy_tokens: atLeast(L.maintainer),
  /** Revoking any leaked credential of the tree by its plaintext. */
  revoke_group_tokens: atLeast(L.owner),
  /** Milestones, iteration cadences and iterations: Reporters plan (the platform's admin_milestone, admin_iteration_cadence). */
  admin_milestones: atLeast(L.reporter),
  /** Deleting a group milestone needs a Developer (spec: Group milestones). */
  destroy_milestones: atLeast(L.developer),
  create_subgroup: (a: Actor, s: GroupSubject) =>
    atLeast(s.group.subgroup_creation_level === 'owner' ? L.owner : L.maintainer)(a, s),
  create_project: (a: Actor, s: GroupSubject) =>
    atLeast(PROJECT_CREATION_LEVEL[s.group.project_creation_level] ?? L.maintainer)(a, s),
  /** Create, edit, close and reopen epics: Reporters and up. */
  admin_epic: atLeast(L.reporter),
  /** Group labels: Reporters manage them, as on the platform. */
  admin_label: atLeast(L.reporter),
  /** Group CI/CD variables (their values among them): Owners, as the platform's admin_cicd_variables. */
  admin_cicd_variables: atLeast(L.owner),
  create_vulnerability_export: atLeast(GROUP_READS.create_vulnerability_export.role),
  read_dependency: atLeast(GROUP_READS.read_dependency.role),
  /** The group's vulnerability report (every project below): Developers and up, as the project's read_vulnerability. */
  read_vulnerability: atLeast(PROJECT_READS.read_vulnerability.role),
  /** Exporting a group (its archive holds every subgroup, member and epic): Owners, as on the platform. */
  export_group: atLeast(L.owner),
  /** Placeholder users of imports and their reassignment: Owners (spec: Placeholder reassignments). */
  admin_placeholders: atLeast(L.owner),
  /**
   * Maven virtual registries: their registries, upstreams and cached files are read (and
   * pulled through) by members, Guests and up; managed by Maintainers, as on the platform.
   * Anyone else who sees a public group is refused (403), as there.
   */
  read_virtual_registry: atLeast(L.guest),
  admin_virtual_registry: atLeast(L.maintainer),
} satisfies Record<string, (a: Actor, s: GroupSubject) => boolean>;

export const projectRules = {
  read_project: readProject,
  read_members: readProject,
  admin_project: atLeast(L.maintainer),
  admin_members: atLeast(L.maintainer),
  /** Invitations by email: Maintainers, as the platform's admin_project. */
  admin_invitations: atLeast(L.maintainer),
  admin_hooks: atLeast(L.maintainer),
  remove_project: atLeast(L.owner),
  /** Transfer to another namespace (the platform's change_namespace): Owners. */
  change_namespace: atLeast(L.owner),
  download_code: byRead(PROJECT_READS.download_code),
  /** Push to unprotected branches. */
  push_code: atLeast(L.developer),
  /** Push to the default branch, which is protected by default: Maintainers. */
  push_to_default_branch: atLeast(L.maintainer),
  read_pipeline: byRead(PROJECT_READS.read_pipeline),
  /** Report an external CI's job (commit status API), cancel and retry pipelines, read their variables. */
  update_pipeline: atLeast(L.developer),
  destroy_pipeline: atLeast(L.owner),
  /** Project CI/CD variables (their values among them): Maintainers, as the platform's admin_cicd_variables. */
  admin_cicd_variables: atLeast(L.maintainer),
  /** Pipeline trigger tokens, as the platform's admin_build: Maintainers. */
  admin_pipeline_triggers: atLeast(L.maintainer),
  /** Upload scanner reports and SBOMs to a pipeline: as reporting a CI job. */
  create_security_report: atLeast(L.developer),
  read_vulnerability: byRead(PROJECT_READS.read_vulnerability),
  /** Confirm, dismiss, resolve, revert: Maintainers and up since the platform's 17.0. */
  admin_vulnerability: atLeast(L.maintainer),
  /** Issues and notes: whoever can see the project may open and comment on its issues (when signed in). */
  create_issue: (a: Actor, s: ProjectSubject) => signedIn(a) && readProject(a, s),
  /** Triage (labels, assignees, milestone, state) of anyone's issues: Reporters; authors edit their own in the service. */
  admin_issue: atLeast(L.reporter),
  destroy_issue: atLeast(L.owner),
  create_note: (a: Actor, s: ProjectSubject) => signedIn(a) && readProject(a, s),
  read_merge_request: byRead(PROJECT_READS.read_merge_request),
  /** Developers open and update merge requests. */
  create_merge_request: atLeast(L.developer),
  update_merge_request: atLeast(L.developer),
  /** Approve a merge request and take the approval back: Developers and up (the platform's approve_merge_request); the author is refused in the service. */
  approve_merge_request: atLeast(L.developer),
  /** Project labels: Reporters. */
  admin_label: atLeast(L.reporter),
  /** Project milestones: Reporters create, change and delete them (the platform's admin_milestone). */
  admin_milestones: atLeast(L.reporter),
  destroy_milestones: atLeast(L.reporter),
  /** Project snippets: Reporters and up write them; changing one more is for its author or a Maintainer (services/snippets.ts). */
  create_snippet: atLeast(L.reporter),
  create_vulnerability_export: byRead(PROJECT_READS.create_vulnerability_export),
  read_dependency: byRead(PROJECT_READS.read_dependency),
  read_confidential: byRead(PROJECT_READS.read_confidential),
  read_all_snippets: byRead(PROJECT_READS.read_all_snippets),
  /** Integrated error tracking: its setting and client keys for Maintainers (the platform's admin_operations); its errors read and triaged by Reporters. */
  admin_error_tracking: atLeast(L.maintainer),
  read_error_tracking: atLeast(L.reporter),
  update_error_tracking: atLeast(L.reporter),
  /** Container repository protection rules: Maintainers (the platform's admin_container_image). */
  admin_container_image: atLeast(L.maintainer),
  /**
   * What the registry's token service grants (the platform's read/create/destroy_container_image):
   * pulls as the code (anyone who sees a public or internal project, Reporters of a private one),
   * pushes for Developers, deletes for Maintainers. Protection rules may then refuse more.
   */
  read_container_image: byRead(PROJECT_READS.download_code),
  create_container_image: atLeast(L.developer),
  destroy_container_image: atLeast(L.maintainer),
} satisfies Record<string, (a: Actor, s: ProjectSubject) => boolean>;

export const instanceRules = {
  admin_instance: (a: Actor) => isAdmin(a),
  /** Feature flags (the Features API and the console's screen of them): administrators, as the platform's authenticated_as_admin!. */
  admin_features: (a: Actor) => isAdmin(a),
  create_group: (a: Actor) => isAdmin(a) || a.user?.can_create_group === 1,
  read_users: (a: Actor) => signedIn(a),
  /** The spec's administrator-only parameters: statistics, custom attributes. */
  read_admin_fields: (a: Actor) => isAdmin(a),
  read_self: (a: Actor) => signedIn(a),
} satisfies Record<string, (a: Actor) => boolean>;

/** A user's private fields (email, sign-in times…): the user themself and administrators. */
export const canReadUserPrivate = (a: Actor, user: { id: number }) => isAdmin(a) || a.user?.id === user.id;

export type GroupAction = keyof typeof groupRules;
export type ProjectAction = keyof typeof projectRules;
export type InstanceAction = keyof typeof instanceRules;
export type Action = GroupAction | ProjectAction | InstanceAction;

export const canGroup = (a: Actor, action: GroupAction, s: GroupSubject) => groupRules[action](a, s);
export const canProject = (a: Actor, action: ProjectAction, s: ProjectSubject) => projectRules[action](a, s);
export const canInstance = (a: Actor, action: InstanceAction) => instanceRules[action](a);

export const isGroupAction = (a: string): a is GroupAction => a in groupRules;
export const isProjectAction = (a: string): a is ProjectAction => a in projectRules;
export const isInstanceAction = (a: string): a is InstanceAction => a in instanceRules;
