import { pipeline } from 'node:stream/promises';
import { acceptedMessage, groupImportBody } from '../../../shared/src/group-export-import.ts';
import { defineRoute, FileAnswer } from '../http/route.ts';
import { badRequest, notFound } from '../util/errors.ts';
import { openGroupExport, requestGroupExport } from '../services/transfer/group-export.ts';
import { startGroupImport } from '../services/transfer/group-import.ts';

const area = 'group-export-import';

/** The largest archive POST /groups/import takes (the decompressed total has its own limit, GATEHOUSE_IMPORT_MAX_BYTES). */
export const IMPORT_UPLOAD_MAX_BYTES = 5 * 1024 ** 3;

/** The platform's name of a group's export file: when it was made, the group's path, `_export.tar.gz`. */
const exportFileName = (fullPath: string, at: Date) => `${at.toISOString().replace(/[:T]/g, '-').replace(/\..*$/, '')}_${fullPath.replace(/\//g, '_')}_export.tar.gz`;

export const groupExportImportRoutes = [
  defineRoute({
    method: 'post',
    path: '/groups/:id/export',
    area,
    summary: 'Start an export of the group in the platform’s archive (replacing the one before once written)',
    load: 'group',
    permission: 'export_group',
    status: 202,
    response: acceptedMessage,
    handler: async (ctx) => {
      await requestGroupExport(ctx.db, ctx.group, ctx.actor.user!.id);
      return { message: '202 Accepted' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/export/download',
    area,
    summary: 'Download the group’s exported archive (tar.gz); 404 until an export is written',
    load: 'group',
    permission: 'export_group',
    file: ['application/gzip'],
    handler: async (ctx) => {
      const file = await openGroupExport(ctx.db, ctx.files, ctx.group);
      if (!file) throw notFound();
      const name = exportFileName(ctx.group.full_path, new Date());
      const headers = {
        'Content-Type': 'application/gzip',
        'Content-Length': String(file.size),
        'Content-Disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`,
        'X-Content-Type-Options': 'nosniff',
      };
      return new FileAnswer(headers, (out) => pipeline(file.stream, out));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/groups/import',
    area,
    summary: 'Import a group tree from the platform’s archive into a new group (private, or the parent’s visibility)',
    body: groupImportBody,
    upload: 'file',
    streamUpload: { maxBytes: IMPORT_UPLOAD_MAX_BYTES },
    status: 202,
    errors: [413],
    response: acceptedMessage,
    handler: async (ctx) => {
      if (!ctx.diskFile) throw badRequest('file is missing');
      await startGroupImport(ctx.db, ctx.files, ctx.config.importLimits, ctx.actor, ctx.body, ctx.diskFile.path, ctx.config.externalUrl ?? ctx.baseUrl);
      return { message: '202 Accepted' };
    },
  }),
];
