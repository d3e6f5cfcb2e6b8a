/*
 * The states of pipelines and jobs and how they are worded, without a schema: what the console's
 * status badges show (pipelines.ts re-exports it all, with the schemas of the API's bodies).
 */

/** The states of a pipeline and of its jobs, as the platform names them. */
export const PIPELINE_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];
/** Finished: nothing moves any more, unless retried. */
export const COMPLETED_STATUSES: readonly PipelineStatus[] = ['success', 'failed', 'canceled', 'skipped'];

/** How each status is shown (the platform's Gitlab::Ci::Status classes): label, icon, group. */
export const STATUS_LOOK: Record<PipelineStatus, { text: string; label: string }> = {
  created: { text: 'Created', label: 'created' },
  waiting_for_resource: { text: 'Waiting', label: 'waiting for resource' },
  preparing: { text: 'Preparing', label: 'preparing' },
  pending: { text: 'Pending', label: 'pending' },
  running: { text: 'Running', label: 'running' },
  success: { text: 'Passed', label: 'passed' },
  failed: { text: 'Failed', label: 'failed' },
  canceled: { text: 'Canceled', label: 'canceled' },
  skipped: { text: 'Skipped', label: 'skipped' },
  manual: { text: 'Manual', label: 'manual action' },
  scheduled: { text: 'Scheduled', label: 'scheduled' },
};

export const statusText = (status: PipelineStatus) => STATUS_LOOK[status]?.text ?? status;
