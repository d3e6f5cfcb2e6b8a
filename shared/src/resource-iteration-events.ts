import { z } from './errors.ts';
import { workItemUser } from './issues.ts';
import { projectIteration } from './iterations.ts';

/**
 * An issue put in (`add`) or taken out of (`remove`) an iteration (the platform's "Resource
 * iteration events"); a roll-over writes a remove and an add without a user.
 */
export const resourceIterationEvent = z.object({
  id: z.number().int(),
  user: workItemUser.nullable(),
  created_at: z.string(),
  resource_type: z.literal('Issue'),
  resource_id: z.number().int(),
  iteration: projectIteration,
  action: z.enum(['add', 'remove']),
});
export type ResourceIterationEvent = z.infer<typeof resourceIterationEvent>;
