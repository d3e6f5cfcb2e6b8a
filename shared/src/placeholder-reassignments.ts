import { z } from './errors.ts';

/** The answer to an accepted reassignment CSV: a message saying it is processed in the background. */
export const reassignmentAccepted = z.object({ message: z.string() });
