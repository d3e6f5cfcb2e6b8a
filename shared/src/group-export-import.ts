import { z } from './errors.ts';
import { intParam } from './params.ts';
import { namespacePath } from './groups.ts';

/** The form of POST /groups/import (multipart, beside its `file`): the new group's name, path and parent. */
export const groupImportBody = z.object({
  name: z.string().trim().min(1).max(255),
  path: namespacePath,
  parent_id: intParam().pipe(z.number().int().min(1)).nullable().optional(),
});
export type GroupImportBody = z.infer<typeof groupImportBody>;

/** The platform's answer to an export or import it accepted: `{"message": "202 Accepted"}`. */
export const acceptedMessage = z.object({ message: z.string() });
