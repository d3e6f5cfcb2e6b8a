import { z } from './errors.ts';
import { groupPushRule, groupPushRuleBody } from './group-push-rules.ts';

/** A project's push rule: the group's record with the project it belongs to; the same body. */
export const projectPushRule = groupPushRule.extend({ project_id: z.number().int() });
export type ProjectPushRule = z.infer<typeof projectPushRule>;
export const projectPushRuleBody = groupPushRuleBody;
