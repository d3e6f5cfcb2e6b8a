import { z } from 'zod';
import { consoleFeature, feature, featureDefinition, featureName, featureSetBody } from '../../../shared/src/features.ts';
import { defineRoute } from '../http/route.ts';
import { definitions, presentedDefinition, storedFeatures } from '../services/instance/features.ts';
import { removeFeature, setFeature } from '../services/instance/feature-gates.ts';
import { consoleFeatures } from '../services/instance/feature-views.ts';
import { presentFeature } from '../presenters/features.ts';

const area = 'features';
const named = { name: featureName };

/** The platform's Features API: administrators only. */
export const featureRoutes = [
  defineRoute({
    method: 'get',
    path: '/features',
    area,
    summary: 'List the feature flags that were set, with their gates and definitions (administrators)',
    permission: 'admin_features',
    response: z.array(feature),
    handler: async (ctx) => storedFeatures(ctx.db),
    present: (f, ctx) => presentFeature(f, presentedDefinition(ctx.db, f.name)),
  }),
  defineRoute({
    method: 'get',
    path: '/features/definitions',
    area,
    summary: 'List the definitions of the feature flags Gatehouse reads, with the defaults that apply (administrators)',
    permission: 'admin_features',
    response: z.array(featureDefinition),
    handler: async (ctx) => definitions(ctx.db),
  }),
  defineRoute({
    method: 'post',
    path: '/features/:name',
    area,
    summary: 'Set a feature flag for everyone, for users, groups or projects, or for a percentage (created when not set yet)',
    permission: 'admin_features',
    params: named,
    body: featureSetBody,
    response: feature,
    handler: async (ctx) => setFeature(ctx.db, ctx.params.name, ctx.body),
    present: (f, ctx) => presentFeature(f, presentedDefinition(ctx.db, f.name)),
  }),
  defineRoute({
    method: 'delete',
    path: '/features/:name',
    area,
    summary: 'Remove a feature flag’s gates: it has its default again (204 whether it was set or not)',
    permission: 'admin_features',
    params: named,
    handler: async (ctx) => removeFeature(ctx.db, ctx.params.name),
  }),
];

/** The console's own: what the admin area's Feature flags screen shows in one call. */
export const featureConsoleRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/feature_flags',
    area,
    summary: 'The Feature flags screen: every flag Gatehouse reads (set or not) and any other flag set, with defaults, gates and named actors',
    permission: 'admin_features',
    response: z.array(consoleFeature),
    handler: async (ctx) => consoleFeatures(ctx.db),
  }),
];
