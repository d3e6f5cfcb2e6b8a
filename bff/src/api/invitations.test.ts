import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { invitation, invitationResult } from '../../../shared/src/invitations.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';
import { startMailReceiver, type MailReceiver } from '../../test/mail-receiver.ts';

let server: TestServer;
let mail: MailReceiver;
/** Everything the server logs, at every level: no invitation code may appear in it. */
const logged: string[] = [];
before(async () => {
  mail = await startMailReceiver();
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk));
      done();
    },
  });
  server = await startTestServer({ GATEHOUSE_SMTP_URL: mail.url, GATEHOUSE_SMTP_FROM: 'Gatehouse <gate@example.com>' }, { logger: pino({ level: 'trace' }, sink) });
});
after(async () => {
  await server.close();
  await mail.close();
});

type BuiltUser = Awaited<ReturnType<typeof buildUser>>;
const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
let seq = 0;
const address = (who: string) => `${who}-${process.pid}-${++seq}@invited.example`;
const codeOf = (text: string) => /Invitation code: (\S+)/.exec(text)?.[1];

for (const scope of ['groups', 'projects'] as const) {
  const admin = scope === 'groups' ? 50 : 40;
  const below = scope === 'groups' ? 40 : 30;
  const base = (id: number) => `/${scope}/${id}/invitations`;

  describe(`${scope}/:id/invitations`, () => {
    let id: number;
    let inviter: BuiltUser, lesser: BuiltUser, stranger: BuiltUser, existing: BuiltUser;
    before(async () => {
      const group = await buildGroup();
      id = scope === 'groups' ? group.id : (await buildProject(group.id)).id;
      inviter = await buildUser();
      lesser = await buildUser();
      stranger = await buildUser();
      existing = await buildUser();
      await addMember(scope, id, inviter.user.id, admin);
      await addMember(scope, id, lesser.user.id, below);
    });
    const invite = (json: Record<string, unknown>, token = inviter.token) => api(base(id), { method: 'POST', token, json });
    const list = (token = inviter.token, query = '') => api(`${base(id)}${query}`, { token });

    describe('POST', () => {
      it('invites several addresses and adds a user by id in one request; mails each address its code, kept only as a digest', async () => {
        const [a, b] = [address('ana'), address('ben')];
        const membersBefore = (await api(`/${scope}/${id}/members`, { token: inviter.token })).body.length;
        const res = await invite({ email: `${a}, ${b.toUpperCase()}`, user_id: String(existing.user.id), access_level: 30, expires_at: daysFromNow(30) });
        expectStatus(res, 201);
        assert.deepEqual(expectShape(invitationResult, res.body), { status: 'success' });

        const listed = await list();
        expectStatus(listed, 200);
        assert.equal(listed.headers.get('x-total'), '2');
        const rows = listed.body.map((i: unknown) => expectShape(invitation, i));
        assert.deepEqual(rows.map((i: { invite_email: string }) => i.invite_email), [a, b]);
        assert.equal(rows[0].access_level, 30);
        assert.equal(rows[0].expires_at, daysFromNow(30));
        assert.equal(rows[0].created_by_name, inviter.user.name);

        const members = await api(`/${scope}/${id}/members`, { token: inviter.token });
        const ids = members.body.map((m: { id: number }) => m.id);
        assert.ok(ids.includes(existing.user.id), 'the user named by id is a member at once');
        assert.equal(members.body.length, membersBefore + 1, 'pending invitations are not members');

        for (const to of [a, b]) {
          const m = await mail.waitFor((x) => x.to !== undefined && JSON.stringify(x.to).includes(to));
          assert.match(m.subject ?? '', new RegExp(`${inviter.user.name} invited you to join`));
          const code = codeOf(m.text ?? '');
          assert.ok(code && code.length >= 32, 'the mail carries the invitation code');
          const row = await server.running.db.selectFrom('invitations').select('token_digest').where('invite_email', '=', to).executeTakeFirstOrThrow();
          assert.equal(row.token_digest, crypto.createHash('sha256').update(code).digest('hex'));
          assert.ok(!logged.some((l) => l.includes(code)), 'no log line holds the code');
          assert.ok(!listed.text.includes(code));
        }
      });

      it('adds a user found by their address as a member at once, and tells each refused address why (201, as the platform)', async () => {
        const taken = address('taken');
        expectStatus(await invite({ email: taken, access_level: 20 }), 201);
        const user = await buildUser();
        const res = await invite({ email: [taken, `${user.user.username}@example.com`], access_level: 20 });
        expectStatus(res, 201);
        assert.deepEqual(res.body, { status: 'error', message: { [taken]: 'Invite email has already been taken' } });
        const member = await api(`/${scope}/${id}/members/${user.user.id}`, { token: inviter.token });
        expectStatus(member, 200);
        assert.equal(member.body.access_level, 20);

        const past = await invite({ email: address('late'), access_level: 20, expires_at: daysFromNow(-2) });
        expectStatus(past, 201);
        assert.equal(past.body.status, 'error');
        assert.deepEqual(Object.values(past.body.message), ['Expires at cannot be a date in the past']);

        const many = await invite({ email: Array.from({ length: 101 }, (_, i) => `n${i}@many.example`).join(','), access_level: 20 });
        expectStatus(many, 201);
        assert.deepEqual(many.body, { status: 'error', message: 'Too many users specified (limit is 100)' });
      });

      it('answers 400 without an address or user, with a malformed address, or without a valid access level; nothing is written', async () => {
        const before = (await list()).headers.get('x-total');
        for (const json of [{ access_level: 30 }, { email: '', access_level: 30 }, { user_id: '', access_level: 30 }]) {
          const res = await invite(json);
          expectStatus(res, 400);
          assert.deepEqual(res.body, { message: '400 Bad request - Must provide either email or user_id as a parameter' });
        }
        const bad = await invite({ email: `${address('ok')},not-an-email`, access_level: 30 });
        expectStatus(bad, 400);
        assert.deepEqual(bad.body, { error: 'email contains an invalid email address' });
        expectStatus(await invite({ email: address('x') }), 400);
        expectStatus(await invite({ email: address('x'), access_level: 33 }), 400);
        assert.equal((await list()).headers.get('x-total'), before);
      });

      it(`refuses (403) a ${below === 40 ? 'Maintainer' : 'Developer'} and (404) a stranger to the private ${scope.slice(0, -1)}`, async () => {
        expectStatus(await invite({ email: address('no'), access_level: 10 }, lesser.token), 403);
        expectStatus(await list(lesser.token), 403);
        const res = await invite({ email: address('no'), access_level: 10 }, stranger.token);
        expectStatus(res, 404);
      });
    });

    describe('GET, PUT and DELETE …/:email', () => {
      it('finds an invitation by its exact address, changes it, withdraws it', async () => {
        const who = address('carl');
        expectStatus(await invite({ email: who, access_level: 10 }), 201);
        const found = await list(inviter.token, `?query=${encodeURIComponent(who.toUpperCase())}`);
        expectStatus(found, 200);
        assert.deepEqual(found.body.map((i: { invite_email: string }) => i.invite_email), [who]);
        expectStatus(await list(inviter.token, `?query=${encodeURIComponent(who.slice(1))}`), 200);
        assert.equal((await list(inviter.token, `?query=${encodeURIComponent(who.slice(1))}`)).body.length, 0, 'the query is the whole address');

        const path = `${base(id)}/${encodeURIComponent(who)}`;
        const put = await api(path, { method: 'PUT', token: inviter.token, json: { access_level: 20, expires_at: daysFromNow(5) } });
        expectStatus(put, 200);
        const changed = expectShape(invitation, put.body);
        assert.equal(changed.access_level, 20);
        assert.equal(changed.expires_at, daysFromNow(5));
        expectStatus(await api(path, { method: 'PUT', token: inviter.token, json: {} }), 400);
        const late = await api(path, { method: 'PUT', token: inviter.token, json: { expires_at: daysFromNow(-1) } });
        expectStatus(late, 400);
        assert.deepEqual(late.body, { message: { expires_at: ['cannot be a date in the past'] } });
        expectStatus(await api(path, { method: 'PUT', token: lesser.token, json: { access_level: 30 } }), 403);
        expectStatus(await api(path, { method: 'DELETE', token: lesser.token }), 403);

        expectStatus(await api(path, { method: 'DELETE', token: inviter.token }), 204);
        const gone = await api(path, { method: 'DELETE', token: inviter.token });
        expectStatus(gone, 404);
        assert.deepEqual(gone.body, { message: '404 Not found' });
        expectStatus(await api(path, { method: 'PUT', token: inviter.token, json: { access_level: 30 } }), 404);
      });
    });

    describe('acceptance', () => {
      it('turns the invitation into a membership when a user with the address is created', async () => {
        const who = address('dora');
        expectStatus(await invite({ email: who, access_level: 20, expires_at: daysFromNow(9) }), 201);
        const created = await api('/users', { method: 'POST', json: { username: `dora${process.pid}${++seq}${scope}`, name: 'Dora', email: who.toUpperCase(), password: 'a-long-password-1' } });
        expectStatus(created, 201);
        const member = await api(`/${scope}/${id}/members/${created.body.id}`, { token: inviter.token });
        expectStatus(member, 200);
        assert.equal(member.body.access_level, 20);
        assert.equal(member.body.expires_at, daysFromNow(9));
        assert.equal(member.body.created_by.id, inviter.user.id);
        assert.equal((await list(inviter.token, `?query=${encodeURIComponent(who)}`)).body.length, 0, 'the invitation is used up');
      });
    });
  });
}

describe('POST /projects/:id/invitations (Owner role)', () => {
  it('refuses a Maintainer who invites an Owner (403), as the platform', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const maintainer = await buildUser();
    await addMember('projects', project.id, maintainer.user.id, 40);
    const res = await api(`/projects/${project.id}/invitations`, { method: 'POST', token: maintainer.token, json: { email: address('own'), access_level: 50 } });
    expectStatus(res, 403);
  });
});
