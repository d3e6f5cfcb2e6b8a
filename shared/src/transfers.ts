import { z } from './errors.ts';
import { intParam } from './params.ts';

/** PUT /projects/:id/transfer: the new namespace, by ID or full path. */
export const projectTransferBody = z.object({
  namespace: z.union([z.number().int().transform(String), z.string().min(1).max(255)]),
});
export type ProjectTransferBody = z.infer<typeof projectTransferBody>;

/** POST /groups/:id/transfer: the new parent group's ID; absent, null or empty makes the group top-level. */
export const groupTransferBody = z.object({
  group_id: z.union([intParam(), z.literal('').transform(() => null), z.null()]).optional(),
});
export type GroupTransferBody = z.infer<typeof groupTransferBody>;
