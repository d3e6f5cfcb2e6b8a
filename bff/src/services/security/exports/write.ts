import crypto from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { jobTicket, type JobDeps } from '../../../queue/define.ts';
import type { Db } from '../../../db/index.ts';
import type { ExportRow, JobRow } from '../../../db/schema.ts';
import { nowIso } from '../../../util/time.ts';
import { sendMail } from '../../../mail/mailer.ts';
import { contentStream, exportFileKey, type Content } from './files.ts';
import { vulnerabilityCsv, dependencyCsv } from './csv.ts';
import { dependencyJson } from './json.ts';
import { dependencyPages, dependencyTools, exportAuthor, narrowCoveredProjects, severityCounts, vulnerabilityPages } from './sources.ts';
import { anonymous } from '../../../auth/actor.ts';
import { exportFileName, exportTitle } from './names.ts';

/** The work an export asks for, run by its definition in jobs/export.ts. */
export const exportTicket = jobTicket({ kind: 'export', payload: z.object({ export_id: z.number().int() }), maxAttempts: 3 });

/**
 * Writes one export's file into the file store, which every instance reads. Idempotent: a
 * finished or failed export is left alone, and a run cut short (a killed server) left at most
 * an unfinished put, never published, so the export is written again from the start by
 * whichever worker claims the job once its lease runs out (the put drops the unfinished one).
 */
export async function writeExport(deps: JobDeps & { job: JobRow }, exportId: number): Promise<void> {
  const { db, job, logger } = deps;
  const exp = await db.selectFrom('exports').selectAll().where('id', '=', exportId).executeTakeFirst();
  if (!exp || exp.status === 'finished' || exp.status === 'failed') return;
  const now = nowIso();
  await db
    .updateTable('exports')
    .set({ status: 'running', started_at: exp.started_at ?? now, updated_at: now })
    .where('id', '=', exp.id)
    .execute();
  try {
    const key = exportFileKey(exp.id, path.extname(exportFileName(exp, '')));
    const file = await deps.files.put(key, contentStream(await contentOf(db, exp)));
    const done = nowIso();
    await db
      .updateTable('exports')
      .set({ status: 'finished', finished_at: done, file_key: key, file_path: null, file_size: file.size, file_digest: file.digest, in_progress_key: null, error: null, updated_at: done })
      .where('id', '=', exp.id)
      .execute();
  } catch (e) {
    if (job.attempts < job.max_attempts) throw e;
    logger.warn({ err: e, export: exp.id }, 'export failed');
    await db
      .updateTable('exports')
      .set({ status: 'failed', error: String((e as Error)?.message ?? e).slice(0, 1000), in_progress_key: null, finished_at: nowIso(), updated_at: nowIso() })
      .where('id', '=', exp.id)
      .execute();
  }
  if (exp.send_email) await notifyAuthor(deps, exp.id);
}

/**
 * The file's content for the export's kind and format, of what its author may read now: access
 * lost between asking and writing leaves the projects it covered out of the file.
 */
async function contentOf(db: Db, exp: ExportRow): Promise<Content> {
  // The PDF and CycloneDX writers load their libraries (pdfkit, the CycloneDX library: about 0.7 s
  // of CPU) on the first such export, not in every server's start.
  const author = (await exportAuthor(db, exp)) ?? anonymous;
  await narrowCoveredProjects(db, exp, author);
  if (exp.kind === 'vulnerability') {
    if (exp.format === 'pdf') return (await import('./pdf.ts')).vulnerabilityPdf({ title: await exportTitle(db, exp), generatedAt: nowIso(), counts: await severityCounts(db, exp, author), pages: vulnerabilityPages(db, exp, author) });
    return vulnerabilityCsv(vulnerabilityPages(db, exp, author));
  }
  const pages = dependencyPages(db, exp, author);
  switch (exp.format) {
    case 'csv':
      return dependencyCsv(pages);
    case 'sbom':
    case 'cyclonedx_1_6_json': {
      const named = await db.selectFrom('users').select(['name', 'email']).where('id', '=', exp.author_id).executeTakeFirstOrThrow();
      const properties = [
        ...(exp.project_id !== null ? [{ name: 'gatehouse:project_id', value: String(exp.project_id) }] : []),
        ...(exp.pipeline_id !== null ? [{ name: 'gatehouse:pipeline_id', value: String(exp.pipeline_id) }] : []),
        { name: 'gatehouse:export_id', value: String(exp.id) },
      ];
      return (await import('./cyclonedx.ts')).cycloneDxJson({
        version: exp.format === 'sbom' ? '1.4' : '1.6',
        serialNumber: `urn:uuid:${crypto.randomUUID()}`,
        timestamp: new Date(),
        author: named,
        properties,
        tools: await dependencyTools(db, exp, author),
        pages,
      });
    }
    case 'json_array':
      return dependencyJson(pages, 'array');
    default:
      return dependencyJson(pages, 'object');
  }
}

/** Tells the author the export is ready (or failed); a mail that cannot be sent does not undo the export. */
async function notifyAuthor(deps: JobDeps, exportId: number): Promise<void> {
  const { db, config, logger } = deps;
  const exp = await db.selectFrom('exports').selectAll().where('id', '=', exportId).executeTakeFirst();
  const author = exp && (await db.selectFrom('users').select(['email', 'name']).where('id', '=', exp.author_id).executeTakeFirst());
  if (!exp || !author) return;
  const base = config.externalUrl ?? deps.instanceUrl;
  const what = exp.kind === 'vulnerability' ? 'vulnerability' : 'dependency list';
  const title = await exportTitle(db, exp);
  const api = exp.kind === 'vulnerability' ? `/api/v4/security/vulnerability_exports/${exp.id}/download` : `/api/v4/dependency_list_exports/${exp.id}/download`;
  const text =
    exp.status === 'finished'
      ? `Hello ${author.name},\n\nYour ${what} export of ${title} is ready: ${base}${api}\nIt will be deleted on ${exp.expires_at.slice(0, 10)}.\n`
      : `Hello ${author.name},\n\nYour ${what} export of ${title} failed: ${exp.error ?? 'unknown error'}\n`;
  try {
    const sent = await sendMail(config, { to: author.email, subject: exp.status === 'finished' ? `Your ${what} export is ready` : `Your ${what} export failed`, text });
    if (sent === 'not_configured') logger.info({ export: exp.id }, 'export email not sent: no SMTP configured');
  } catch (e) {
    logger.warn({ err: e, export: exp.id }, 'export email could not be sent');
  }
}
