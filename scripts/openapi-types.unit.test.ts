import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { generateSchemaTypes, REGENERATE, SCHEMA_FILE } from './openapi-types.ts';

test('web/src/api/schema.d.ts is what the route table generates today', async () => {
  const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
  const fresh = await generateSchemaTypes();
  // A line-level hint: the full texts run to thousands of lines.
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  assert.ok(
    committed === fresh,
    `web/src/api/schema.d.ts is out of date with the route table: run \`${REGENERATE}\` and commit the file` +
      (line >= 0 ? ` (first difference at line ${line + 1}: ${JSON.stringify(a[line])} vs ${JSON.stringify(b[line])})` : ''),
  );
});
