/** git's quarantine: where the pushed objects wait until pre-receive accepts them. */
export const QUARANTINE_VARIABLES = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH'] as const;

/**
 * The hook script, run by git with node: it reads git's ref updates, posts them with the
 * quarantine variables, prints the answer's messages and exits with the verdict. A push that
 * does not come through the server (no GATEHOUSE_HOOK_URL: a local push on the server's own
 * filesystem) is not checked: whoever holds the files holds the repository anyway.
 */
export const HOOK_SCRIPT = `'use strict';
// Written by Gatehouse (bff/src/git/hook-channel.ts); rewritten when it changes.
const http = require('node:http');
const kind = process.argv[2];
const url = process.env.GATEHOUSE_HOOK_URL;
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  if (!url) process.exit(0);
  const quarantine = {};
  for (const name of ${JSON.stringify(QUARANTINE_VARIABLES)}) if (process.env[name] !== undefined) quarantine[name] = process.env[name];
  const body = JSON.stringify({ kind, updates: Buffer.concat(chunks).toString('utf8'), quarantine });
  const fail = (why) => {
    process.stderr.write('The push could not be checked: ' + why + '\\n');
    process.exit(kind === 'pre-receive' ? 1 : 0);
  };
  const req = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Gatehouse-Hook-Secret': process.env.GATEHOUSE_HOOK_SECRET || '' } }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (d) => (text += d));
    res.on('end', () => {
      let answer;
      try { answer = JSON.parse(text); } catch { return fail('the server answered ' + res.statusCode); }
      for (const line of answer.messages || []) process.stderr.write(line + '\\n');
      process.exit(answer.ok ? 0 : 1);
    });
  });
  req.on('error', (e) => fail(e.message));
  req.end(body);
});
`;

/** The hooks git runs: each hands over to the script with node (the server's own). */
export const hookStub = (kind: 'pre-receive' | 'post-receive') => `#!/bin/sh
# Written by Gatehouse (bff/src/git/hook-channel.ts); rewritten when it changes.
exec "\${GATEHOUSE_NODE:-node}" "$(dirname "$0")/gatehouse-hook.cjs" ${kind}
`;
