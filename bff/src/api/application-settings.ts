import { applicationSettings, applicationSettingsUpdateBody } from '../../../shared/src/application-settings.ts';
import { defineRoute } from '../http/route.ts';
import { canonicalSettings, getSettings, updateSettings } from '../services/instance/application-settings.ts';
import { presentApplicationSettings } from '../presenters/application-settings.ts';

const area = 'application-settings';

export const applicationSettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/application/settings',
    area,
    summary: 'Instance settings (administrators), under their current and former names',
    permission: 'admin_instance',
    response: applicationSettings,
    handler: async (ctx) => getSettings(ctx.db),
    present: presentApplicationSettings,
  }),
  defineRoute({
    method: 'put',
    path: '/application/settings',
    area,
    summary: 'Change instance settings (administrators), by current or former name',
    permission: 'admin_instance',
    body: applicationSettingsUpdateBody,
    response: applicationSettings,
    handler: async (ctx) => updateSettings(ctx.db, canonicalSettings(ctx.body)),
    present: presentApplicationSettings,
  }),
];
