import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CONSOLE_SCHEMA_FILE, generateSchemaTypes, REGENERATE, SCHEMA_FILE } from './openapi-types.ts';

for (const [file, mount] of [
  [SCHEMA_FILE, 'api'],
  [CONSOLE_SCHEMA_FILE, 'console'],
] as const) {
  const name = `web/src/api/${path.basename(file)}`;
  test(`${name} is what the route table generates today`, async () => {
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const fresh = await generateSchemaTypes(mount);
    // A line-level hint: the full texts run to thousands of lines.
    const a = committed.split('\n');
    const b = fresh.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    assert.ok(
      committed === fresh,
      `${name} is out of date with the route table: run \`${REGENERATE}\` and commit the file` +
        (line >= 0 ? ` (first difference at line ${line + 1}: ${JSON.stringify(a[line])} vs ${JSON.stringify(b[line])})` : ''),
    );
  });
}
