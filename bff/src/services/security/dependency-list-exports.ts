import type { Db } from '../../db/index.ts';
import type { ExportRow, UserRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import { DEPENDENCY_EXPORT_TYPES_BY_EXPORTABLE, type DependencyExportType, type DependencyExportable } from '../../../../shared/src/dependency-list-exports.ts';
import { validationFailed } from '../../util/errors.ts';
import { createExport, findOwnExport, type Exportable } from './exports/exports.ts';

/** Requests a dependency list export; each exportable takes only its own export types (spec: "Export types"). */
export async function requestDependencyListExport(
  db: Db,
  authorId: number,
  on: DependencyExportable,
  exportable: Exportable,
  body: { export_type: DependencyExportType; send_email: boolean },
): Promise<ExportRow> {
  const allowed = DEPENDENCY_EXPORT_TYPES_BY_EXPORTABLE[on];
  if (!allowed.includes(body.export_type)) throw validationFailed({ export_type: [`does not have a valid value (${allowed.join(', ')} for ${on})`] });
  return createExport(db, { kind: 'dependency_list', authorId, exportable, format: body.export_type, sendEmail: body.send_email, oneAtATime: false });
}

export const findDependencyListExport = (db: Db, id: number, actor: Actor & { user: UserRow }) => findOwnExport(db, 'dependency_list', id, actor, 'Dependency List Export');
