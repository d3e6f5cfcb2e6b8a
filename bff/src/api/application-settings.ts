import { applicationSettings, applicationSettingsUpdateBody } from '../../../shared/src/application-settings.ts';
import { defineRoute } from '../http/route.ts';
import { getSettings, updateSettings } from '../services/instance/application-settings.ts';

const area = 'application-settings';

export const applicationSettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/application/settings',
    area,
    summary: 'Instance settings (administrators)',
    permission: 'admin_instance',
    response: applicationSettings,
    handler: async (ctx) => getSettings(ctx.db),
  }),
  defineRoute({
    method: 'put',
    path: '/application/settings',
    area,
    summary: 'Change instance settings (administrators)',
    permission: 'admin_instance',
    body: applicationSettingsUpdateBody,
    response: applicationSettings,
    handler: async (ctx) => updateSettings(ctx.db, ctx.body),
  }),
];
