import { z } from './errors.ts';

export const customAttribute = z.object({ key: z.string(), value: z.string() });
export type CustomAttribute = z.infer<typeof customAttribute>;

export const customAttributeKey = z.string().min(1).max(255);
export const customAttributeBody = z.object({ value: z.string().max(255) });
