import { defineJob } from '../queue/define.ts';
import { driveTrain, mergeTrainTicket } from '../services/merging/trains/run.ts';

/** A run of one merge train (services/merging/trains/run.ts); the lease is renewed while it runs. */
export const mergeTrainJob = defineJob({
  ...mergeTrainTicket,
  leaseMs: () => 120_000,
  handler: (p, deps) => driveTrain(deps, p.projectId, p.targetBranch),
});
