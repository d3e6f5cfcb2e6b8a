import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import Ajv from 'ajv-draft-04';
import { repoRoot } from '../src/server.ts';

/**
 * Checks a response body against the platform's own JSON Schema (draft-04) from
 * ../shared/reference/platform-schemas beside the repository: how existing clients see us.
 * A checkout without that folder skips the check, with one note, instead of failing.
 */
const SCHEMA_DIR = path.resolve(repoRoot, '../shared/reference/platform-schemas');
/** Every file is loaded under this base so that each `$ref` resolves relative to its file (see the folder's README). */
const BASE = 'https://schemas.invalid/spec/fixtures/api/schemas/';

// Formats are not checked: the platform's schemas declare `format: date-time` on fields the
// platform itself sends as dates (a member's expires_at is YYYY-MM-DD), and its own test
// matcher does not enforce formats either. Our tests check date shapes explicitly.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
let noted = false;

function collectRefs(node: unknown, out: string[]): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

/** Adds a schema file and, first, every file it refers to. Returns its id. */
function load(relPath: string): string {
  const id = new URL(relPath, BASE).toString();
  if (ajv.getSchema(id)) return id;
  const file = path.join(SCHEMA_DIR, ...relPath.split('/'));
  const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as object;
  ajv.addSchema(schema, id);
  for (const ref of collectRefs(schema, [])) {
    const target = new URL(ref, id);
    target.hash = '';
    const rel = target.toString();
    if (!rel.startsWith(BASE)) throw new Error(`${relPath}: $ref ${ref} points outside the schema folder`);
    load(rel.slice(BASE.length));
  }
  return id;
}

export function platformSchemasAvailable(): boolean {
  return fs.existsSync(SCHEMA_DIR);
}

/** Fails the test when `body` does not match the platform schema at `relPath` (e.g. `public_api/v4/members.json`). */
export function expectPlatformSchema(relPath: string, body: unknown): void {
  if (!platformSchemasAvailable()) {
    if (!noted) console.log(`note: ${SCHEMA_DIR} is absent; responses are not checked against the platform's JSON Schemas`);
    noted = true;
    return;
  }
  const validate = ajv.getSchema(load(relPath))!;
  if (!validate(body)) {
    assert.fail(
      `response does not match the platform schema ${relPath}:\n${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
