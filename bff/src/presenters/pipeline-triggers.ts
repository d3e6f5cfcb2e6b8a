import type { PipelineTrigger } from '../../../shared/src/pipeline-triggers.ts';
import type { TriggerView } from '../services/ci/pipeline-triggers.ts';
import { presentUserBasic } from './users.ts';

/**
 * A trigger token: whole for its owner, its first four characters for everyone else (the
 * platform's rule). The owner's copy is opened from the vault by the service, never stored plain.
 */
export function presentPipelineTrigger(v: TriggerView, ctx: { baseUrl: string }): PipelineTrigger {
  const t = v.trigger;
  return {
    id: t.id,
    description: t.description,
    created_at: t.created_at,
    updated_at: t.updated_at,
    last_used: t.last_used_at,
    token: v.token,
    owner: v.owner ? presentUserBasic(v.owner, ctx.baseUrl) : null,
  };
}
