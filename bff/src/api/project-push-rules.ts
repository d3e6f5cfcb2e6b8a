import { makePushRuleRoutes } from './group-push-rules.ts';

/** GET/POST/PUT/DELETE /projects/:id/push_rule: the group's routes, for a project (twins). */
export const projectPushRuleRoutes = makePushRuleRoutes('projects');
