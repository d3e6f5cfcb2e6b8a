import { securityReportResult, securityReportUploadBody } from '../../../shared/src/security-reports.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { findPipeline } from '../services/ci/pipelines.ts';
import { ingestReport, REPORT_MAX_BYTES } from '../services/security/security-reports.ts';
import { badRequest } from '../util/errors.ts';
import { presentSecurityReport } from '../presenters/security-reports.ts';

export const securityReportRoutes = [
  defineRoute({
    method: 'post',
    path: '/projects/:id/pipelines/:pipeline_id/reports',
    area: 'security-reports',
    summary:
      'Upload a scanner report (the platform’s security report JSON: sast, dependency_scanning, container_scanning, secret_detection, dast) or a CycloneDX 1.4–1.6 JSON SBOM (cyclonedx) to a pipeline, as multipart `file` and `report_type`; validated against its published schema (400 naming what is wrong), answered with the counts ingested. The latest default-branch pipeline defines the project’s vulnerabilities and dependencies. Repeating an upload changes nothing (Developer, or a CI job’s token)',
    load: 'project',
    permission: 'create_security_report',
    params: { pipeline_id: recordId('Pipeline') },
    with: { pipeline: (ctx: RouteContext<unknown, unknown, { pipeline_id: number }, 'project'>) => findPipeline(ctx.db, ctx.project, ctx.params.pipeline_id) },
    body: securityReportUploadBody,
    upload: 'file',
    streamUpload: { maxBytes: REPORT_MAX_BYTES },
    errors: [413],
    response: securityReportResult,
    handler: async (ctx) => {
      if (!ctx.diskFile) throw badRequest('400 Bad request - file is missing');
      return ingestReport(ctx.db, { project: ctx.project, pipeline: ctx.pipeline, reportType: ctx.body.report_type, filePath: ctx.diskFile.path, uploaderId: ctx.actor.user?.id ?? null });
    },
    present: presentSecurityReport,
  }),
];
