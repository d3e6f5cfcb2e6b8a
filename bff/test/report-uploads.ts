import { expectStatus, request as api } from './harness.ts';

/**
 * Security reports sent as a CI script sends them: a commit on the default branch, a pipeline
 * for it (an external CI reporting a job) and reports uploaded to that pipeline, all through
 * the API, so the pipeline is the project's latest on main and its reports define its data.
 */

let commits = 0;

/** A new commit on the project's main branch (the first one creates it) and a pipeline for it. */
export async function mainPipeline(projectId: number): Promise<number> {
  const n = ++commits;
  const commit = await api(`/projects/${projectId}/repository/commits`, {
    method: 'POST',
    json: { branch: 'main', commit_message: `c${n}`, actions: [{ action: 'create', file_path: `f${n}.txt`, content: 'x' }] },
  });
  expectStatus(commit, 201);
  const status = await api(`/projects/${projectId}/statuses/${commit.body.id}`, { method: 'POST', json: { state: 'success', ref: 'main', name: 'scan' } });
  expectStatus(status, 201);
  return status.body.pipeline_id as number;
}

export function uploadReport(projectId: number, pipelineId: number, reportType: string, content: string, token?: string) {
  const form = new FormData();
  form.set('report_type', reportType);
  form.set('file', new Blob([content], { type: 'application/json' }), 'report.json');
  return api(`/projects/${projectId}/pipelines/${pipelineId}/reports`, { method: 'POST', multipart: form, token });
}
