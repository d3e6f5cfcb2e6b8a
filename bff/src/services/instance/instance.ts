import fs from 'node:fs';
import type { Db } from '../../db/index.ts';
import { isPostgres } from '../../db/dialect.ts';
import { nowIso } from '../../util/time.ts';
import type { InstanceOverview } from '../../../../shared/src/instance.ts';

export const VERSION = (JSON.parse(fs.readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const countOf = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) => Number((await query.executeTakeFirstOrThrow()).n);

/** What an administrator checks first: what runs, how much it holds, and whether background work keeps up. */
export async function instanceOverview(db: Db): Promise<Omit<InstanceOverview, 'sign_in'>> {
  const users = db.selectFrom('users').select((eb) => eb.fn.countAll().as('n'));
  const [people, bots, blocked, admins, groups, projects, hooks] = await Promise.all([
    countOf(users.where('bot', '=', 0)),
    countOf(users.where('bot', '=', 1)),
    countOf(users.where('state', '=', 'blocked')),
    countOf(users.where('is_admin', '=', 1)),
    countOf(db.selectFrom('groups').select((eb) => eb.fn.countAll().as('n'))),
    countOf(db.selectFrom('projects').select((eb) => eb.fn.countAll().as('n'))),
    countOf(db.selectFrom('web_hooks').select((eb) => eb.fn.countAll().as('n'))),
  ]);
  const byState = new Map(
    (await db.selectFrom('jobs').select(['state', (eb) => eb.fn.countAll().as('n')]).groupBy('state').execute()).map((r) => [r.state, Number(r.n)]),
  );
  const oldest = await db.selectFrom('jobs').select((eb) => eb.fn.min('run_at').as('t')).where('state', '=', 'pending').where('run_at', '<=', nowIso()).executeTakeFirst();
  const failure = await db.selectFrom('jobs').select(['kind', 'last_error', 'updated_at']).where('state', '=', 'failed').orderBy('updated_at', 'desc').limit(1).executeTakeFirst();
  return {
    version: VERSION,
    database: isPostgres(db) ? 'postgresql' : 'sqlite',
    counts: { users: people, bots, blocked_users: blocked, admins, groups, projects, hooks },
    jobs: {
      pending: byState.get('pending') ?? 0,
      running: byState.get('running') ?? 0,
      failed: byState.get('failed') ?? 0,
      oldest_due_at: oldest?.t ?? null,
      last_failure: failure ? { kind: failure.kind, error: failure.last_error, at: failure.updated_at } : null,
    },
  };
}
