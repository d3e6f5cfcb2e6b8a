import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { consoleExport, consoleExportListQuery, exportSettings, exportSettingsQuery } from '../../../shared/src/exports.ts';
import { Answer, defineRoute, FileAnswer, type LoadKind, type ParamShape, type ParamsOf, type RouteContext, type RouteSpec } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import type { Action } from '../policies/index.ts';
import { pageRequest } from '../db/pagination.ts';
import type { Db } from '../db/index.ts';
import type { FileStore } from '../files/index.ts';
import type { ExportRow, UserRow } from '../db/schema.ts';
import type { Actor } from '../auth/actor.ts';
import { notFound } from '../util/errors.ts';
import { isCompleted, isFinished, listOwnExports } from '../services/security/exports/exports.ts';
import { CONTENT_TYPES, exportFileName, exportTitle } from '../services/security/exports/names.ts';
import { openExportFile } from '../services/security/exports/files.ts';
import { presentConsoleExport } from '../presenters/exports.ts';
import { mailConfigured } from '../mail/mailer.ts';
import { flags } from '../services/instance/features.ts';
import { pdfExportActor } from '../services/security/vulnerability-exports.ts';

/** The caller of a route that requires authentication, with its user. */
const signedIn = (actor: Actor) => ({ ...actor, user: actor.user! });

/**
 * What both export areas answer alike: the export itself with 202 until it is done (200 after),
 * and its file, streamed, once it is finished (404 before, as for a missing one).
 */
function exportAnswer<T>(row: ExportRow, body: T): Answer<T> {
  return isCompleted(row) ? new Answer(body, 200) : new Answer(body, 202, { 'Poll-Interval': '5000' });
}

async function exportFile(db: Db, files: FileStore, row: ExportRow, what: string): Promise<FileAnswer> {
  if (!isFinished(row)) throw notFound(what);
  // From the file store, whichever instance wrote it; null once purged (meanwhile).
  const file = await openExportFile(files, row);
  if (!file) throw notFound(what);
  let name: string;
  try {
    name = exportFileName(row, await exportTitle(db, row));
  } catch (e) {
    file.stream.destroy();
    throw e;
  }
  const { size } = file;
  const headers = {
    'Content-Type': CONTENT_TYPES[row.format] ?? 'application/octet-stream',
    'Content-Length': String(size),
    'Content-Disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'X-Content-Type-Options': 'nosniff',
  };
  return new FileAnswer(headers, (out) => pipeline(file.stream, out));
}

/** What an export area is: its records, the body that asks for one, and how one is shown. */
interface ExportArea<B extends z.ZodType, S extends z.ZodType> {
  area: string;
  /** The record's name in a 404: "Vulnerability Export". */
  record: string;
  /** Where one export is got, and its file downloaded below it. */
  path: string;
  body: B;
  response: S;
  /** The caller's own export (that record's 404 otherwise), while they may still read what it covers (403 otherwise). */
  find: (db: Db, id: number, actor: Actor & { user: UserRow }) => Promise<ExportRow>;
  present: (row: ExportRow, ctx: { baseUrl: string }) => z.output<S>;
  summaries: { get: string; download: string };
}

/** Where an export is asked for: the scope's path, what it loads and needs, and what it asks the area's service for. */
interface ExportScope<B extends z.ZodType, P extends ParamShape, L extends LoadKind | undefined> {
  path: string;
  summary: string;
  load?: L;
  permission?: Action;
  params?: P;
  errors?: number[];
  request: (ctx: RouteContext<unknown, z.output<B>, ParamsOf<P>, L>) => Promise<ExportRow>;
}

/**
 * An export area's routes, written once for both areas (vulnerabilities, dependency lists):
 * `create(scope)` declares how a scope (a project, a group, a pipeline, the security dashboard)
 * asks for an export, `own` gets one of the caller's exports and downloads its file.
 */
export function makeExportRoutes<B extends z.ZodType, S extends z.ZodType>(kind: ExportArea<B, S>) {
  const exportId = { params: { id: recordId(kind.record) } };
  const create = <P extends ParamShape = {}, L extends LoadKind | undefined = undefined>({ request, ...scope }: ExportScope<B, P, L>): RouteSpec =>
    // The response schema as a plain zod type: `present` is typed by the area, not per route.
    defineRoute({ method: 'post', area: kind.area, ...scope, body: kind.body, response: kind.response as z.ZodType, handler: request, present: kind.present });
  const own: RouteSpec[] = [
    defineRoute({
      method: 'get',
      path: `${kind.path}/:id`,
      area: kind.area,
      summary: kind.summaries.get,
      ...exportId,
      response: kind.response,
      handler: async (ctx) => {
        const row = await kind.find(ctx.db, ctx.params.id, signedIn(ctx.actor));
        return exportAnswer(row, kind.present(row, ctx));
      },
    }),
    defineRoute({
      method: 'get',
      path: `${kind.path}/:id/download`,
      area: kind.area,
      summary: kind.summaries.download,
      ...exportId,
      file: [...new Set([...Object.values(CONTENT_TYPES), 'application/octet-stream'])],
      handler: async (ctx) => exportFile(ctx.db, ctx.files, await kind.find(ctx.db, ctx.params.id, signedIn(ctx.actor)), kind.record),
    }),
  ];
  return { create, own };
}

const area = 'console';

/** The console's Exports screen: the caller's own exports, and what the instance allows. */
export const exportConsoleRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/exports',
    area,
    summary: "The caller's own exports of a project, a group or the security dashboard, newest first",
    query: consoleExportListQuery,
    response: z.array(consoleExport),
    handler: async ({ db, actor, query }) => listOwnExports(db, signedIn(actor), query, pageRequest(query)),
    present: presentConsoleExport,
  }),
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/exports/settings',
    area,
    summary: 'Whether PDF vulnerability exports are enabled for a project, a group or the security dashboard, and export emails can be sent',
    query: exportSettingsQuery,
    response: exportSettings,
    handler: async ({ db, config, actor, query }) => ({
      pdf_export_enabled: await flags.enabled(db, 'vulnerabilities_pdf_export', pdfExportActor(query, actor.user!.id)),
      email_configured: mailConfigured(config),
    }),
  }),
];
