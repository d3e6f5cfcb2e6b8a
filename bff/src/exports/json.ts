import { Readable } from 'node:stream';
import type { Content } from './files.ts';
import type { DependencyExportRow } from './rows.ts';

const entry = (r: DependencyExportRow) => ({
  name: r.name,
  version: r.version,
  packager: r.packager,
  location: { path: r.location },
  licenses: r.licenses.map((l) => ({ spdx_identifier: l.spdx_identifier, name: l.name, url: l.url })),
  purl: r.purl,
  project: { full_path: r.project_full_path },
});

/**
 * The dependency list as JSON, streamed: `object` is the project's `dependency_list` document
 * ({"dependencies": [...]}), `array` the group's `json_array` (a flat array of components).
 */
export function dependencyJson(rows: AsyncIterable<DependencyExportRow>, shape: 'object' | 'array'): Content {
  return {
    source: Readable.from(
      (async function* () {
        yield shape === 'object' ? '{"dependencies":[' : '[';
        let first = true;
        for await (const r of rows) {
          yield `${first ? '' : ','}${JSON.stringify(entry(r))}`;
          first = false;
        }
        yield shape === 'object' ? ']}' : ']';
      })(),
    ),
  };
}
