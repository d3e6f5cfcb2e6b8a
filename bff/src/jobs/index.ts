import { enqueue } from '../queue/queue.ts';
import type { JobDefinition, JobDeps } from '../queue/define.ts';
import { startWorkers, type Workers } from '../queue/worker.ts';
import { resumeTrains } from '../services/merging/trains/run.ts';
import { autoMergeJob } from './auto-merge.ts';
import { exportJob } from './export.ts';
import { groupExportJob, groupImportJob, placeholderReassignmentJob } from './group-transfer.ts';
import { hookDeliveryJob } from './hook-delivery.ts';
import { housekeepingJob } from './housekeeping.ts';
import { iterationsJob } from './iterations.ts';
import { mergeTrainJob } from './merge-train.ts';

/*
 * Every kind of background work, one file each in this folder: the kind's lease and handler,
 * over the ticket (kind, payload, attempts) its room declares where the work is asked for.
 * The queue (bff/src/queue/) knows no area; this registry is the one place that names them.
 */

/** The periodic jobs, each queued once (by its unique key) whichever instance starts first. */
const periodicJobs: [JobDefinition, string][] = [
  [housekeepingJob, 'housekeeping'],
  [iterationsJob, 'iterations'],
];

/** Every kind of job this process runs. */
export const jobDefinitions: JobDefinition[] = [hookDeliveryJob, housekeepingJob, iterationsJob, mergeTrainJob, autoMergeJob, exportJob, groupExportJob, groupImportJob, placeholderReassignmentJob];

export function startJobWorkers(deps: JobDeps): Workers {
  if (deps.config.workers === 0) return { stop: async () => undefined, taking: () => false };
  for (const [def, key] of periodicJobs) void enqueue(deps.db, def, {}, { uniqueKey: key }).catch((e) => deps.logger.warn({ err: e }, `could not schedule ${key}`));
  // Trains a killed instance was driving go on (their lock frees itself once its lease runs out).
  void resumeTrains(deps.db).catch((e) => deps.logger.warn({ err: e }, 'could not resume the merge trains'));
  return startWorkers(deps, jobDefinitions, { count: deps.config.workers });
}
