import { textChunks, type Content } from './files.ts';
import type { DependencyExportRow, Pages } from './rows.ts';

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
 * The dependency list as JSON, streamed a page at a time: `object` is the project's
 * `dependency_list` document ({"dependencies": [...]}), `array` the group's `json_array` (a
 * flat array of components).
 */
export function dependencyJson(pages: Pages<DependencyExportRow>, shape: 'object' | 'array'): Content {
  return {
    source: textChunks(
      (async function* () {
        yield shape === 'object' ? '{"dependencies":[' : '[';
        let first = true;
        for await (const page of pages) {
          if (!page.length) continue;
          yield `${first ? '' : ','}${page.map((r) => JSON.stringify(entry(r))).join(',')}`;
          first = false;
        }
        yield shape === 'object' ? ']}' : ']';
      })(),
    ),
  };
}
