import type { Db } from '../db/index.ts';
import type { GroupRow, ProjectRow, UserRow } from '../db/schema.ts';
import { createCadence } from '../services/planning/iteration-cadences.ts';
import { ITERATION_STATES, iterationCadenceCreateBody } from '../../../shared/src/iterations.ts';
import { recordIterationEvents } from '../services/planning/resource-iteration-events.ts';

const DAY = 86_400_000;
const at = (days: number, hour = 10) => new Date(Date.now() + days * DAY).toISOString().replace(/T.*/, `T${String(hour).padStart(2, '0')}:00:00.000Z`);
const date = (days: number) => at(days).slice(0, 10);

/** A small deterministic generator, so every demo database tells the same story. */
function random(seed: number) {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

interface Plan {
  title: string;
  description: string;
  start: number;
  due: number;
  closed: boolean;
  issues: number;
  /** The share of the issues done by the end (or by today). */
  done: number;
}

const PLANS: Plan[] = [
  { title: 'Sprint 14', description: 'Checkout rework and the pricing page.', start: -42, due: -29, closed: true, issues: 10, done: 1 },
  { title: 'Sprint 15', description: 'Dark mode, accessibility fixes and the release of the new docs.', start: -20, due: 7, closed: false, issues: 16, done: 0.6 },
  { title: 'Q3 launch', description: 'Everything the public launch needs.', start: 14, due: 60, closed: false, issues: 5, done: 0 },
];

const TITLES = ['Fix the broken footer link', 'Dark mode for the docs', 'Keyboard focus on the pricing table', 'Faster landing page', 'Translate the checkout', 'Alt texts on the gallery', 'Cache the avatars', 'Retry failed uploads', 'Sitemap for search engines', 'Contrast of the links', 'Remove the old banner', 'Newsletter sign-up form', 'Explain the pricing tiers', 'Status page link', 'Shorter build times', 'Broken anchor in the FAQ'];

/**
 * Milestones of the demo group whose issues joined, changed weight, closed and left over
 * several weeks (backdated events, as a team's real history would leave them), so the burndown
 * charts look like a team's; and an automatic two-week iteration cadence.
 */
export async function seedMilestones(db: Db, group: GroupRow, project: ProjectRow, people: UserRow[]): Promise<void> {
  const rnd = random(group.id * 7919);
  const maxIid = await db.selectFrom('issues').select((eb) => eb.fn.max('iid').as('max')).where('project_id', '=', project.id).executeTakeFirst();
  let iid = Number(maxIid?.max ?? 0);
  for (const [n, plan] of PLANS.entries()) {
    const now = new Date().toISOString();
    const { id: milestoneId } = await db
      .insertInto('milestones')
      .values({ group_id: group.id, project_id: null, iid: n + 1, title: plan.title, description: plan.description, state: plan.closed ? 'closed' : 'active', start_date: date(plan.start), due_date: date(plan.due), created_at: at(plan.start - 3), updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const lastDay = Math.min(plan.due, 0);
    for (let i = 0; i < plan.issues; i++) {
      const who = people[i % people.length];
      // Most issues are planned before the start; a few arrive mid-way.
      const joined = plan.start + (i < plan.issues * 0.75 ? -Math.floor(rnd() * 3) : Math.floor(rnd() * Math.max(1, lastDay - plan.start)));
      const weight = 1 + Math.floor(rnd() * 5);
      const closesOn = i < Math.round(plan.issues * plan.done) ? Math.min(lastDay, Math.max(joined, plan.start) + 1 + Math.floor(rnd() * Math.max(1, lastDay - plan.start))) : null;
      const closed = closesOn !== null && closesOn <= 0;
      const { id: issueId } = await db
        .insertInto('issues')
        .values({
          project_id: project.id,
          iid: ++iid,
          author_id: who.id,
          title: TITLES[(i + n * 5) % TITLES.length],
          description: `Planned for ${plan.title}.`,
          state: closed ? 'closed' : 'opened',
          milestone_id: milestoneId,
          weight,
          closed_at: closed ? at(closesOn, 15) : null,
          closed_by_id: closed ? who.id : null,
          created_at: at(joined - 1),
          updated_at: at(closed ? closesOn : joined, 15),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (i % 3 === 1) await db.insertInto('issue_assignees').values({ issue_id: issueId, user_id: who.id }).execute();
      await db.insertInto('resource_milestone_events').values({ user_id: who.id, issue_id: issueId, merge_request_id: null, milestone_id: milestoneId, action: 'add', state: 'opened', created_at: at(joined) }).execute();
      // Re-estimated once under way: the weight line moves as well as the count.
      if (i % 5 === 2 && joined + 2 <= lastDay) await db.insertInto('resource_weight_events').values({ user_id: who.id, issue_id: issueId, weight, created_at: at(joined + 2, 11) }).execute();
      if (closed) await db.insertInto('resource_state_events').values({ user_id: who.id, issue_id: issueId, merge_request_id: null, epic_id: null, state: 'closed', source_commit: null, source_merge_request_id: null, created_at: at(closesOn, 15) }).execute();
    }
  }
  const monday = -((new Date().getUTCDay() + 6) % 7) - 28;
  const cadence = await createCadence(db, group, iterationCadenceCreateBody.parse({ title: 'Two-week sprints', description: 'The product team’s sprints.', start_date: date(monday), duration_in_weeks: 2, iterations_in_advance: 3, roll_over: true }));
  // A few open issues planned in the current sprint, so the Iterations screen shows what rolls over.
  const current = await db.selectFrom('iterations').select('id').where('iteration_cadence_id', '=', cadence.id).where('state', '=', ITERATION_STATES.current).executeTakeFirst();
  if (!current) return;
  const planned = await db.selectFrom('issues').select(['id', 'author_id']).where('project_id', '=', project.id).where('state', '=', 'opened').orderBy('id').limit(4).execute();
  for (const issue of planned) {
    await db.updateTable('issues').set({ iteration_id: current.id }).where('id', '=', issue.id).execute();
    await recordIterationEvents(db, issue.author_id === null ? null : { id: issue.author_id }, [issue.id], current.id, 'add');
  }
}
