import * as CDX from '@cyclonedx/cyclonedx-library';
import { textChunks, type Content } from './files.ts';
import type { DependencyExportRow, ExportTool, Pages } from './rows.ts';

export type CycloneDxVersion = '1.4' | '1.6';
const SPECS = { '1.4': CDX.Spec.Spec1dot4, '1.6': CDX.Spec.Spec1dot6 } as const;
const COMPONENT_TYPES = new Set<string>(Object.values(CDX.Enums.ComponentType));

export interface BomInput {
  version: CycloneDxVersion;
  serialNumber: string;
  timestamp: Date;
  author: { name: string; email: string };
  /** Where the list comes from, as metadata properties (project path, pipeline id…). */
  properties: { name: string; value: string }[];
  /** The tools of the SBOMs the export merges, named after Gatehouse (each once). */
  tools?: ExportTool[];
  pages: Pages<DependencyExportRow>;
}

/** What made the export itself. */
const GATEHOUSE: ExportTool = { kind: 'component', type: 'application', group: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' };

/**
 * The document's tools: Gatehouse, then each merged SBOM's tools once (the same group, name and
 * version is the same tool, whichever form it came in), as the platform's merged SBOMs list them.
 * They are given as components and services: the library writes those in 1.5+ and turns them
 * into the legacy list (vendor, name, version) for 1.4.
 */
function addTools(bom: CDX.Models.Bom, tools: ExportTool[]) {
  const seen = new Set<string>();
  for (const t of [GATEHOUSE, ...tools]) {
    const key = JSON.stringify([t.group, t.name, t.version]);
    if (seen.has(key) || !t.name) continue;
    seen.add(key);
    const options = { group: t.group ?? undefined, version: t.version ?? undefined };
    if (t.kind === 'service') bom.metadata.tools.services.add(new CDX.Models.Service(t.name, options));
    else bom.metadata.tools.components.add(new CDX.Models.Component((COMPONENT_TYPES.has(t.type ?? '') ? t.type : 'application') as CDX.Enums.ComponentType, t.name, options));
  }
}

/** A row as a CycloneDX component: name, version, purl, type and licenses ({id, url} where SPDX knows it). */
export function componentOf(r: DependencyExportRow): CDX.Models.Component {
  const licenses = new CDX.Models.LicenseRepository();
  for (const l of r.licenses) {
    const id = l.spdx_identifier ? CDX.SPDX.fixupSpdxId(l.spdx_identifier) : undefined;
    licenses.add(id ? new CDX.Models.SpdxLicense(id, { url: l.url ?? undefined }) : new CDX.Models.NamedLicense(l.name || l.spdx_identifier || 'unknown', { url: l.url ?? undefined }));
  }
  const type = (COMPONENT_TYPES.has(r.component_type) ? r.component_type : 'library') as CDX.Enums.ComponentType;
  return new CDX.Models.Component(type, r.name, { version: r.version || undefined, purl: r.purl ?? undefined, licenses, bomRef: `${r.id}` });
}

/**
 * A CycloneDX JSON document, built with the official library and streamed: the document's head
 * (metadata: tools, authors, properties) is normalised once, then each page of components is
 * normalised and written as it is read, so a bill of 100,000 components never sits in memory
 * whole.
 */
export function cycloneDxJson(input: BomInput): Content {
  const spec = SPECS[input.version];
  const factory = new CDX.Serialize.JSON.Normalize.Factory(spec);
  const options = { sortLists: false };
  const bom = new CDX.Models.Bom({ serialNumber: input.serialNumber, version: 1 });
  bom.metadata.timestamp = input.timestamp;
  addTools(bom, input.tools ?? []);
  bom.metadata.authors.add(new CDX.Models.OrganizationalContact({ name: input.author.name, email: input.author.email }));
  for (const p of input.properties) bom.metadata.properties.add(new CDX.Models.Property(p.name, p.value));
  const head = factory.makeForBom().normalize(bom, options) as unknown as Record<string, unknown>;
  delete head.components;
  delete head.dependencies;
  const componentNormalizer = factory.makeForComponent();
  const opening = JSON.stringify(head).slice(0, -1);
  return {
    source: textChunks(
      (async function* () {
        yield `${opening},"components":[`;
        let first = true;
        for await (const page of input.pages) {
          const components = page.flatMap((r) => componentNormalizer.normalize(componentOf(r), options) ?? []);
          if (!components.length) continue;
          yield `${first ? '' : ','}${components.map((c) => JSON.stringify(c)).join(',')}`;
          first = false;
        }
        yield ']}';
      })(),
    ),
  };
}
