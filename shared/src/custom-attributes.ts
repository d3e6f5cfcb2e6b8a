import { z } from './errors.ts';

export const customAttribute = z.object({ key: z.string(), value: z.string() });
export type CustomAttribute = z.infer<typeof customAttribute>;
