import { LEGACY_SETTING_NAMES, type ApplicationSettings, type ApplicationSettingsAnswer } from '../../../shared/src/application-settings.ts';

/** The settings under their current names and, beside them, the platform's former names of the same settings. */
export function presentApplicationSettings(s: ApplicationSettings): ApplicationSettingsAnswer {
  const legacy = Object.fromEntries(Object.entries(LEGACY_SETTING_NAMES).map(([old, current]) => [old, s[current]]));
  return { ...s, ...legacy } as ApplicationSettingsAnswer;
}
