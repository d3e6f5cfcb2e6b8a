import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildGroup, buildProject, buildUser, expectStatus, request as api, startTestServer, type ApiResponse, type TestServer } from './harness.ts';

/*
 * The wire rules of the platform's framework (Grape on Rack), which hold for every route
 * because the route mechanism applies them (http/query-string.ts, http/route.ts,
 * http/authenticate.ts, shared/src/params.ts): arrays of hashes in form bodies as Rack reads
 * them, booleans as Grape coerces them, and Sudo. Each is shown here on routes whose
 * parameters need it; the parsing itself is unit-tested in http/query-string.unit.test.ts.
 */

let server: TestServer;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  // The hooks made here point at a local port that nothing answers: no delivery is awaited.
  expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
});
after(async () => {
  await server.close();
});

/** A request with a body written by hand, as a client library writes it: form pairs in order, repeated keys and all. */
async function send(method: string, path: string, body: string | FormData, opts: { token?: string | null; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? server.rootToken : opts.token;
  if (token) headers['PRIVATE-TOKEN'] = token;
  if (typeof body === 'string') headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(`${server.url}/api/v4${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}

/** `[['a', '1'], ['b[]', '2']]` as a form body, each name and value percent-encoded as browsers and SDKs do. */
const form = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

const treeOf = async (ref: string) => ((await api(`/projects/${project.id}/repository/tree?ref=${ref}&per_page=100`)).body as { path: string }[]).map((e) => e.path).sort();
const rawFile = async (file: string, ref: string) => (await api(`/projects/${project.id}/repository/files/${encodeURIComponent(file)}/raw?ref=${ref}`)).text;

describe('arrays of hashes in form bodies, as Rack reads them', () => {
  it('POST /projects/:id/repository/commits takes actions[][action]=…: a new action starts where a key repeats', async () => {
    // What the Ruby and Perl libraries send: the brackets unencoded, one key after another.
    const body = [
      'branch=main',
      'commit_message=two+files',
      'actions[][action]=create',
      'actions[][file_path]=a.txt',
      'actions[][content]=first',
      'actions[][action]=create',
      'actions[][file_path]=dir/b.txt',
      'actions[][content]=second',
      'actions[][execute_filemode]=1',
    ].join('&');
    const res = await send('POST', `/projects/${project.id}/repository/commits`, body);
    expectStatus(res, 201);
    assert.equal(res.body.title, 'two files');
    assert.deepEqual(res.body.stats, { additions: 2, deletions: 0, total: 2 });
    assert.deepEqual(await treeOf('main'), ['a.txt', 'dir']);
    assert.equal(await rawFile('a.txt', 'main'), 'first');
    assert.equal(await rawFile('dir/b.txt', 'main'), 'second');
  });

  it('takes the same with the brackets percent-encoded, and actions[0][action]=… (indexed), past 20 actions', async () => {
    const encoded = form([
      ['branch', 'main'],
      ['commit_message', 'update a'],
      ['actions[][action]', 'update'],
      ['actions[][file_path]', 'a.txt'],
      ['actions[][content]', 'changed'],
    ]);
    expectStatus(await send('POST', `/projects/${project.id}/repository/commits`, encoded), 201);
    assert.equal(await rawFile('a.txt', 'main'), 'changed');

    const indexed: [string, string][] = [['branch', 'main'], ['commit_message', 'many']];
    for (let i = 0; i < 25; i++) indexed.push([`actions[${i}][action]`, 'create'], [`actions[${i}][file_path]`, `many/f${i}.txt`], [`actions[${i}][content]`, `n${i}`]);
    const res = await send('POST', `/projects/${project.id}/repository/commits`, form(indexed));
    expectStatus(res, 201);
    assert.equal(res.body.stats.additions, 25);
    assert.equal(await rawFile('many/f24.txt', 'main'), 'n24');
  });

  it('answers a bad action in a form list with the field-level 400, and writes nothing', async () => {
    const before = await treeOf('main');
    const res = await send('POST', `/projects/${project.id}/repository/commits`, 'branch=main&commit_message=x&actions[][action]=create&actions[][file_path]=ok.txt&actions[][content]=x&actions[][action]=explode&actions[][file_path]=no.txt');
    expectStatus(res, 400);
    assert.match(JSON.stringify(res.body), /actions/);
    assert.deepEqual(await treeOf('main'), before);
  });

  it('PUT /groups/:id as multipart/form-data (with an avatar) takes default_branch_protection_defaults[allowed_to_push][][access_level]', async () => {
    const body = new FormData();
    body.append('default_branch_protection_defaults[allowed_to_push][][access_level]', '30');
    body.append('default_branch_protection_defaults[allowed_to_push][][access_level]', '40');
    body.append('default_branch_protection_defaults[allowed_to_merge][][access_level]', '40');
    body.append('default_branch_protection_defaults[allow_force_push]', 'yes');
    body.append('avatar', new Blob([PNG], { type: 'image/png' }), 'a.png');
    const res = await send('PUT', `/groups/${group.id}`, body);
    expectStatus(res, 200);
    assert.deepEqual(res.body.default_branch_protection_defaults.allowed_to_push, [{ access_level: 30 }, { access_level: 40 }]);
    assert.deepEqual(res.body.default_branch_protection_defaults.allowed_to_merge, [{ access_level: 40 }]);
    assert.equal(res.body.default_branch_protection_defaults.allow_force_push, true);
  });

  it('POST /projects/:id/hooks takes custom_headers[][key]/[value] and url_variables[][key]/[value] as form fields', async () => {
    const res = await send(
      'POST',
      `/projects/${project.id}/hooks`,
      form([
        ['url', 'http://127.0.0.1:9/{host}/in'],
        ['custom_headers[][key]', 'X-One'],
        ['custom_headers[][value]', '1'],
        ['custom_headers[][key]', 'X-Two'],
        ['custom_headers[][value]', '2'],
        ['url_variables[][key]', 'host'],
        ['url_variables[][value]', 'ci'],
      ]),
    );
    expectStatus(res, 201);
    assert.deepEqual(res.body.custom_headers, [{ key: 'X-One' }, { key: 'X-Two' }]);
    assert.deepEqual(res.body.url_variables, [{ key: 'host' }]);
  });

  it('POST and PUT /projects/:id/snippets take files[][file_path]/[content] and files[][action] as form fields', async () => {
    const created = await send(
      'POST',
      `/projects/${project.id}/snippets`,
      form([
        ['title', 'two files'],
        ['visibility', 'private'],
        ['files[][file_path]', 'one.rb'],
        ['files[][content]', 'puts 1'],
        ['files[][file_path]', 'two.rb'],
        ['files[][content]', 'puts 2'],
      ]),
    );
    expectStatus(created, 201);
    assert.deepEqual(created.body.files.map((f: { path: string }) => f.path).sort(), ['one.rb', 'two.rb']);
    const updated = await send(
      'PUT',
      `/projects/${project.id}/snippets/${created.body.id}`,
      form([
        ['files[][action]', 'delete'],
        ['files[][file_path]', 'one.rb'],
        ['files[][action]', 'update'],
        ['files[][file_path]', 'two.rb'],
        ['files[][content]', 'puts 22'],
      ]),
    );
    expectStatus(updated, 200);
    assert.deepEqual(updated.body.files.map((f: { path: string }) => f.path), ['two.rb']);
  });
});

describe('booleans, as the platform coerces them', () => {
  const hookFlags = async (body: object | string) => {
    const res = typeof body === 'string' ? await send('POST', `/projects/${project.id}/hooks`, body) : await api(`/projects/${project.id}/hooks`, { method: 'POST', json: body });
    expectStatus(res, 201);
    return res.body as Record<string, unknown>;
  };

  it('takes 1 and 0 in a JSON body (Perl clients send them)', async () => {
    const hook = await hookFlags({ url: 'http://127.0.0.1:9/json', push_events: 0, issues_events: 1, enable_ssl_verification: 0 });
    assert.equal(hook.push_events, false);
    assert.equal(hook.issues_events, true);
    assert.equal(hook.enable_ssl_verification, false);
  });

  it('takes "1"/"0", "true"/"false", "yes"/"no", "t"/"f", "on"/"off" in JSON and form bodies', async () => {
    const json = await hookFlags({ url: 'http://127.0.0.1:9/j', push_events: 'no', issues_events: 'yes', note_events: 't', tag_push_events: '1', enable_ssl_verification: 'off' });
    assert.deepEqual([json.push_events, json.issues_events, json.note_events, json.tag_push_events, json.enable_ssl_verification], [false, true, true, true, false]);
    const fromForm = await hookFlags('url=http%3A%2F%2F127.0.0.1%3A9%2Ff&push_events=f&issues_events=true&note_events=Y&tag_push_events=0&job_events=on');
    assert.deepEqual([fromForm.push_events, fromForm.issues_events, fromForm.note_events, fromForm.tag_push_events, fromForm.job_events], [false, true, true, false, true]);
  });

  it('reads an empty value as no value (the default holds), as Grape does', async () => {
    const hook = await hookFlags('url=http%3A%2F%2F127.0.0.1%3A9%2Fe&push_events=&issues_events=');
    assert.equal(hook.push_events, true);
    assert.equal(hook.issues_events, false);
  });

  it('takes them in the query: GET /personal_access_tokens?revoked=yes|t|1 and no|f|0', async () => {
    const u = await buildUser();
    const revoke = await api(`/personal_access_tokens/${(await api('/personal_access_tokens/self', { token: (await buildTokenFor(u.user.id)).token })).body.id}`, { method: 'DELETE' });
    expectStatus(revoke, 204);
    for (const [spelling, revoked] of [['yes', true], ['t', true], ['1', true], ['no', false], ['f', false], ['0', false]] as const) {
      const res = await api(`/personal_access_tokens?user_id=${u.user.id}&revoked=${spelling}`);
      expectStatus(res, 200);
      assert.ok(res.body.length > 0, spelling);
      assert.ok(res.body.every((t: { revoked: boolean }) => t.revoked === revoked), spelling);
    }
  });

  it('answers any other value with the platform’s 400 for that parameter', async () => {
    for (const bad of [2, -1, 'maybe', 0.5, [], {}]) {
      const res = await api(`/projects/${project.id}/hooks`, { method: 'POST', json: { url: 'http://127.0.0.1:9/bad', push_events: bad } });
      expectStatus(res, 400);
      assert.match(JSON.stringify(res.body), /push_events/, JSON.stringify(bad));
    }
    expectStatus(await api('/personal_access_tokens?revoked=maybe'), 400);
  });
});

/** Another token for the user, made by the administrator (users get one from buildUser). */
async function buildTokenFor(userId: number, scopes = ['api']) {
  const res = await api(`/users/${userId}/personal_access_tokens`, { method: 'POST', json: { name: 'more', scopes } });
  expectStatus(res, 201);
  return res.body as { id: number; token: string; scopes: string[] };
}

describe('Sudo', () => {
  let admin: Awaited<ReturnType<typeof buildUser>>;
  let member: Awaited<ReturnType<typeof buildUser>>;
  let outsider: Awaited<ReturnType<typeof buildUser>>;

  before(async () => {
    admin = await buildUser({ admin: true, scopes: ['api', 'sudo'] });
    member = await buildUser();
    outsider = await buildUser();
    expectStatus(await api(`/projects/${project.id}/members`, { method: 'POST', json: { user_id: member.user.id, access_level: 40 } }), 201);
  });

  it('acts as the user named by the Sudo header (username, any case) or the sudo parameter (id), for reads and writes', async () => {
    const byHeader = await api('/user', { token: admin.token, headers: { Sudo: member.user.username.toUpperCase() } });
    expectStatus(byHeader, 200);
    assert.equal(byHeader.body.id, member.user.id);
    const byQuery = await api(`/user?sudo=${member.user.id}`, { token: admin.token });
    assert.equal(byQuery.body.id, member.user.id);

    // The write is the member's: its author, not the administrator's.
    const issue = await api(`/projects/${project.id}/issues`, { method: 'POST', token: admin.token, headers: { Sudo: member.user.username }, json: { title: 'as the member' } });
    expectStatus(issue, 201);
    assert.equal(issue.body.author.id, member.user.id);
    const inBody = await api(`/projects/${project.id}/issues`, { method: 'POST', token: admin.token, json: { title: 'sudo in the body', sudo: member.user.id } });
    expectStatus(inBody, 201);
    assert.equal(inBody.body.author.id, member.user.id);
    const inForm = await send('POST', `/projects/${project.id}/issues`, `title=form&sudo=${member.user.username}`, { token: admin.token });
    expectStatus(inForm, 201);
    assert.equal(inForm.body.author.id, member.user.id);
    // A commit's committer too.
    const commit = await api(`/projects/${project.id}/repository/commits`, {
      method: 'POST',
      token: admin.token,
      headers: { Sudo: String(member.user.id) },
      json: { branch: 'main', commit_message: 'by the member', actions: [{ action: 'create', file_path: 'sudo.txt', content: 'x' }] },
    });
    expectStatus(commit, 201);
    assert.equal(commit.body.committer_name, member.user.name);
  });

  it('reads a sudo field of a multipart body too (clients send uploads so): the call has the named user’s permissions', async () => {
    const multipart = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      return fetch(`${server.url}/api/v4/users/${outsider.user.id}`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': admin.token }, body: form });
    };
    // As the member (no administrator): the admin-only change is refused, and nothing changes.
    const asMember = await multipart({ bio: 'written as the member', sudo: member.user.username });
    assert.equal(asMember.status, 403, await asMember.text());
    assert.notEqual((await api(`/users/${outsider.user.id}`)).body.bio, 'written as the member');
    // The same form without sudo is the administrator's own, and is made.
    const asAdmin = await multipart({ bio: 'written as the administrator' });
    assert.equal(asAdmin.status, 200, await asAdmin.text());
    assert.equal((await api(`/users/${outsider.user.id}`)).body.bio, 'written as the administrator');
    // Named by id and refused without the scope, as from any other place.
    const plain = await buildUser({ admin: true, scopes: ['api'] });
    const form = new FormData();
    form.append('bio', 'x');
    form.append('sudo', String(member.user.id));
    const noScope = await fetch(`${server.url}/api/v4/users/${outsider.user.id}`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': plain.token }, body: form });
    assert.equal(noScope.status, 403);
    assert.equal(((await noScope.json()) as { scope?: string }).scope, 'sudo');
  });

  it('has the named user’s permissions: a project the user cannot see is 404, an admin-only route 403', async () => {
    const hidden = await api(`/projects/${project.id}`, { token: admin.token, headers: { Sudo: outsider.user.username } });
    expectStatus(hidden, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    expectStatus(await api('/users/' + member.user.id + '/personal_access_tokens', { method: 'POST', token: admin.token, headers: { Sudo: member.user.username }, json: { name: 'x', scopes: ['api'] } }), 403);
    const before = (await api(`/projects/${project.id}/issues?per_page=100`)).body.length;
    expectStatus(await api(`/projects/${project.id}/issues`, { method: 'POST', token: admin.token, headers: { Sudo: outsider.user.username }, json: { title: 'no' } }), 404);
    assert.equal((await api(`/projects/${project.id}/issues?per_page=100`)).body.length, before);
  });

  it('refuses a token without the sudo scope with the platform’s insufficient_scope answer', async () => {
    const plain = await buildTokenFor(admin.user.id, ['api']);
    const res = await api('/user', { token: plain.token, headers: { Sudo: member.user.username } });
    expectStatus(res, 403);
    assert.deepEqual(res.body, {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'sudo',
    });
    // Nothing was written as the administrator either.
    const before = (await api(`/projects/${project.id}/issues?per_page=100`)).body.length;
    expectStatus(await api(`/projects/${project.id}/issues`, { method: 'POST', token: plain.token, headers: { Sudo: member.user.username }, json: { title: 'refused' } }), 403);
    assert.equal((await api(`/projects/${project.id}/issues?per_page=100`)).body.length, before);
  });

  it('refuses a non-administrator with 403 "Must be admin to use sudo"', async () => {
    for (const res of [await api('/user', { token: member.token, headers: { Sudo: outsider.user.username } }), await api(`/user?sudo=${outsider.user.id}`, { token: member.token })]) {
      expectStatus(res, 403);
      assert.deepEqual(res.body, { message: '403 Forbidden - Must be admin to use sudo' });
    }
  });

  it('answers 404 for a user that does not exist, and 401 without a credential', async () => {
    for (const who of ['nobody-here', '987654321', '99999999999999']) {
      const res = await api('/user', { token: admin.token, headers: { Sudo: who } });
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: `404 User with ID or username '${who}' Not Found` });
    }
    const anonymous = await api(`/projects?sudo=${member.user.username}`, { token: null });
    expectStatus(anonymous, 401);
  });

  it('refuses a console session (not an access token), and leaves sessions without Sudo as they were', async () => {
    const signIn = await api('/api/console/session', { method: 'POST', token: null, json: { username: admin.user.username, password: admin.password } });
    expectStatus(signIn, 201);
    const cookie = `gatehouse_session=${signIn.headers.get('set-cookie')!.split(';')[0].split('=')[1]}`;
    const plain = await api('/user', { token: null, headers: { cookie } });
    expectStatus(plain, 200);
    assert.equal(plain.body.id, admin.user.id);
    const sudo = await api('/user', { token: null, headers: { cookie, Sudo: member.user.username } });
    expectStatus(sudo, 403);
    assert.deepEqual(sudo.body, { message: '403 Forbidden - Must be authenticated using an OAuth or Personal Access Token to use sudo' });
    // The console's own endpoints are the session's user's, whatever header comes along.
    const own = await api('/api/console/session', { token: null, headers: { cookie, Sudo: member.user.username } });
    expectStatus(own, 200);
    assert.equal(own.body.user.id, admin.user.id);
  });

  it('gives the sudo scope to an administrator’s personal access token only', async () => {
    const granted = await buildTokenFor(admin.user.id, ['api', 'sudo']);
    assert.deepEqual(granted.scopes, ['api', 'sudo']);
    const refused = await api(`/users/${member.user.id}/personal_access_tokens`, { method: 'POST', json: { name: 'no', scopes: ['api', 'sudo'] } });
    expectStatus(refused, 400);
    assert.deepEqual(refused.body, { message: { scopes: ['can only contain available scopes'] } });
    // Group access tokens (bots) never carry it.
    expectStatus(await api(`/groups/${group.id}/access_tokens`, { method: 'POST', json: { name: 'bot', scopes: ['sudo'], access_level: 30, expires_at: '2099-01-01' } }), 400);
  });
});

/** The smallest PNG: one transparent pixel. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
