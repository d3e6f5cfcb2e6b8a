import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../../db/index.ts';
import { up as migrateFeatures } from '../../db/migrations/028_features.ts';
import { actorBucket, defaultOf, flags, openFor, stateOf, useEnvironmentDefaults, type StoredFeature } from './features.ts';
import { setFeature } from './feature-gates.ts';
import { getSettings } from './application-settings.ts';
import { featureSetBody } from '../../../../shared/src/features.ts';

const flag = (gates: Partial<StoredFeature>): StoredFeature => ({ name: 'f', boolean: false, percentageOfActors: null, percentageOfTime: null, actors: [], ...gates });
const project = (id: number) => ({ kind: 'project' as const, id });

describe('what a flag’s gates decide (Flipper’s rules, with the platform’s opt-outs)', () => {
  it('on for everyone, for the actors named, and off for an actor who opted out', () => {
    assert.equal(openFor(flag({ boolean: true })), true);
    assert.equal(openFor(flag({ boolean: true }), project(1)), true);
    const some = flag({ actors: ['Project:1', 'Group:1'] });
    assert.deepEqual([openFor(some), openFor(some, project(1)), openFor(some, project(2)), openFor(some, { kind: 'group', id: 1 }), openFor(some, { kind: 'user', id: 1 })], [false, true, false, true, false]);
    assert.equal(openFor(flag({ boolean: true, actors: ['Project:1:opt_out'] }), project(1)), false);
    assert.equal(openFor(flag({ boolean: true, actors: ['Project:1:opt_out'] }), project(2)), true);
  });
  it('a percentage of actors keeps each actor in or out whatever the call, and takes about that share', () => {
    const f = flag({ name: 'shared', percentageOfActors: 25 });
    const inside = Array.from({ length: 4000 }, (_, i) => openFor(f, project(i + 1), () => 0)).filter(Boolean).length;
    assert.ok(inside > 900 && inside < 1100, `${inside} of 4000`);
    for (let i = 1; i <= 50; i++) assert.equal(openFor(f, project(i)), openFor(f, project(i)));
    assert.equal(openFor(f), false, 'a call that names nobody is no actor');
    assert.equal(actorBucket('shared', 'Project:1'), actorBucket('shared', 'Project:1'));
  });
  it('a percentage of time decides per call', () => {
    const f = flag({ percentageOfTime: 30 });
    assert.equal(openFor(f, undefined, () => 0.29), true);
    assert.equal(openFor(f, undefined, () => 0.31), false);
  });
  it('reports the state as Flipper does', () => {
    assert.equal(stateOf(flag({ boolean: true, actors: ['User:1:opt_out'] })), 'on');
    assert.equal(stateOf(flag({})), 'off');
    assert.equal(stateOf(flag({ actors: ['User:1'] })), 'conditional');
    assert.equal(stateOf(flag({ percentageOfTime: 5 })), 'conditional');
    assert.equal(stateOf(flag({ percentageOfTime: 100 })), 'on');
  });
});

describe('the flags service on a database', () => {
  let db: Db;
  before(async () => {
    db = openDb({ sqliteFile: ':memory:' });
    await migrate(db);
  });
  after(() => db.destroy());

  it('answers a flag’s default until it is set, the environment’s where it gives one', async () => {
    assert.equal(await flags.enabled(db, 'vulnerabilities_pdf_export', project(1)), false);
    assert.equal(await flags.enabled(db, 'web_hook_event_resend_api_endpoint_rate_limit'), true);
    useEnvironmentDefaults(db, { vulnerabilitiesPdfExport: true });
    assert.equal(defaultOf(db, 'vulnerabilities_pdf_export'), true);
    assert.equal(await flags.enabled(db, 'vulnerabilities_pdf_export', project(1)), true);
    // Set (off for everyone): the gates decide, not the default.
    await setFeature(db, 'vulnerabilities_pdf_export', featureSetBody.parse({ value: 'false' }));
    assert.equal(await flags.enabled(db, 'vulnerabilities_pdf_export', project(1)), false);
    useEnvironmentDefaults(db, { vulnerabilitiesPdfExport: false });
  });

  it('moves the values saved for the settings that stood in for flags into those flags (migration 028)', async () => {
    await db.deleteFrom('features').execute();
    await db.schema.dropTable('feature_actors').execute();
    await db.schema.dropTable('features').execute();
    const at = '2026-01-02T03:04:05.000Z';
    await db
      .insertInto('application_settings')
      .values([
        { key: 'group_token_revocation_enabled', value: 'false', updated_at: at },
        { key: 'web_hook_event_resend_api_endpoint_rate_limit', value: 'true', updated_at: at },
        { key: 'allow_local_requests_from_web_hooks_and_services', value: 'true', updated_at: at },
      ])
      .execute();
    await migrateFeatures(db);
    assert.deepEqual(await db.selectFrom('features').select(['name', 'boolean_value', 'updated_at']).orderBy('name').execute(), [
      { name: 'group_agnostic_token_revocation', boolean_value: 0, updated_at: at },
      { name: 'web_hook_event_resend_api_endpoint_rate_limit', boolean_value: 1, updated_at: at },
    ]);
    assert.deepEqual((await db.selectFrom('application_settings').select('key').execute()).map((r) => r.key), ['allow_local_requests_from_web_hooks_and_services']);
    const settings = await getSettings(db);
    assert.deepEqual([settings.group_token_revocation_enabled, settings.web_hook_event_resend_api_endpoint_rate_limit, settings.allow_local_requests_from_web_hooks_and_services], [false, true, true]);
  });
});
