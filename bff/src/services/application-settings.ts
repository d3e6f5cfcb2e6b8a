import type { Db } from '../db/index.ts';
import { APPLICATION_SETTING_DEFAULTS, type ApplicationSettings } from '../../../shared/src/application-settings.ts';
import { nowIso } from '../util/time.ts';
import { json } from '../util/rows.ts';

/** Settings stored in the database (shared by every instance), over their defaults. */
export async function getSettings(db: Db): Promise<ApplicationSettings> {
  const rows = await db.selectFrom('application_settings').selectAll().execute();
  const settings = { ...APPLICATION_SETTING_DEFAULTS };
  for (const r of rows) {
    if (r.key in settings) (settings as Record<string, unknown>)[r.key] = json(r.value, undefined);
  }
  return settings;
}

export async function updateSettings(db: Db, patch: Partial<ApplicationSettings>): Promise<ApplicationSettings> {
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      await trx
        .insertInto('application_settings')
        .values({ key, value: JSON.stringify(value), updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
        .execute();
    }
  });
  return getSettings(db);
}
