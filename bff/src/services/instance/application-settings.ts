import type { Db } from '../../db/index.ts';
import { APPLICATION_SETTING_DEFAULTS, LEGACY_SETTING_NAMES, type ApplicationSettings, type ApplicationSettingsUpdateBody } from '../../../../shared/src/application-settings.ts';
import type { FeatureFlagName } from '../../../../shared/src/features.ts';
import { nowIso } from '../../util/time.ts';
import { json } from '../../util/rows.ts';
import { flags } from './features.ts';
import { setForEveryone } from './feature-gates.ts';

/**
 * Two settings stood in for feature flags before the Features API: they are kept for the
 * clients that use them, as views of their flag for everyone (read: on for everyone; written:
 * on or off for everyone), so the flag is the one place either is kept.
 */
type FlagSetting = 'group_token_revocation_enabled' | 'web_hook_event_resend_api_endpoint_rate_limit';
const FLAG_OF: Record<FlagSetting, FeatureFlagName> = {
  group_token_revocation_enabled: 'group_agnostic_token_revocation',
  web_hook_event_resend_api_endpoint_rate_limit: 'web_hook_event_resend_api_endpoint_rate_limit',
};
const flagSettings = Object.entries(FLAG_OF) as [FlagSetting, FeatureFlagName][];

/** Settings stored in the database (shared by every instance), over their defaults. */
export async function getSettings(db: Db): Promise<ApplicationSettings> {
  const rows = await db.selectFrom('application_settings').selectAll().execute();
  const settings = { ...APPLICATION_SETTING_DEFAULTS };
  for (const r of rows) {
    if (r.key in settings && !(r.key in FLAG_OF)) (settings as Record<string, unknown>)[r.key] = json(r.value, undefined);
  }
  for (const [key, flag] of flagSettings) settings[key] = await flags.onForEveryone(db, flag);
  return settings;
}

/** A write's settings under their current names: a former name wins over the current one, as on the platform; an empty branch name is none. */
export function canonicalSettings(body: ApplicationSettingsUpdateBody): Partial<ApplicationSettings> {
  const patch: Record<string, unknown> = { ...body };
  for (const [legacy, current] of Object.entries(LEGACY_SETTING_NAMES)) {
    if (patch[legacy] !== undefined) patch[current] = patch[legacy];
    delete patch[legacy];
  }
  if (patch.default_branch_name === '') patch.default_branch_name = null;
  return patch as Partial<ApplicationSettings>;
}

export async function updateSettings(db: Db, patch: Partial<ApplicationSettings>): Promise<ApplicationSettings> {
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined || key in FLAG_OF) continue;
      await trx
        .insertInto('application_settings')
        .values({ key, value: JSON.stringify(value), updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
        .execute();
    }
  });
  for (const [key, flag] of flagSettings) {
    if (patch[key] !== undefined) await setForEveryone(db, flag, patch[key]);
  }
  return getSettings(db);
}
