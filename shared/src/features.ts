import { z } from './errors.ts';
import { boolParam } from './params.ts';

/**
 * Feature flags an administrator turns on and off with the platform's Features API
 * (`/api/v4/features`): the flags the spec names that Gatehouse reads, each with the
 * platform's definition (its YAML file's fields) and what Gatehouse reads it for.
 */

/** Whom a flag is read for: the platform's `Feature.enabled?(:name, actor)`. */
export type FeatureActorKind = 'user' | 'group' | 'project';

export interface FeatureDefinitionData {
  name: string;
  /** The platform's definition fields (config/feature_flags/<type>/<name>.yml), null where unknown. */
  feature_issue_url: string | null;
  introduced_by_url: string | null;
  rollout_issue_url: string | null;
  milestone: string | null;
  log_state_changes: boolean | null;
  type: string;
  group: string | null;
  /** The default when the flag is not set; an environment variable below may change it. */
  default_enabled: boolean;
  /** Gatehouse's own: what turning the flag on does here, for the console. */
  description: string;
  /** Whom the flag is read for (actor gates for them take effect); empty: for everyone at once. */
  read_for: FeatureActorKind[];
  /** The environment variable whose value is the default instead of `default_enabled`, if any. */
  env?: string;
}

export const FEATURE_DEFINITIONS = [
  {
    name: 'group_agnostic_token_revocation',
    feature_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/460777',
    introduced_by_url: 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/153376',
    rollout_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/463157',
    milestone: '17.2',
    log_state_changes: null,
    type: 'beta',
    group: 'group::authentication',
    // Off by default on the platform; Gatehouse has served the endpoint from the start, so on.
    default_enabled: true,
    description:
      'Group Owners revoke a leaked token through POST /groups/:id/tokens/revoke (the Leaked tokens page of a group). Read for the top-level group; off, the endpoint answers 404 Not Found.',
    read_for: ['group'],
  },
  {
    name: 'importer_user_mapping_reassignment_csv',
    feature_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/455906',
    introduced_by_url: 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/162267',
    rollout_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/478022',
    milestone: '17.4',
    log_state_changes: null,
    type: 'beta',
    group: 'group::import and integrate',
    default_enabled: true,
    description:
      'Placeholder reassignment by CSV file (GET and POST /groups/:id/placeholder_reassignments), read for the calling user. This instance does not serve those endpoints yet: the flag takes effect once it does.',
    read_for: ['user'],
  },
  {
    name: 'vulnerabilities_pdf_export',
    feature_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/546219',
    introduced_by_url: null,
    rollout_issue_url: null,
    milestone: '18.1',
    log_state_changes: null,
    type: 'wip',
    group: 'group::security insights',
    default_enabled: false,
    description:
      'Vulnerability exports as a PDF report (export_format=pdf), read for the exported project or group, or for the user exporting their security dashboard. Off, such an export answers 400.',
    read_for: ['project', 'group', 'user'],
    env: 'GATEHOUSE_VULNERABILITIES_PDF_EXPORT',
  },
  {
    name: 'web_hook_event_resend_api_endpoint_rate_limit',
    feature_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/372826',
    introduced_by_url: 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/151130',
    rollout_issue_url: null,
    milestone: '17.4',
    log_state_changes: null,
    type: 'ops',
    group: 'group::import',
    default_enabled: true,
    description: 'At most 5 resends of webhook events a minute per webhook and user; more answer 429 until the minute passes. Off, resends are not limited.',
    read_for: [],
  },
] as const satisfies readonly FeatureDefinitionData[];

export type FeatureFlagName = (typeof FEATURE_DEFINITIONS)[number]['name'];

export const featureDefinitionOf = (name: string): FeatureDefinitionData | undefined => FEATURE_DEFINITIONS.find((d) => d.name === name);

/** GET /features/definitions: a definition as the platform shows it (its YAML fields). */
export const featureDefinition = z.object({
  name: z.string(),
  feature_issue_url: z.string().nullable(),
  introduced_by_url: z.string().nullable(),
  rollout_issue_url: z.string().nullable(),
  milestone: z.string().nullable(),
  log_state_changes: z.boolean().nullable(),
  type: z.string(),
  group: z.string().nullable(),
  default_enabled: z.boolean(),
});
export type FeatureDefinition = z.infer<typeof featureDefinition>;

/**
 * A gate of a persisted flag, as Flipper names them: `boolean` (always shown), `actors`
 * (flipper ids such as `User:3`, `Project:7`, `Group:2`, an opt-out ending in `:opt_out`),
 * `percentage_of_actors`, `percentage_of_time` (shown when set).
 */
export const featureGate = z.discriminatedUnion('key', [
  z.object({ key: z.literal('boolean'), value: z.boolean() }),
  z.object({ key: z.literal('actors'), value: z.array(z.string()) }),
  z.object({ key: z.literal('percentage_of_actors'), value: z.number() }),
  z.object({ key: z.literal('percentage_of_time'), value: z.number() }),
]);
export type FeatureGate = z.infer<typeof featureGate>;

export const featureState = z.enum(['on', 'off', 'conditional']);
export type FeatureState = z.infer<typeof featureState>;

/** GET /features, POST /features/:name: a persisted flag, its gates and its definition (null for a flag Gatehouse does not define). */
export const feature = z.object({
  name: z.string(),
  state: featureState,
  gates: z.array(featureGate),
  definition: featureDefinition.nullable(),
});
export type Feature = z.infer<typeof feature>;

/** A flag's name in the path: what Flipper keys accept here (letters, digits, `_ - . :`). */
export const featureName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'may contain only letters, digits, _ - . and :');

const actorList = z.string().min(1).max(2_000);
/** The gates that name actors besides `feature_group`: each a path, or several separated by commas. */
export const FEATURE_ACTOR_PARAMS = ['user', 'group', 'namespace', 'project', 'repository'] as const;

/**
 * POST /features/:name. `value`: `true`/`false` (or 100/0) for everyone or for the actors
 * named; a number for a percentage (of time, or of actors with `key=percentage_of_actors`);
 * `opt_out`/`remove_opt_out` for actors. `key` goes with no actor, as on the platform.
 */
export const featureSetBody = z
  .object({
    value: z.union([z.boolean(), z.number(), z.string().min(1).max(50)]).transform((v) => String(v)),
    key: z.string().min(1).max(50).optional(),
    feature_group: z.string().min(1).max(255).optional(),
    user: actorList.optional(),
    group: actorList.optional(),
    namespace: actorList.optional(),
    project: actorList.optional(),
    repository: actorList.optional(),
    force: boolParam().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.key === undefined) return;
    const other = (['feature_group', ...FEATURE_ACTOR_PARAMS] as const).find((p) => b[p] !== undefined);
    if (other) ctx.addIssue({ code: 'custom', message: `key, ${other} are mutually exclusive`, path: [] });
  });
export type FeatureSetBody = z.output<typeof featureSetBody>;

/** An actor of an `actors` gate as the console shows it: whom the flipper id names, if it still exists. */
export const featureActor = z.object({
  flipper_id: z.string(),
  kind: z.enum(['user', 'group', 'project', 'other']),
  /** `@username`, a group's or a project's full path; null when the record is gone (or unknown). */
  label: z.string().nullable(),
  /** An opt-out (`…:opt_out`): the flag is off for this actor although it is on for them otherwise. */
  opt_out: z.boolean(),
});
export type FeatureActor = z.infer<typeof featureActor>;

/** The console's Feature flags screen: every defined flag (set or not) and every persisted undefined one. */
export const consoleFeature = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** Whom the flag is read for; empty: for everyone at once. */
  read_for: z.array(z.enum(['user', 'group', 'project'])),
  definition: featureDefinition.nullable(),
  /** Where the default comes from: the definition, or the environment variable named. */
  default_from: z.string(),
  /** Whether it was set (POST) since its last reset (DELETE): when not, the default applies. */
  persisted: z.boolean(),
  state: featureState,
  /** On for anyone it is read for who has no gate of their own: the default, or the boolean gate. */
  on_for_everyone: z.boolean(),
  percentage_of_time: z.number().nullable(),
  percentage_of_actors: z.number().nullable(),
  actors: z.array(featureActor),
});
export type ConsoleFeature = z.infer<typeof consoleFeature>;

/** The console's form for an actor gate: whom, by kind and username or full path (one at a time). */
export const featureActorGateInput = z.object({
  kind: z.enum(['user', 'group', 'project']),
  path: z
    .string()
    .trim()
    .min(1, 'Enter a username or a full path')
    .max(255)
    .refine((v) => !v.includes(','), 'One at a time: no commas'),
});
export type FeatureActorGateInput = z.infer<typeof featureActorGateInput>;
