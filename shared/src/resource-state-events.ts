import { z } from './errors.ts';
import { workItemUser } from './issues.ts';

/** One close, reopen, merge or lock of an issue, merge request or epic (spec "Resource state event"). */
export const resourceStateEvent = z.object({
  id: z.number().int(),
  user: workItemUser.nullable(),
  created_at: z.string(),
  resource_type: z.enum(['Issue', 'MergeRequest', 'Epic']),
  resource_id: z.number().int(),
  state: z.enum(['opened', 'closed', 'merged', 'locked', 'reopened']),
});
export type ResourceStateEvent = z.infer<typeof resourceStateEvent>;
