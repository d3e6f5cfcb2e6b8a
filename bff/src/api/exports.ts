import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { z } from 'zod';
import { consoleExport, consoleExportListQuery, exportSettings } from '../../../shared/src/exports.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import type { Db } from '../db/index.ts';
import type { ExportRow } from '../db/schema.ts';
import { notFound } from '../services/errors.ts';
import { isCompleted, isFinished, listOwnExports } from '../services/exports.ts';
import { CONTENT_TYPES, exportFileName, exportTitle } from '../exports/names.ts';
import { presentConsoleExport } from '../presenters/exports.ts';
import { mailConfigured } from '../mail/mailer.ts';

/**
 * What both export areas answer alike: the export itself with 202 until it is done (200 after),
 * and its file, streamed, once it is finished (404 before, as for a missing one).
 */
export function sendExport<T>(res: Response, row: ExportRow, body: T): undefined {
  res.status(isCompleted(row) ? 200 : 202);
  if (!isCompleted(row)) res.set('Poll-Interval', '5000');
  res.json(body);
  return undefined;
}

export async function sendExportFile(db: Db, res: Response, row: ExportRow, what: string): Promise<undefined> {
  if (!isFinished(row) || !row.file_path) throw notFound(what);
  let file: fs.promises.FileHandle;
  try {
    file = await fs.promises.open(row.file_path);
  } catch {
    throw notFound(what); // purged meanwhile
  }
  const name = exportFileName(row, await exportTitle(db, row));
  const { size } = await file.stat();
  // setHeader, not set: Express would add a charset to application/json.
  res.status(200).setHeader('Content-Type', CONTENT_TYPES[row.format] ?? 'application/octet-stream');
  res.set({
    'Content-Length': String(size),
    'Content-Disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'X-Content-Type-Options': 'nosniff',
  });
  await pipeline(file.createReadStream(), res);
  return undefined;
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
    handler: async ({ db, actor, query }) => listOwnExports(db, actor.user!.id, query, pageRequest(query)),
    present: presentConsoleExport,
  }),
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/exports/settings',
    area,
    summary: 'Whether PDF vulnerability exports are enabled and export emails can be sent',
    response: exportSettings,
    handler: async ({ config }) => ({ pdf_export_enabled: config.vulnerabilitiesPdfExport, email_configured: mailConfigured(config) }),
  }),
];
