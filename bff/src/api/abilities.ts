import { Router } from 'express';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import type { Abilities } from '../../../shared/src/session.ts';
import { authenticate } from '../http/authenticate.ts';
import { notFound, unauthorized } from '../services/errors.ts';
import { findGroupWithLevel } from '../services/groups.ts';
import { findProject } from '../services/projects.ts';
import { projectAccessLevel } from '../services/access.ts';
import { canGroup, canProject, groupRules, projectRules, type GroupAction, type ProjectAction } from '../policies/index.ts';

/**
 * The console's view of the permission rules: every action of a group or project and whether
 * the caller may take it, as Outline's policies ride with each object. Unreadable resources
 * answer 404 like missing ones.
 */
export function abilitiesRouter(db: Db, config: Config): Router {
  const router = Router();
  router.get('/groups/:id/abilities', async (req, res) => {
    const actor = await authenticate(req, db, config);
    if (!actor.user) throw unauthorized();
    const found = await findGroupWithLevel(db, String(req.params.id), actor.user.id);
    if (!found || !canGroup(actor, 'read_group', found)) throw notFound('Group');
    const { group, level } = found;
    const actions = Object.keys(groupRules) as GroupAction[];
    const body: Abilities = { access_level: level, abilities: Object.fromEntries(actions.map((a) => [a, canGroup(actor, a, { group, level })])) };
    res.set('Cache-Control', 'no-store').json(body);
  });
  router.get('/projects/:id/abilities', async (req, res) => {
    const actor = await authenticate(req, db, config);
    if (!actor.user) throw unauthorized();
    const found = await findProject(db, String(req.params.id));
    const level = found ? await projectAccessLevel(db, actor.user.id, found.project, found.group) : 0;
    if (!found || !canProject(actor, 'read_project', { ...found, level })) throw notFound('Project');
    const actions = Object.keys(projectRules) as ProjectAction[];
    const body: Abilities = { access_level: level, abilities: Object.fromEntries(actions.map((a) => [a, canProject(actor, a, { ...found, level })])) };
    res.set('Cache-Control', 'no-store').json(body);
  });
  return router;
}
