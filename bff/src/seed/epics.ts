import type { Db } from '../db/index.ts';
import type { GroupRow, UserRow } from '../db/schema.ts';
import { ACCESS_LEVELS } from '../../../shared/src/roles.ts';
import { epicCreateBody } from '../../../shared/src/epics.ts';
import { createEpic, updateEpic } from '../services/planning/epics.ts';
import { addDays } from '../util/time.ts';

/**
 * Demo epics on Acme and its Platform subgroup, made through the epics service: a quarter's
 * roadmap with child epics in the subgroup, one closed, one confidential, fixed dates around today.
 */
export async function seedEpics(db: Db, acme: GroupRow, people: Record<string, UserRow>): Promise<void> {
  const platform = await db.selectFrom('groups').selectAll().where('parent_id', '=', acme.id).where('path', '=', 'platform').executeTakeFirstOrThrow();
  const as = (user: UserRow) => ({ user, via: 'token' as const, scopes: ['api'] });
  const make = (group: GroupRow, who: UserRow, body: object) => createEpic(db, as(who), group, ACCESS_LEVELS.owner, epicCreateBody.parse(body));
  const roadmap = await make(acme, people.alice, {
    title: 'Q3 roadmap: self-service onboarding',
    description: 'Customers sign up, pay and get an environment without talking to us.',
    start_date_is_fixed: true,
    start_date_fixed: addDays(-30),
    due_date_is_fixed: true,
    due_date_fixed: addDays(60),
  });
  await make(platform, people.bob, { title: 'Billing: usage-based plans', description: 'Meter API calls and bill monthly.', parent_id: roadmap.id, due_date_is_fixed: true, due_date_fixed: addDays(45) });
  await make(platform, people.carol, { title: 'Auth service: single sign-on', description: 'SAML and OIDC for enterprise customers.', parent_id: roadmap.id });
  const migration = await make(platform, people.bob, { title: 'Retire the legacy gateway', description: 'Move the last routes to api-gateway.', start_date_is_fixed: true, start_date_fixed: addDays(-90), due_date_is_fixed: true, due_date_fixed: addDays(-10) });
  await updateEpic(db, as(people.bob), platform, migration, { state_event: 'close' });
  await make(acme, people.dave, { title: 'Incident response drill', description: 'Plan for the yearly drill; details stay internal.', confidential: true });
  await make(acme, people.alice, { title: 'Website redesign', description: 'A faster, accessible website.', color: '#6699cc' });
}
