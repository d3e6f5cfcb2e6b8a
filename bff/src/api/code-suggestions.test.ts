import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { codeCompletionResponse, connectionDetails, directAccessDetails, jsonWebKeySet } from '../../../shared/src/code-suggestions.ts';
import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';

/** Completions a user may ask for per minute in this file's server: low, so 429 comes in a few requests. */
const PER_MINUTE = 6;

/** What the gateway double received, one entry per request. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * A loopback AI gateway: it records what it receives and answers by the file name asked about
 * (`stall.ts`: never; `stream.ts`: a first chunk, the second once the test lets it go; `fail.ts`:
 * a 500; anything else: one completion at once).
 */
function startGateway() {
  const received: Received[] = [];
  let release: () => void = () => {};
  const released = () => new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw) as { current_file?: { file_name?: string } };
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const file = body.current_file?.file_name;
      if (file === 'stall.ts') return; // the socket is left open, no answer ever comes
      if (file === 'fail.ts') {
        res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: 'model error' }));
        return;
      }
      if (file === 'stream.ts') {
        const go = released();
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('data: first\n\n');
        await go;
        res.end('data: second\n\n');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'id', model: { engine: 'double', name: 'double-1' }, object: 'text_completion', created: 1_700_000_000, choices: [{ text: 'return 1;', index: 0, finish_reason: 'length' }] }));
    });
  });
  return {
    received,
    release: () => release(),
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const completion = (fileName: string, extra: Record<string, unknown> = {}) => ({
  current_file: { file_name: fileName, content_above_cursor: 'function one() {\n', content_below_cursor: '\n}' },
  ...extra,
});

function decodeJwt(token: string) {
  const [header, payload, signature] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
    signed: `${header}.${payload}`,
    signature: Buffer.from(signature, 'base64url'),
  };
}

let server: TestServer;
let gateway: ReturnType<typeof startGateway>;
let gatewayUrl: string;
let coder: Awaited<ReturnType<typeof buildUser>>;

before(async () => {
  gateway = startGateway();
  gatewayUrl = await gateway.listen();
  server = await startTestServer({ GATEHOUSE_AI_GATEWAY_URL: gatewayUrl, GATEHOUSE_AI_GATEWAY_TIMEOUT_SECONDS: '0.3', GATEHOUSE_CODE_SUGGESTIONS_PER_MINUTE: String(PER_MINUTE) });
  coder = await buildUser({ scopes: ['ai_features'] });
});
after(async () => {
  await server.close();
  await gateway.close();
});

describe('code completions', () => {
  it('forwards the prompt parts with Gatehouse’s own token, never the caller’s, and passes the answer on', async () => {
    const context = [{ type: 'file', name: 'two.ts', content: 'export const two = 2;' }];
    const body = completion('one.ts', { intent: 'completion', project_path: 'g/p', context, user_instruction: 'be brief' });
    const res = await api('/code_suggestions/completions', { method: 'POST', token: null, headers: { Authorization: `Bearer ${coder.token}` }, json: body });
    expectStatus(res, 200);
    assert.equal(expectShape(codeCompletionResponse, res.body).choices[0].text, 'return 1;');
    const seen = gateway.received.at(-1)!;
    assert.equal(seen.path, '/v2/code/completions');
    assert.deepEqual(seen.body.current_file, body.current_file);
    assert.deepEqual(seen.body.context, context);
    assert.equal(seen.body.user_instruction, 'be brief');
    assert.equal(seen.body.project_path, 'g/p');
    assert.equal(seen.body.stream, false);
    // The caller's token appears nowhere in what the gateway got.
    assert.ok(!JSON.stringify(seen).includes(coder.token), 'the caller’s token reached the gateway');
    const auth = String(seen.headers.authorization);
    assert.match(auth, /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const jwt = decodeJwt(auth.slice('Bearer '.length));
    assert.equal(jwt.header.alg, 'RS256');
    assert.equal(jwt.claims.aud, 'gitlab-ai-gateway');
    assert.equal(seen.headers['x-service-realm'], 'self-managed');
    // A generation goes to the gateway's generations endpoint.
    expectStatus(await api('/code_suggestions/completions', { method: 'POST', token: coder.token, json: completion('one.ts', { intent: 'generation' }) }), 200);
    assert.equal(gateway.received.at(-1)!.path, '/v2/code/generations');
  });

  it('streams the gateway’s answer on as it arrives', async () => {
    const res = await fetch(`${server.url}/api/v4/code_suggestions/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${coder.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(completion('stream.ts', { stream: true })),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    // The first chunk comes while the gateway still holds the second.
    let text = '';
    while (!text.includes('first')) text += decoder.decode((await reader.read()).value);
    assert.ok(!text.includes('second'));
    gateway.release();
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    assert.equal(text, 'data: first\n\ndata: second\n\n');
    assert.equal(gateway.received.at(-1)!.body.stream, true);
  });

  it('answers 503 soon when the gateway stalls or cannot be reached, and passes its own errors on', async () => {
    const started = Date.now();
    const res = await api('/code_suggestions/completions', { method: 'POST', token: coder.token, json: completion('stall.ts') });
    expectStatus(res, 503);
    assert.deepEqual(res.body, { message: '503 Service Unavailable - AI gateway did not answer in time' });
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    const failed = await api('/code_suggestions/completions', { method: 'POST', token: coder.token, json: completion('fail.ts') });
    expectStatus(failed, 500);
  });

  it('answers 503 without a gateway configured', async () => {
    const configured = server.config.aiGateway;
    // The same server with the gateway unset: what an instance without GATEHOUSE_AI_GATEWAY_URL has.
    server.config.aiGateway = undefined;
    try {
      const res = await api('/code_suggestions/completions', { method: 'POST', token: coder.token, json: completion('one.ts') });
      expectStatus(res, 503);
      assert.deepEqual(res.body, { message: '503 Service Unavailable - AI gateway is not configured' });
      expectStatus(await api('/code_suggestions/direct_access', { method: 'POST', token: coder.token }), 503);
    } finally {
      server.config.aiGateway = configured;
    }
  });

  it('takes the ai_features or api scope, refuses read_user alone, and checks the body', async () => {
    const [reader, apiUser] = await Promise.all([buildUser({ scopes: ['read_user'] }), buildUser({ scopes: ['api'] })]);
    const before = gateway.received.length;
    expectStatus(await api('/code_suggestions/completions', { method: 'POST', token: null, headers: { Authorization: `Bearer ${reader.token}` }, json: completion('one.ts') }), 403);
    expectStatus(await api('/code_suggestions/direct_access', { method: 'POST', token: reader.token }), 403);
    expectStatus(await api('/code_suggestions/completions', { method: 'POST', token: null, json: completion('one.ts') }), 401);
    assert.equal(gateway.received.length, before, 'a refused request reached the gateway');
    expectStatus(await api('/code_suggestions/completions', { method: 'POST', token: apiUser.token, json: completion('one.ts') }), 200);
    const missing = await api('/code_suggestions/completions', { method: 'POST', token: apiUser.token, json: { current_file: { file_name: 'a.ts' } } });
    expectStatus(missing, 400);
    // Each part within its limit, the whole past the platform's 600,000 characters: 413, and the gateway is not called.
    const big = { current_file: { file_name: 'big.ts', content_above_cursor: 'a'.repeat(390_000), content_below_cursor: 'b'.repeat(390_000) } };
    const sentBefore = gateway.received.length;
    expectStatus(await api('/code_suggestions/completions', { method: 'POST', token: apiUser.token, json: big }), 413);
    assert.equal(gateway.received.length, sentBefore);
  });

  it('limits each user to the configured requests a minute, with the platform’s 429', async () => {
    const [busy, other] = await Promise.all([buildUser({ scopes: ['ai_features'] }), buildUser({ scopes: ['ai_features'] })]);
    for (let i = 0; i < PER_MINUTE; i++) expectStatus(await api('/code_suggestions/completions', { method: 'POST', token: busy.token, json: completion('one.ts') }), 200);
    const limited = await api('/code_suggestions/completions', { method: 'POST', token: busy.token, json: completion('one.ts') });
    expectStatus(limited, 429);
    assert.deepEqual(limited.body, { message: { error: 'This endpoint has been requested too many times. Try again later.' } });
    assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/);
    // Per user: another one is not held back.
    expectStatus(await api('/code_suggestions/completions', { method: 'POST', token: other.token, json: completion('one.ts') }), 200);
  });
});

describe('direct access and the instance’s key set', () => {
  it('hands out an RS256 token of at most an hour that the published JWKS verifies, and refuses a tampered one', async () => {
    const res = await api('/code_suggestions/direct_access', { method: 'POST', token: coder.token });
    expectStatus(res, 201);
    const access = expectShape(directAccessDetails, res.body);
    assert.equal(access.base_url, gatewayUrl);
    const now = Math.floor(Date.now() / 1000);
    assert.ok(access.expires_at > now && access.expires_at <= now + 3600 + 5, `expires_at ${access.expires_at}`);
    assert.equal(access.headers['X-Service-Realm'], 'self-managed');

    const keysRes = await fetch(`${server.url}/oauth/discovery/keys`);
    assert.equal(keysRes.status, 200);
    const set = expectShape(jsonWebKeySet, await keysRes.json());
    const jwt = decodeJwt(access.token);
    assert.equal(jwt.header.alg, 'RS256');
    const jwk = set.keys.find((k) => k.kid === jwt.header.kid);
    assert.ok(jwk, 'the token’s kid is in the key set');
    assert.equal(jwt.claims.exp, access.expires_at);
    assert.equal(jwt.claims.sub, access.headers['X-Service-Global-User-Id']);
    const publicKey = crypto.createPublicKey({ key: jwk, format: 'jwk' });
    assert.ok(crypto.verify('sha256', Buffer.from(jwt.signed), publicKey, jwt.signature));
    // Another subject under the same signature: the check refuses it.
    const forged = Buffer.from(JSON.stringify({ ...jwt.claims, sub: 'someone-else' })).toString('base64url');
    const tampered = `${jwt.signed.split('.')[0]}.${forged}`;
    assert.equal(crypto.verify('sha256', Buffer.from(tampered), publicKey, jwt.signature), false);
    // The gateway's own calls are signed by the same key.
    const gatewayJwt = decodeJwt(String(gateway.received[0].headers.authorization).slice('Bearer '.length));
    assert.equal(gatewayJwt.header.kid, jwk.kid);
    assert.ok(crypto.verify('sha256', Buffer.from(gatewayJwt.signed), publicKey, gatewayJwt.signature));
  });

  it('keeps the key in the database, sealed, for every instance sharing it', async () => {
    const { db, vault } = server.running;
    const row = await db.selectFrom('instance_identity').select('value').where('name', '=', 'jwt_signing_key').executeTakeFirstOrThrow();
    assert.doesNotMatch(row.value, /PRIVATE KEY/, 'the private key is stored in the clear');
    // What another instance with the installation's secret key reads: the key the set publishes.
    const stored = crypto.createPublicKey(crypto.createPrivateKey(vault.decrypt(row.value))).export({ format: 'jwk' });
    const published = expectShape(jsonWebKeySet, await (await fetch(`${server.url}/oauth/discovery/keys`)).json()).keys[0];
    assert.equal(stored.n, published.n);
    assert.equal(stored.e, published.e);
  });

  it('gives the connection details', async () => {
    const res = await api('/code_suggestions/connection_details', { method: 'POST', token: coder.token });
    expectStatus(res, 201);
    const details = expectShape(connectionDetails, res.body);
    assert.equal(details.realm, 'self-managed');
    assert.equal(details.host_name, '127.0.0.1');
    assert.match(details.instance_id, /^[0-9a-f-]{36}$/);
  });
});

describe('enabled', () => {
  it('answers 200 for a project the caller sees, 404 for an empty, missing or hidden one, 403 with AI features off', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const [member, stranger] = await Promise.all([buildUser({ scopes: ['ai_features'] }), buildUser({ scopes: ['ai_features'] })]);
    await addMember('groups', group.id, member.user.id, L.reporter);
    const enabled = (token: string, project_path: string) => api('/code_suggestions/enabled', { method: 'POST', token, json: { project_path } });
    expectStatus(await enabled(member.token, project.path_with_namespace), 200);
    expectStatus(await enabled(member.token, ''), 404);
    expectStatus(await enabled(member.token, `${group.full_path}/no-such-project`), 404);
    expectStatus(await enabled(stranger.token, project.path_with_namespace), 404);
    expectStatus(await api(`/groups/${group.id}`, { method: 'PUT', json: { ai_features_enabled: false } }), 200);
    expectStatus(await enabled(member.token, project.path_with_namespace), 403);
  });
});
