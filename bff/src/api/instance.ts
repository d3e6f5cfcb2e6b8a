import { Router } from 'express';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import { authenticate } from '../http/authenticate.ts';
import { forbidden, unauthorized } from '../services/errors.ts';
import { canInstance } from '../policies/index.ts';
import { instanceOverview } from '../services/instance.ts';
import { signInLimits } from '../services/session.ts';

/** `GET /api/console/instance`: the admin area's overview, for administrators. */
export function instanceRouter(db: Db, config: Config): Router {
  const router = Router();
  router.get('/instance', async (req, res) => {
    const actor = await authenticate(req, db, config);
    if (!actor.user) throw unauthorized();
    if (!canInstance(actor, 'admin_instance')) throw forbidden();
    const signIn = signInLimits({ hours: config.sessionHours, maxFailures: config.signInMaxFailures });
    res.set('Cache-Control', 'no-store').json({ ...(await instanceOverview(db)), sign_in: signIn });
  });
  return router;
}
