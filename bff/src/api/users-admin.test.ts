import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { user } from '../../../shared/src/users.ts';
import { buildGroup, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';

/** What administrators do to accounts: change them, block and unblock them. */

let server: TestServer;
let admin: Awaited<ReturnType<typeof buildUser>>;
before(async () => {
  server = await startTestServer();
  admin = await buildUser({ admin: true });
});
after(() => server.close());

const signIn = (username: string, password: string) => api('/api/console/session', { method: 'POST', token: null, json: { username, password } });

describe('PUT /users/:user_id', () => {
  it('changes what is sent and keeps the rest, the password included', async () => {
    const u = await buildUser();
    const res = await api(`/users/${u.user.id}`, { method: 'PUT', token: admin.token, json: { name: 'Renamed', bio: 'Writes docs', can_create_group: false } });
    expectStatus(res, 200);
    const body = expectShape(user, res.body);
    assert.equal(body.name, 'Renamed');
    assert.equal(body.bio, 'Writes docs');
    assert.equal(body.can_create_group, false);
    assert.equal(body.username, u.user.username);
    assert.equal(body.email, `${u.user.username}@example.com`);
    expectStatus(await signIn(u.user.username, u.password), 201);
  });

  it('sets a new password, after which only the new one signs in', async () => {
    const u = await buildUser();
    expectStatus(await api(`/users/${u.user.id}`, { method: 'PUT', token: admin.token, json: { password: 'a-new-password-1' } }), 200);
    expectStatus(await signIn(u.user.username, u.password), 401);
    expectStatus(await signIn(u.user.username, 'a-new-password-1'), 201);
  });

  it('makes a user an administrator and back', async () => {
    const u = await buildUser();
    const up = await api(`/users/${u.user.id}`, { method: 'PUT', token: admin.token, json: { admin: true } });
    expectStatus(up, 200);
    assert.equal(up.body.is_admin, true);
    expectStatus(await api('/application/settings', { token: u.token }), 200);
    const down = await api(`/users/${u.user.id}`, { method: 'PUT', token: admin.token, form: { admin: 'false' } });
    expectStatus(down, 200);
    assert.equal(down.body.is_admin, false);
    expectStatus(await api('/application/settings', { token: u.token }), 403);
  });

  it('refuses an administrator taking away their own administrator access (403), and changes nothing', async () => {
    const self = await buildUser({ admin: true });
    const res = await api(`/users/${self.user.id}`, { method: 'PUT', token: self.token, json: { admin: false, name: 'Not saved' } });
    expectStatus(res, 403);
    assert.deepEqual(res.body, { message: '403 Forbidden - You cannot remove your own administrator access' });
    const after = await api(`/users/${self.user.id}`, { token: admin.token });
    assert.equal(after.body.is_admin, true);
    assert.equal(after.body.name, self.user.name);
    // Saying yes again is no change, and another administrator may still remove it.
    expectStatus(await api(`/users/${self.user.id}`, { method: 'PUT', token: self.token, json: { admin: true } }), 200);
    const down = await api(`/users/${self.user.id}`, { method: 'PUT', token: admin.token, json: { admin: false } });
    expectStatus(down, 200);
    assert.equal(down.body.is_admin, false);
  });

  it('answers 409 for an email or username another user has, whatever the case, and changes nothing', async () => {
    const [a, b] = [await buildUser(), await buildUser()];
    const email = await api(`/users/${a.user.id}`, { method: 'PUT', token: admin.token, json: { email: `${b.user.username.toUpperCase()}@example.com`, name: 'Not saved' } });
    expectStatus(email, 409);
    assert.deepEqual(email.body, { message: 'Email has already been taken' });
    const name = await api(`/users/${a.user.id}`, { method: 'PUT', token: admin.token, json: { username: b.user.username.toUpperCase() } });
    expectStatus(name, 409);
    assert.deepEqual(name.body, { message: 'Username has already been taken' });
    assert.equal((await api(`/users/${a.user.id}`, { token: admin.token })).body.name, a.user.name);
    // Its own values are no conflict.
    expectStatus(await api(`/users/${a.user.id}`, { method: 'PUT', token: admin.token, json: { username: a.user.username, email: `${a.user.username}@example.com` } }), 200);
  });

  it('answers 400 with the field for a malformed value, and 404 for a user that does not exist', async () => {
    const u = await buildUser();
    const bad = await api(`/users/${u.user.id}`, { method: 'PUT', token: admin.token, json: { email: 'not-an-email', username: 'bad name' } });
    expectStatus(bad, 400);
    assert.deepEqual(Object.keys(bad.body.message).sort(), ['email', 'username']);
    for (const id of ['987654321', 'abc', '2147483648']) {
      const res = await api(`/users/${id}`, { method: 'PUT', token: admin.token, json: { name: 'x' } });
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 User Not Found' });
    }
  });

  it('takes the form as multipart too (as SDKs send it), and says an avatar file is not kept', async () => {
    const u = await buildUser();
    const form = new FormData();
    form.set('name', 'From a multipart form');
    form.set('external', 'true');
    const res = await api(`/users/${u.user.id}`, { method: 'PUT', token: admin.token, multipart: form });
    expectStatus(res, 200);
    assert.equal(res.body.name, 'From a multipart form');
    assert.equal(res.body.external, true);
    const withAvatar = new FormData();
    withAvatar.set('name', 'Not saved');
    withAvatar.set('avatar', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), 'a.png');
    const refused = await api(`/users/${u.user.id}`, { method: 'PUT', token: admin.token, multipart: withAvatar });
    expectStatus(refused, 400);
    assert.deepEqual(refused.body, { message: { avatar: ['cannot be uploaded for users yet'] } });
    assert.equal((await api(`/users/${u.user.id}`, { token: admin.token })).body.name, 'From a multipart form');
  });

  it('is for administrators only', async () => {
    const u = await buildUser();
    const res = await api(`/users/${u.user.id}`, { method: 'PUT', token: u.token, json: { admin: true } });
    expectStatus(res, 403);
    assert.equal((await api('/user', { token: u.token })).body.is_admin, false);
  });
});

describe('POST /users/:user_id/block and /unblock', () => {
  it('blocks: 201 true, the user’s tokens and sign-in stop working and their memberships stay; unblock restores both', async () => {
    const u = await buildUser();
    const group = await buildGroup({ token: u.token });
    const blocked = await api(`/users/${u.user.id}/block`, { method: 'POST', token: admin.token });
    expectStatus(blocked, 201);
    assert.equal(blocked.text, 'true');
    expectStatus(await api('/user', { token: u.token }), 401);
    expectStatus(await signIn(u.user.username, u.password), 401);
    assert.equal((await api(`/users/${u.user.id}`, { token: admin.token })).body.state, 'blocked');
    const listed = await api(`/users?blocked=true&username=${u.user.username}`, { token: admin.token });
    assert.deepEqual(
      listed.body.map((x: { id: number }) => x.id),
      [u.user.id],
    );
    // Blocking again changes nothing and says so the same way.
    expectStatus(await api(`/users/${u.user.id}/block`, { method: 'POST', token: admin.token }), 201);

    const unblocked = await api(`/users/${u.user.id}/unblock`, { method: 'POST', token: admin.token });
    expectStatus(unblocked, 201);
    assert.equal(unblocked.text, 'true');
    expectStatus(await api('/user', { token: u.token }), 200);
    expectStatus(await api(`/groups/${group.id}`, { token: u.token }), 200);
  });

  it('ends a signed-in console session of the blocked user', async () => {
    const u = await buildUser();
    const session = await signIn(u.user.username, u.password);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0];
    expectStatus(await api('/user', { token: null, headers: { cookie } }), 200);
    expectStatus(await api(`/users/${u.user.id}/block`, { method: 'POST', token: admin.token }), 201);
    expectStatus(await api('/user', { token: null, headers: { cookie } }), 401);
  });

  it('refuses an administrator blocking themselves (403): they stay active and signed in', async () => {
    const self = await buildUser({ admin: true });
    const res = await api(`/users/${self.user.id}/block`, { method: 'POST', token: self.token });
    expectStatus(res, 403);
    assert.deepEqual(res.body, { message: '403 Forbidden - You cannot block yourself' });
    assert.equal((await api(`/users/${self.user.id}`, { token: admin.token })).body.state, 'active');
    expectStatus(await api('/user', { token: self.token }), 200);
  });

  it('refuses to block the bot user behind a group access token (403), and non-administrators (403)', async () => {
    const group = await buildGroup();
    const token = await api(`/groups/${group.id}/access_tokens`, { method: 'POST', json: { name: 'bot', scopes: ['api'] } });
    expectStatus(token, 201);
    const bot = await api(`/users/${token.body.user_id}/block`, { method: 'POST', token: admin.token });
    expectStatus(bot, 403);
    assert.deepEqual(bot.body, { message: '403 Forbidden - An internal user cannot be blocked' });
    const u = await buildUser();
    const other = await buildUser();
    expectStatus(await api(`/users/${other.user.id}/block`, { method: 'POST', token: u.token }), 403);
    expectStatus(await api('/user', { token: other.token }), 200);
  });

  it('answers 404 for a user that does not exist', async () => {
    for (const action of ['block', 'unblock']) {
      const res = await api(`/users/987654321/${action}`, { method: 'POST', token: admin.token });
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 User Not Found' });
    }
  });
});
