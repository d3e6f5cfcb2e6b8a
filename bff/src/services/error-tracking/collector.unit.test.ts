import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../../db/index.ts';
import { createUser } from '../access/users.ts';
import { createGroup } from '../groups/groups.ts';
import { createProject } from '../groups/projects.ts';
import { record } from './collector.ts';
import { parseStore } from './sentry-payload.ts';

let db: Db;
let projectId: number;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
  const owner = await createUser(db, { username: 'owner', name: 'Owner', email: 'owner@example.com', password: 'password1' });
  const group = await createGroup(db, owner, { name: 'Apps', path: 'apps', visibility: 'private' }, null);
  projectId = (await createProject(db, owner, group, { name: 'Web', namespace_id: group.id, visibility: 'private' })).id;
});
after(() => db.destroy());

const event = (message: string) => parseStore(Buffer.from(JSON.stringify({ event_id: crypto.randomUUID().replaceAll('-', ''), message, level: 'error', platform: 'node' })));
const messages = async () => (await db.selectFrom('error_tracking_error_events').select('description').orderBy('id').execute()).map((r) => r.description);

describe('the collector’s group commit', () => {
  it('writes envelopes that arrive while a batch is written together, and one that cannot be written fails alone', async () => {
    // The first starts a transaction at once; the three after it wait and go in one batch, in
    // which the envelope for a project that does not exist breaks the foreign key: that batch is
    // written again one envelope at a time, so only that one fails.
    const first = record(db, projectId, event('first'), undefined);
    const before = record(db, projectId, event('before the bad one'), undefined);
    const bad = record(db, 987654321, event('for no project'), undefined);
    const afterBad = record(db, projectId, event('after the bad one'), undefined);
    const outcomes = await Promise.allSettled([first, before, bad, afterBad]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((outcomes[2] as PromiseRejectedResult).reason), /FOREIGN KEY/);
    assert.deepEqual(await messages(), ['first', 'before the bad one', 'after the bad one']);
    const [error] = await db.selectFrom('error_tracking_errors').select(['events_count']).where('project_id', '=', 987654321).execute();
    assert.equal(error, undefined, 'nothing of the failed envelope was kept');
  });
});
