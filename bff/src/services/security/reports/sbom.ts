import type { DependencyRow } from '../../../db/schema.ts';
import { httpUrl } from '../../../../../shared/src/links.ts';

/** A component of a validated CycloneDX SBOM: a dependency row without its owners. */
export type Component = Omit<DependencyRow, 'id' | 'project_id' | 'pipeline_id' | 'report_id' | 'created_at'>;

/* eslint-disable @typescript-eslint/no-explicit-any */
type Raw = Record<string, any>;

/** The package manager a purl type stands for where the SBOM does not say (the platform's usual names). */
const PACKAGE_MANAGER_OF_PURL: Record<string, string> = {
  npm: 'npm',
  gem: 'bundler',
  pypi: 'pip',
  maven: 'maven',
  golang: 'go',
  composer: 'composer',
  nuget: 'nuget',
  conan: 'conan',
  cargo: 'cargo',
  deb: 'apt',
  apk: 'apk',
  rpm: 'rpm',
};

const property = (props: unknown, ...names: string[]): string | null => {
  const list = Array.isArray(props) ? (props as Raw[]) : [];
  for (const name of names) {
    const found = list.find((p) => p.name === name);
    if (found?.value) return String(found.value);
  }
  return null;
};

const purlType = (purl: string | null) => (purl ? (/^pkg:([a-zA-Z0-9.+-]+)\//.exec(purl)?.[1]?.toLowerCase() ?? null) : null);

/**
 * SPDX ids and names as the dependency list shows them, each with a URL: the SBOM's own where it
 * is an http(s) URL (a `javascript:` one is never kept), else SPDX's page of the id.
 */
function licensesOf(c: Raw): { spdx_identifier: string | null; name: string; url: string | null }[] {
  return ((c.licenses ?? []) as Raw[]).flatMap((entry) => {
    if (entry.expression) return [{ spdx_identifier: null, name: String(entry.expression), url: null }];
    const l = (entry.license ?? {}) as Raw;
    const id = l.id ? String(l.id) : null;
    const name = String(l.name ?? l.id ?? 'unknown');
    return [{ spdx_identifier: id, name, url: httpUrl(l.url) ?? (id ? `https://spdx.org/licenses/${id}.html` : null) }];
  });
}

/**
 * The components of an SBOM, with the package manager and input file the platform's scanners
 * record in the document's metadata properties (falling back to the purl's type). Nested
 * components count too.
 */
export function sbomComponents(bom: Raw): Component[] {
  const meta = bom.metadata?.properties;
  const packageManager = property(meta, 'gitlab:dependency_scanning:package_manager:name', 'gitlab:dependency_scanning:package_manager');
  const inputFile = property(meta, 'gitlab:dependency_scanning:input_file:path', 'gitlab:dependency_scanning:input_file');
  const out: Component[] = [];
  const walk = (list: unknown) => {
    for (const c of (Array.isArray(list) ? list : []) as Raw[]) {
      const purl = c.purl ? String(c.purl) : null;
      const type = purlType(purl);
      out.push({
        name: c.group ? `${c.group}/${c.name}` : String(c.name),
        version: c.version ?? null,
        package_manager: packageManager ?? (type ? (PACKAGE_MANAGER_OF_PURL[type] ?? type) : null),
        purl,
        purl_type: type,
        component_type: String(c.type ?? 'library'),
        bom_ref: c['bom-ref'] ?? null,
        licenses: JSON.stringify(licensesOf(c)),
        input_file_path: property(c.properties, 'gitlab:dependency_scanning:input_file:path') ?? inputFile,
      });
      walk(c.components);
    }
  };
  walk(bom.components);
  return out;
}

/**
 * A tool an SBOM names in its metadata: a component or a service of CycloneDX 1.5+, or an entry
 * of the older list (vendor, name, version), kept as a component whose group is the vendor (the
 * platform converts between the two forms so, and so does the CycloneDX library).
 */
export interface SbomTool {
  kind: 'component' | 'service';
  /** The component's CycloneDX type (application, library…); none for a service. */
  type?: string;
  group: string | null;
  name: string;
  version: string | null;
}

/** An SBOM names a few tools; more than this many are not kept (an export lists them all in its head). */
export const MAX_SBOM_TOOLS = 50;

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** Two tools are the same tool when group (vendor), name and version agree, whatever their form. */
export const toolKey = (t: Pick<SbomTool, 'group' | 'name' | 'version'>) => JSON.stringify([t.group, t.name, t.version]);

/** The tools of an SBOM's metadata, in either form, each once. */
export function sbomTools(bom: Raw): SbomTool[] {
  const tools = bom.metadata?.tools;
  const found: SbomTool[] = [];
  if (Array.isArray(tools)) {
    for (const t of tools as Raw[]) if (text(t?.name)) found.push({ kind: 'component', type: 'application', group: text(t.vendor), name: t.name, version: text(t.version) });
  } else if (tools && typeof tools === 'object') {
    for (const c of (Array.isArray(tools.components) ? tools.components : []) as Raw[]) {
      if (text(c?.name)) found.push({ kind: 'component', type: text(c.type) ?? 'application', group: text(c.group), name: c.name, version: text(c.version) });
    }
    for (const s of (Array.isArray(tools.services) ? tools.services : []) as Raw[]) {
      if (text(s?.name)) found.push({ kind: 'service', group: text(s.group), name: s.name, version: text(s.version) });
    }
  }
  const seen = new Set<string>();
  return found.filter((t) => !seen.has(toolKey(t)) && seen.add(toolKey(t))).slice(0, MAX_SBOM_TOOLS);
}
