import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Database, IssueRow } from '../db/schema.ts';
import { isAdmin, type Actor } from '../auth/actor.ts';
import { canProject, EVENT_READS, GROUP_READS, PROJECT_READS, type GroupReadAction, type ProjectReadAction, type ProjectSubject } from './index.ts';
import { inTrees, memberTraversals, projectMember, visibleLevels } from './visibility.ts';

/**
 * The read rules of policies/ as SQL conditions, for everything that shows things of many
 * projects at once: lists that span projects (a group's merge requests and issues, a
 * milestone's, a burndown), activity feeds, exports and the security dashboard. Each condition
 * is made from the same entry (PROJECT_READS, GROUP_READS, EVENT_READS) as the rule the thing's
 * own route checks, so a list cannot show what that route refuses.
 */

type ProjectsEb = ExpressionBuilder<Database, 'projects'>;
type IssuesEb = ExpressionBuilder<Database, 'issues'>;
type EventsEb = ExpressionBuilder<Database, 'events'>;
type Condition = Expression<SqlBool>;

const ALL = sql<boolean>`1 = 1`;
const NONE = sql<boolean>`1 = 0`;

/**
 * The projects where the actor may do `read`: a role of at least the read's on the project or
 * its group tree, or (where the read allows it) the project's visibility. `levelInTree`: the
 * actor's role in a group whose tree holds every project the query looks at (a group's lists);
 * at or above the read's role, each of them qualifies and no membership need be searched.
 */
export function projectsReadable(actor: Actor, read: ProjectReadAction, levelInTree = 0): (eb: ProjectsEb) => Condition {
  const { role, byVisibility } = PROJECT_READS[read];
  return (eb) => {
    if (isAdmin(actor) || levelInTree >= role) return ALL;
    const ways: Condition[] = [];
    if (byVisibility) ways.push(eb('projects.visibility', 'in', visibleLevels(actor)));
    if (actor.user) ways.push(projectMember(eb, actor.user.id, role));
    return ways.length ? eb.or(ways) : NONE;
  };
}

/** The ids of the projects where the actor may do `read`, as a subquery. */
export const readableProjectIds = (db: Db, actor: Actor, read: ProjectReadAction) => db.selectFrom('projects').select('projects.id').where(projectsReadable(actor, read));

/** The ids of the groups where the actor may do `read` (a role of at least its own there or on an ancestor), as a subquery. */
export async function readableGroupIds(db: Db, actor: Actor, read: GroupReadAction) {
  const all = db.selectFrom('groups').select('groups.id');
  if (isAdmin(actor)) return all;
  const trees = actor.user ? await memberTraversals(db, actor.user.id, GROUP_READS[read].role) : [];
  return all.where((eb) => inTrees(eb, trees));
}

/**
 * The confidentiality half of the issue rule: an issue that is not confidential, or one the
 * actor wrote or is assigned to, or one where the actor reads confidential issues
 * (`readsConfidential`, a condition on the issue's project).
 */
export function confidentialIssueVisible(eb: IssuesEb, actor: Actor, readsConfidential: Condition): Condition {
  if (isAdmin(actor)) return ALL;
  const me = actor.user?.id ?? -1;
  return eb.or([
    eb('issues.confidential', '=', 0),
    readsConfidential,
    eb('issues.author_id', '=', me),
    eb.exists(eb.selectFrom('issue_assignees as ia').select('ia.user_id').whereRef('ia.issue_id', '=', 'issues.id').where('ia.user_id', '=', me)),
  ]);
}

/**
 * The issue rule for one issue of a project the actor reads: a confidential one is seen by its
 * author, its assignees, and those who read confidential issues (Reporters and up, administrators).
 */
export async function canSeeIssue(db: Db, actor: Actor, subject: ProjectSubject, issue: IssueRow): Promise<boolean> {
  if (!issue.confidential || canProject(actor, 'read_confidential', subject)) return true;
  const me = actor.user?.id;
  if (me === undefined) return false;
  if (issue.author_id === me) return true;
  return (await db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', issue.id).where('user_id', '=', me).executeTakeFirst()) !== undefined;
}

/**
 * Issues the actor may see: of a project they read, and a confidential one by the issue rule.
 * `levelInTree` as for projectsReadable, where every issue looked at is in one group's tree.
 */
export function issuesReadable(db: Db, actor: Actor, levelInTree = 0): (eb: IssuesEb) => Condition {
  const projectsWhere = (read: ProjectReadAction) => (isAdmin(actor) || levelInTree >= PROJECT_READS[read].role ? null : readableProjectIds(db, actor, read));
  return (eb) => {
    const on = (read: ProjectReadAction) => {
      const ids = projectsWhere(read);
      return ids ? eb('issues.project_id', 'in', ids) : ALL;
    };
    return eb.and([on('read_project'), confidentialIssueVisible(eb, actor, on('read_confidential'))]);
  };
}

/** The ids of the issues the actor may see, as a subquery. */
export const readableIssueIds = (db: Db, actor: Actor) => db.selectFrom('issues').select('issues.id').where(issuesReadable(db, actor));

/**
 * Whether the actor may do a read on an event's project: a subquery test where events of many
 * projects are listed, a known answer where they are one project's (see eventsReadable).
 */
export type ReadsOnProject = (eb: EventsEb, read: ProjectReadAction) => Condition;

export const readsAcrossProjects =
  (db: Db, actor: Actor): ReadsOnProject =>
  (eb, read) =>
    isAdmin(actor) ? ALL : eb('events.project_id', 'in', readableProjectIds(db, actor, read));

/** `may`: the answers of the policies for the one project whose events are listed. */
export const readsInProject =
  (may: (read: ProjectReadAction) => boolean): ReadsOnProject =>
  (_eb, read) =>
    may(read) ? ALL : NONE;

/**
 * Events the actor may see, each by what it is about (EVENT_READS): pushes by the code, merge
 * requests by theirs, issues by the issue rule, comments by their noteable's rule (and internal
 * ones by read_confidential), vulnerabilities by the vulnerability report; untargeted events and
 * milestones by the project. A target type the table does not name is hidden.
 */
export function eventsReadable(actor: Actor, reads: ReadsOnProject): (eb: EventsEb) => Condition {
  return (eb) => {
    if (isAdmin(actor)) return ALL;
    const on = (read: ProjectReadAction) => reads(eb, read);
    const issueSeen = (issueId: Expression<number>) =>
      eb.exists(
        eb
          .selectFrom('issues')
          .select('issues.id')
          .where('issues.id', '=', issueId)
          .where((i) => confidentialIssueVisible(i as unknown as IssuesEb, actor, on('read_confidential'))),
      );
    const snippetSeen = (snippetId: Expression<number>) =>
      eb.exists(
        eb
          .selectFrom('snippets')
          .select('snippets.id')
          .where('snippets.id', '=', snippetId)
          .where((s) => s.or([s('snippets.visibility', 'in', visibleLevels(actor)), on('read_all_snippets')])),
      );
    const noteSeen = eb.exists(
      eb
        .selectFrom('notes as n')
        .select('n.id')
        .whereRef('n.id', '=', 'events.target_id')
        .where((n) => n.or([n('n.internal', '=', 0), on('read_confidential')]))
        .where((n) =>
          n.or([
            n.and([n('n.noteable_type', '=', 'Issue'), on(EVENT_READS.Issue), issueSeen(n.ref('n.noteable_id'))]),
            n.and([n('n.noteable_type', '=', 'MergeRequest'), on(EVENT_READS.MergeRequest)]),
            n.and([n('n.noteable_type', '=', 'Snippet'), on(EVENT_READS.Snippet), snippetSeen(n.ref('n.noteable_id'))]),
          ]),
        ),
    );
    const type = (t: string) => eb('events.target_type', '=', t);
    return eb.or([
      eb.and([eb('events.target_type', 'is', null), eb('events.push_data', 'is not', null), on(EVENT_READS.push)]),
      eb.and([eb('events.target_type', 'is', null), eb('events.push_data', 'is', null), on(EVENT_READS.untargeted)]),
      eb.and([type('MergeRequest'), on(EVENT_READS.MergeRequest)]),
      eb.and([type('Issue'), on(EVENT_READS.Issue), issueSeen(eb.ref('events.target_id') as Expression<number>)]),
      eb.and([type('Vulnerability'), on(EVENT_READS.Vulnerability)]),
      eb.and([type('Milestone'), on(EVENT_READS.Milestone)]),
      eb.and([eb('events.target_type', 'in', ['Note', 'DiffNote']), noteSeen]),
    ]);
  };
}

/**
 * Every read an event may need, for the one-project list's shortcut: a caller who may do all of
 * them sees every event of the project.
 */
export const EVENT_READ_ACTIONS: ProjectReadAction[] = [...new Set([...Object.values(EVENT_READS), 'read_confidential', 'read_all_snippets'] as ProjectReadAction[])];
