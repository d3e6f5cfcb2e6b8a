import { createUser, expect, signInAt, test } from './fixtures.ts';
import { Receiver, recordHookRequests } from './hooks-support.ts';

const receiver = new Receiver();

const suffix = Date.now().toString(36);
const GROUP_PATH = `hooks-e2e-${suffix}`;
const GROUP_NAME = `Hooks E2E ${suffix}`;
const PROJECT_PATH = 'delivery-app';
let groupId: number;
let projectId: number;
let allowedLocalBefore = false;

test.beforeAll(async ({ api }) => {
  await receiver.start();

  // The receiver is on 127.0.0.1, which the instance refuses unless an administrator allows local requests.
  const settings = await api<{ allow_local_requests_from_web_hooks_and_services: boolean }>('GET', '/application/settings');
  allowedLocalBefore = settings.json.allow_local_requests_from_web_hooks_and_services;
  expect((await api('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true })).status).toBe(200);

  const group = await api<{ id: number }>('POST', '/groups', { name: GROUP_NAME, path: GROUP_PATH, visibility: 'private' });
  expect(group.status).toBe(201);
  groupId = group.json.id;
  const project = await api<{ id: number }>('POST', '/projects', { name: PROJECT_PATH, path: PROJECT_PATH, namespace_id: groupId });
  expect(project.status).toBe(201);
  projectId = project.json.id;
});

test.afterAll(async ({ api }) => {
  await api('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: allowedLocalBefore });
  await receiver.stop();
});

test.describe('Group webhooks (/groups/:id/hooks)', () => {
  test.describe.configure({ mode: 'serial' });
  test.use({ membership: { scope: 'groups', id: GROUP_PATH } });

  test('as an Owner: add a hook, test it, follow a real event to the log, resend it, and watch it get disabled', async ({ page, api }) => {
    test.setTimeout(120_000);
    const writes = recordHookRequests(page);
    await signInAt(page, `/groups/${GROUP_PATH}`);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await expect(page).toHaveURL(new RegExp(`/groups/${GROUP_PATH}/-/hooks$`));
    await expect(page.getByRole('heading', { name: 'No webhooks yet' })).toBeVisible();
    await page.getByRole('button', { name: 'Add webhook' }).or(page.getByRole('link', { name: 'Add webhook' })).first().click();
    await expect(page).toHaveURL(/\/-\/hooks\/new$/);

    // The URL names a variable that is not defined yet: refused in the form, nothing sent.
    const url = `http://127.0.0.1:${receiver.port}/hook/{secret}`;
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(url);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Receiver');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByText(/Uses variables that are not defined: secret/)).toBeVisible();
    expect(writes.filter((r) => r.method() === 'POST')).toHaveLength(0);

    await page.getByRole('button', { name: 'Add {secret}' }).click();
    await page.getByLabel('Variable 1 value').fill('s3cr3t-part');
    await page.getByLabel('Secret token', { exact: true }).fill('token-123');
    // A header the server keeps for itself: the 422 lands under the headers editor.
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Service-Event');
    await page.getByLabel('Header 1 value').fill('platform');
    await page.getByRole('checkbox', { name: 'Member events' }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const headers = page.getByRole('group', { name: 'Custom headers' });
    await expect(page.getByText('X-Service-Event is set by Gatehouse and cannot be overridden')).toBeVisible();
    // On the row it is about, which takes the focus, not under the list.
    await expect(headers.getByLabel('Header 1 name')).toHaveAccessibleDescription('X-Service-Event is set by Gatehouse and cannot be overridden');
    await expect(headers.getByLabel('Header 1 name')).toHaveAttribute('aria-invalid', 'true');
    await expect(headers.getByLabel('Header 1 name')).toBeFocused();
    await expect(headers.getByLabel('Header 1 value')).not.toHaveAttribute('aria-invalid', 'true');
    expect(writes.filter((r) => r.method() === 'POST').map((r) => r.postDataJSON().url)).toEqual([url]);
    expect((await api<unknown[]>('GET', `/groups/${groupId}/hooks`)).json).toHaveLength(0);

    await headers.getByLabel('Header 1 name').fill('X-Team');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByText('Webhook added')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/groups/${GROUP_PATH}/-/hooks$`));
    const table = page.getByRole('table', { name: 'Webhooks' });
    await expect(table.getByRole('link', { name: 'Receiver', exact: true })).toBeVisible();

    const hooks = await api<Record<string, any>[]>('GET', `/groups/${groupId}/hooks`);
    expect(hooks.json).toHaveLength(1);
    const hook = hooks.json[0];
    expect(hook).toMatchObject({
      url,
      name: 'Receiver',
      push_events: true,
      member_events: true,
      issues_events: false,
      enable_ssl_verification: true,
      custom_headers: [{ key: 'X-Team' }],
      url_variables: [{ key: 'secret' }],
      alert_status: 'executable',
    });
    const post = writes.filter((r) => r.method() === 'POST').at(-1)!;
    expect(post.headers()['x-csrf-token']).toBeTruthy();

    // Test → Push events: the receiver gets a sample, the toast tells the outcome.
    await table.getByRole('button', { name: 'Test Receiver' }).click();
    await page.getByRole('menuitem', { name: 'Push events', exact: true }).click();
    await expect(page.getByText('Test delivered: Push events')).toBeVisible();
    await expect(page.getByText('Receiver answered with a 2xx status.')).toBeVisible();
    const push = receiver.byEvent('Push Hook');
    expect(push).toHaveLength(1);
    expect(push[0].path).toBe('/hook/s3cr3t-part');
    expect(push[0].headers['x-service-token']).toBe('token-123');
    expect(push[0].headers['x-team']).toBe('platform');
    expect(push[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await expect(table.getByRole('row', { name: /Receiver/ })).toContainText('200');

    // A real event: a member joins the group, and the hook hears of it through the delivery job.
    const member = await createUser('hookmember');
    expect((await api('POST', `/groups/${groupId}/members`, { user_id: member.id, access_level: 20 })).status).toBe(201);
    await expect.poll(() => receiver.byEvent('Member Hook').length, { timeout: 15_000 }).toBe(1);
    const memberDelivery = receiver.byEvent('Member Hook')[0];
    const memberKey = memberDelivery.headers['idempotency-key'];
    expect(memberKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(memberDelivery.body)).toMatchObject({ event_name: 'user_add_to_group', user_username: member.username });

    // The log lists both deliveries; the event filter lives in the URL.
    await table.getByRole('link', { name: 'Deliveries of Receiver' }).click();
    await expect(page).toHaveURL(new RegExp(`/-/hooks/${hook.id}/events$`));
    await expect(page.getByRole('heading', { name: 'Deliveries of “Receiver”' })).toBeVisible();
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect(log.getByRole('row')).toHaveCount(3);
    // The filter offers the hook's own events (push and member), not every kind there is.
    await expect(page.getByLabel('Event', { exact: true }).locator('option')).toHaveText(['All events', 'Push events', 'Member events']);
    await page.getByLabel('Event', { exact: true }).selectOption({ label: 'Member events' });
    await expect(page).toHaveURL(/trigger=member_hooks/);
    await expect(log.getByRole('row')).toHaveCount(2);
    await expect(page.getByText('Showing 1–1 of 1 delivery')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Event', { exact: true })).toHaveValue('member_hooks');
    await expect(log.getByRole('row')).toHaveCount(2);

    // The detail panel shows what was sent and what came back, from the record itself.
    await log.getByRole('button', { name: /^Details of delivery \d+: Member events$/ }).click();
    const drawer = page.getByRole('dialog', { name: /^Delivery \d+ · Member events$/ });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('table', { name: 'Request headers' })).toContainText(memberKey as string);
    await expect(drawer.getByRole('table', { name: 'Request headers' })).toContainText('[REDACTED]');
    await expect(drawer.getByLabel('Request body', { exact: true })).toContainText(`"user_username": "${member.username}"`);
    await drawer.getByRole('tab', { name: 'Response' }).click();
    await expect(drawer.getByLabel('Response body', { exact: true })).toContainText('"answered": 200');
    await expect(drawer.getByRole('table', { name: 'Response headers' })).toContainText('e2e');

    // Resend: the receiver gets the same event with the same Idempotency-Key; the log gains a record.
    await drawer.getByRole('button', { name: 'Resend' }).click();
    await expect(drawer.getByText('Resent: HTTP 200')).toBeVisible();
    expect(receiver.byEvent('Member Hook')).toHaveLength(2);
    expect(receiver.byEvent('Member Hook')[1].headers['idempotency-key']).toBe(memberKey);
    expect(receiver.byEvent('Member Hook')[1].body).toBe(memberDelivery.body);
    await expect(page.getByText('Showing 1–2 of 2 deliveries')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    // The receiver breaks: four failed deliveries in a row pause the hook.
    receiver.status = 500;
    for (let i = 1; i <= 4; i++) {
      await page.getByRole('button', { name: 'Test Receiver' }).click();
      await page.getByRole('menuitem', { name: 'Push events', exact: true }).click();
      await expect(page.getByText('Hook executed successfully but returned HTTP 500').first()).toBeVisible();
      await expect(page.getByRole('button', { name: 'Test Receiver' })).toBeEnabled();
    }
    expect(receiver.byEvent('Push Hook')).toHaveLength(5);
    const banner = page.getByRole('alert').filter({ hasText: '“Receiver” is temporarily disabled' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('a successful one re-enables it');
    expect((await api<{ alert_status: string }>('GET', `/groups/${groupId}/hooks/${hook.id}`)).json.alert_status).toBe('temporarily_disabled');
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Server failures (5xx, no response)' });
    await expect(page).toHaveURL(/status=server_failure/);
    await page.getByLabel('Event', { exact: true }).selectOption({ label: 'All events' });
    await expect(log.getByRole('row')).toHaveCount(5);

    // The list says so too: the banner, and the badge in the health column.
    await page.getByRole('link', { name: 'All webhooks' }).click();
    await expect(page.getByRole('alert').filter({ hasText: '“Receiver” is temporarily disabled' })).toBeVisible();
    const row = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /Receiver/ });
    await expect(row.getByText('Temporarily disabled')).toBeVisible();
    await expect(row).toContainText('500');

    // A successful test brings it back.
    receiver.status = 200;
    await row.getByRole('button', { name: 'Test Receiver' }).click();
    await page.getByRole('menuitem', { name: 'Member events' }).click();
    await expect(page.getByText(/Receiver answered with a 2xx status\. The webhook is enabled again\./)).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'temporarily disabled' })).toHaveCount(0);
    await expect(row.getByText('Temporarily disabled')).toHaveCount(0);
  });

  test('as an Owner: secrets stay hidden when editing; headers are replaced as a whole list, the token kept or removed', async ({ page, api }) => {
    const hooks = await api<{ id: number; name: string }[]>('GET', `/groups/${groupId}/hooks`);
    const hook = hooks.json.find((h) => h.name === 'Receiver')!;
    const writes = recordHookRequests(page);
    await signInAt(page, `/groups/${GROUP_PATH}/-/hooks/${hook.id}/edit`);
    await expect(page.getByRole('heading', { name: 'Edit “Receiver”' })).toBeVisible();
    const headers = page.getByRole('group', { name: 'Custom headers' });
    await expect(headers.getByText('X-Team = ••••••')).toBeVisible();
    await expect(headers.getByLabel('Header 1 value')).toHaveCount(0);

    await headers.getByRole('button', { name: 'Replace headers' }).click();
    await expect(headers.getByLabel('Header 1 name')).toHaveValue('X-Team');
    await expect(headers.getByLabel('Header 1 value')).toHaveValue('');
    await headers.getByRole('button', { name: 'Add header' }).click();
    await headers.getByLabel('Header 2 name').fill('X-Env');
    await headers.getByLabel('Header 2 value').fill('staging');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // Every value must be given again: the list replaces the saved one.
    await expect(headers.getByText("Can't be blank")).toBeVisible();
    expect(writes.filter((r) => r.method() === 'PUT')).toHaveLength(0);
    await headers.getByLabel('Header 1 value').fill('ops');
    await page.getByRole('checkbox', { name: 'Remove the secret token' }).check();
    await expect(page.getByLabel('Secret token', { exact: true })).toBeDisabled();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Webhook saved')).toBeVisible();
    const put = writes.filter((r) => r.method() === 'PUT');
    expect(put).toHaveLength(1);
    expect(put[0].postDataJSON()).toMatchObject({
      token: '',
      custom_headers: [
        { key: 'X-Team', value: 'ops' },
        { key: 'X-Env', value: 'staging' },
      ],
    });
    // The URL variable was kept: not sent, still filled in on delivery.
    expect(put[0].postDataJSON()).not.toHaveProperty('url_variables');

    const before = receiver.requests.length;
    await page.getByRole('table', { name: 'Webhooks' }).getByRole('button', { name: 'Test Receiver' }).click();
    await page.getByRole('menuitem', { name: 'Tag push events' }).click();
    await expect(page.getByText('Test delivered: Tag push events')).toBeVisible();
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/hook/s3cr3t-part');
    expect(sent[0].headers['x-team']).toBe('ops');
    expect(sent[0].headers['x-env']).toBe('staging');
    expect(sent[0].headers['x-service-token']).toBeUndefined();
  });

  test('as an Owner: resends are limited to 5 a minute, and the panel says when to try again', async ({ page, api }) => {
    const hooks = await api<{ id: number; name: string }[]>('GET', `/groups/${groupId}/hooks`);
    const hook = hooks.json.find((h) => h.name === 'Receiver')!;
    await signInAt(page, `/groups/${GROUP_PATH}/-/hooks/${hook.id}/events?trigger=push_hooks&status=successful`);
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect(log.getByRole('row')).toHaveCount(2);
    await log.getByRole('button', { name: /^Details of delivery \d+: Push events$/ }).click();
    const drawer = page.getByRole('dialog', { name: /Push events$/ });
    // One resend may have been spent in the previous test, in this minute or the last; the limit is per hook and user.
    for (let i = 0; i < 6; i++) {
      await drawer.getByRole('button', { name: 'Resend' }).click();
      await expect(drawer.getByRole('status').or(drawer.getByRole('alert')).first()).toBeVisible();
      if (await drawer.getByText('Too many resends').isVisible()) break;
      await expect(drawer.getByText('Resent: HTTP 200')).toBeVisible();
    }
    await expect(drawer.getByText('Too many resends')).toBeVisible();
    await expect(drawer.getByText(/Try again in \d+ seconds?\./)).toBeVisible();
  });

  test('as an Owner: a webhook with no events is asked about before it is saved', async ({ page, api }) => {
    const writes = recordHookRequests(page);
    await signInAt(page, `/groups/${GROUP_PATH}/-/hooks/new`);
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(`http://127.0.0.1:${receiver.port}/silent`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Silent');
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const ask = page.getByRole('dialog', { name: 'Add a webhook without events?' });
    await expect(ask).toContainText('This webhook will never fire');
    expect(writes.filter((r) => r.method() === 'POST')).toHaveLength(0);
    // Going back returns to the form, focus where it was, nothing sent.
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeHidden();
    await expect(page.getByRole('button', { name: 'Add webhook' })).toBeFocused();
    expect(writes.filter((r) => r.method() === 'POST')).toHaveLength(0);

    await page.getByRole('button', { name: 'Add webhook' }).click();
    await ask.getByRole('button', { name: 'Add without events' }).click();
    await expect(page.getByText('Silent has no events: it receives only the tests you send from the list.')).toBeVisible();
    await expect(page.getByText(/receives the events you chose/)).toHaveCount(0);
    const silent = (await api<Record<string, unknown>[]>('GET', `/groups/${groupId}/hooks`)).json.find((h) => h.name === 'Silent')!;
    expect(silent).toMatchObject({ push_events: false, member_events: false, tag_push_events: false });
    expect((await api('DELETE', `/groups/${groupId}/hooks/${silent.id}`)).status).toBe(204);
  });

  test('as an Owner: health counts the failures of the past week and names the last one; a failed resend says why in the drawer, once', async ({ page, api }) => {
    test.setTimeout(90_000);
    const make = async (name: string, url: string) => {
      const created = await api<{ id: number }>('POST', `/groups/${groupId}/hooks`, { url, name, push_events: true });
      expect(created.status).toBe(201);
      return created.json.id;
    };
    const testPush = (hookId: number) => api('POST', `/groups/${groupId}/hooks/${hookId}/test/push_events`);
    // Flaky: two 500s among six deliveries, and the newest one a 200.
    const flaky = await make('Flaky', `http://127.0.0.1:${receiver.port}/flaky`);
    for (const status of [200, 200, 500, 500, 200, 200]) {
      receiver.status = status;
      expect((await testPush(flaky)).status).toBe(status === 200 ? 201 : 422);
    }
    receiver.status = 200;
    // Refused: nothing listens at its port.
    const closed = new Receiver();
    await closed.start();
    const closedPort = closed.port;
    await closed.stop();
    const refused = await make('Refused', `http://127.0.0.1:${closedPort}/gone`);
    expect((await testPush(refused)).status).toBe(422);

    // The health column of the whole list is one request, not a few per hook.
    const healthRequests: string[] = [];
    const logRequests: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === `/api/console/groups/${groupId}/hooks/health`) healthRequests.push(r.url());
      else if (/\/hooks\/[^/]+\/events$/.test(path)) logRequests.push(r.url());
    });
    await signInAt(page, `/groups/${GROUP_PATH}/-/hooks`);
    const table = page.getByRole('table', { name: 'Webhooks' });
    const flakyRow = table.getByRole('row', { name: /Flaky/ });
    await expect(flakyRow).toContainText('2 of 6 failed');
    await expect(flakyRow).toContainText('in the past 7 days');
    await expect(flakyRow).toContainText('Last failure: HTTP 500');
    await expect(flakyRow).toContainText(/Newest\s*200/);
    const refusedRow = table.getByRole('row', { name: /Refused/ });
    await expect(refusedRow).toContainText('1 of 1 failed');
    await expect(refusedRow).toContainText('Last failure: connection refused');
    expect(await table.getByRole('row').count()).toBeGreaterThan(2);
    expect(healthRequests).toHaveLength(1);
    expect(logRequests).toEqual([]);

    await refusedRow.getByRole('link', { name: 'Deliveries of Refused' }).click();
    await page.getByRole('table', { name: 'Deliveries' }).getByRole('button', { name: /^Details of delivery \d+: Push events$/ }).click();
    const drawer = page.getByRole('dialog', { name: /^Delivery \d+ · Push events$/ });
    await expect(drawer.getByRole('alert').filter({ hasText: 'No HTTP answer' })).toContainText('The receiver could not be reached (connection refused).');
    for (let i = 0; i < 2; i++) {
      await drawer.getByRole('button', { name: 'Resend' }).click();
      await expect(drawer.getByRole('alert').filter({ hasText: 'Resend failed' })).toContainText(
        'The receiver could not be reached (connection refused). The attempt is at the top of the log.',
      );
    }
    // One outcome, in the drawer: no toast on top of it, no resolver text as its message.
    await expect(page.getByText('Resend failed', { exact: true })).toHaveCount(1);
    await expect(drawer.getByRole('alert').filter({ hasText: 'Resend failed' })).not.toContainText('ECONNREFUSED');

    // Readable at 1280 px and on a phone: the drawer fits the screen, nothing in it scrolls sideways.
    for (const size of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
      await page.setViewportSize(size);
      const box = (await drawer.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      for (const part of [drawer.getByRole('table', { name: 'Request headers' }), drawer.getByLabel('Request body', { exact: true }), drawer.getByRole('button', { name: 'Resend' })]) {
        const partBox = (await part.boundingBox())!;
        expect(partBox.x + partBox.width).toBeLessThanOrEqual(size.width);
      }
      const sideways = await drawer.evaluate((el) =>
        [el, ...el.querySelectorAll('*')].filter((n) => n instanceof HTMLElement && n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).overflowX !== 'visible' && getComputedStyle(n).overflowX !== 'hidden').length,
      );
      expect(sideways).toBe(0);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    for (const id of [flaky, refused]) expect((await api('DELETE', `/groups/${groupId}/hooks/${id}`)).status).toBe(204);
  });

  test('as an Owner: a resend that the log\'s status filter hides says so, and shows all deliveries on request', async ({ page, api }) => {
    const created = await api<{ id: number }>('POST', `/groups/${groupId}/hooks`, { url: `http://127.0.0.1:${receiver.port}/filtered`, name: 'Filtered', push_events: true });
    expect(created.status).toBe(201);
    receiver.status = 500;
    expect((await api('POST', `/groups/${groupId}/hooks/${created.json.id}/test/push_events`)).status).toBe(422);
    receiver.status = 200;
    await signInAt(page, `/groups/${GROUP_PATH}/-/hooks/${created.json.id}/events?status=server_failure`);
    const log = page.getByRole('table', { name: 'Deliveries' });
    await log.getByRole('button', { name: /^Details of delivery \d+: Push events$/ }).click();
    const drawer = page.getByRole('dialog', { name: /^Delivery \d+ · Push events$/ });
    await drawer.getByRole('button', { name: 'Resend' }).click();
    const outcome = drawer.getByRole('status').filter({ hasText: 'Resent: HTTP 200' });
    await expect(outcome).toContainText('The log’s status filter hides the new delivery.');
    await outcome.getByRole('button', { name: 'Show all deliveries' }).click();
    await expect(page).not.toHaveURL(/status=/);
    await page.keyboard.press('Escape');
    // Both deliveries, the resend (200) on top.
    await expect(log.getByRole('row')).toHaveCount(3);
    await expect(log.getByRole('row').nth(1)).toContainText('200');
    expect((await api('DELETE', `/groups/${groupId}/hooks/${created.json.id}`)).status).toBe(204);
  });

  test('the delivery log reads 50 records a page from the server and pages with its headers', async ({ page, api }) => {
    const created = await api<{ id: number }>('POST', `/groups/${groupId}/hooks`, { url: `http://127.0.0.1:${receiver.port}/busy`, name: 'Busy', push_events: true });
    expect(created.status).toBe(201);
    const hookId = created.json.id;
    for (let i = 0; i < 53; i++) {
      expect((await api('POST', `/groups/${groupId}/hooks/${hookId}/test/${i % 2 ? 'push_events' : 'tag_push_events'}`)).status).toBe(201);
    }
    const requests = recordHookRequests(page);
    await signInAt(page, `/groups/${GROUP_PATH}/-/hooks/${hookId}/events`);
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect(page.getByText('Showing 1–50 of 53 deliveries')).toBeVisible();
    await expect(log.getByRole('row')).toHaveCount(51);
    await page.getByRole('button', { name: 'next page' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText('Showing 51–53 of 53 deliveries')).toBeVisible();
    await expect(log.getByRole('row')).toHaveCount(4);
    const reads = requests.filter((r) => r.url().includes(`/api/v4/groups/${groupId}/hooks/${hookId}/events`)).map((r) => new URL(r.url()).searchParams);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    for (const q of reads) expect(q.get('per_page')).toBe('50');
    expect(reads.map((q) => q.get('page') ?? '1')).toContain('2');
    // No record is read on its own: the panel shows what the page brought.
    expect(requests.filter((r) => /\/events\/\d+/.test(r.url()))).toHaveLength(0);
    await log.getByRole('button', { name: /^Details of delivery/ }).first().click();
    await expect(page.getByRole('dialog', { name: /^Delivery \d+/ }).getByLabel('Request body', { exact: true })).toContainText('"object_kind"');
    expect(requests.filter((r) => /\/events\/\d+/.test(r.url()))).toHaveLength(0);
    await page.getByRole('dialog', { name: /^Delivery \d+/ }).getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Deleting asks first, then the hook and its log are gone.
    await page.getByRole('link', { name: 'All webhooks' }).click();
    await page.getByRole('button', { name: 'Delete Busy' }).click();
    await page.getByRole('dialog', { name: 'Delete “Busy”?' }).getByRole('button', { name: 'Delete webhook' }).click();
    await expect(page.getByText('Webhook deleted')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Webhooks' }).getByRole('link', { name: 'Busy', exact: true })).toHaveCount(0);
    expect((await api('GET', `/groups/${groupId}/hooks/${hookId}`)).status).toBe(404);
  });

  test('without the role: a Maintainer of the group sees the forbidden state', async ({ maintainerPage: page }) => {
    const requests = recordHookRequests(page);
    await page.goto(`/groups/${GROUP_PATH}`);
    await expect(page.getByRole('heading', { level: 1, name: GROUP_NAME })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Webhooks' })).toHaveCount(0);
    await page.goto(`/groups/${GROUP_PATH}/-/hooks`);
    await expect(page.getByRole('heading', { name: 'You need the Owner role to manage webhooks' })).toBeVisible();
    await expect(page.getByText(`Your role in ${GROUP_NAME} is Maintainer.`)).toBeVisible();
    await page.goto(`/groups/${GROUP_PATH}/-/hooks/1/events`);
    await expect(page.getByRole('heading', { name: 'You need the Owner role to manage webhooks' })).toBeVisible();
    // The screen did not even ask for the hooks.
    expect(requests).toHaveLength(0);
  });
});

test.describe('Project webhooks (/projects/:id/hooks)', () => {
  test.use({ membership: { scope: 'projects', id: `${GROUP_PATH}/${PROJECT_PATH}` } });
  test('the group overview links to the project page, with its header and tabs', async ({ page }) => {
    await signInAt(page, `/groups/${GROUP_PATH}`);
    await page.getByRole('region', { name: 'Projects' }).getByRole('link', { name: PROJECT_PATH }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${GROUP_PATH}/${PROJECT_PATH}$`));
    await expect(page.getByRole('heading', { level: 1, name: PROJECT_PATH })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: GROUP_NAME })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${GROUP_PATH}/${PROJECT_PATH}/-/hooks$`));
    await page.goto(`/projects/${GROUP_PATH}/no-such-project`);
    await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible();
  });

  test('as a Maintainer: add a project hook (no group-only events), test it and edit it', async ({ maintainerPage: page, api }) => {
    test.setTimeout(60_000);
    await page.goto(`/projects/${GROUP_PATH}/${PROJECT_PATH}`);
    await expect(page.getByRole('heading', { level: 1, name: PROJECT_PATH })).toBeVisible();
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'No webhooks yet' })).toBeVisible();
    await page.getByRole('link', { name: 'Add webhook' }).click();

    await expect(page.getByRole('checkbox', { name: 'Push events', exact: true })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Member events' })).toHaveCount(0);
    await expect(page.getByRole('checkbox', { name: 'Subgroup events' })).toHaveCount(0);
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(`http://127.0.0.1:${receiver.port}/project`);
    // A regular expression RE2 refuses is explained in plain words, pointing at the culprit; nothing is sent.
    await page.getByRole('radio', { name: 'Branches matching a regular expression (RE2 syntax)' }).check();
    await page.getByRole('textbox', { name: 'Branch filter' }).fill('^(feat|fix/');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByRole('textbox', { name: 'Branch filter' })).toHaveAccessibleDescription(/Missing closing parenthesis for the group opened at position 2\./);
    expect((await api<unknown[]>('GET', `/projects/${projectId}/hooks`)).json).toHaveLength(0);
    await page.getByRole('radio', { name: 'Branches matching a wildcard' }).check();
    await page.getByRole('textbox', { name: 'Branch filter' }).fill('main, release/*');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByText('Webhook added')).toBeVisible();
    const hooks = await api<Record<string, unknown>[]>('GET', `/projects/${projectId}/hooks`);
    expect(hooks.json).toHaveLength(1);
    expect(hooks.json[0]).toMatchObject({ push_events: true, branch_filter_strategy: 'wildcard', push_events_branch_filter: 'main,release/*', project_id: projectId });
    expect(hooks.json[0]).not.toHaveProperty('member_events');

    const before = receiver.requests.length;
    const row = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /\/project/ });
    await row.getByRole('button', { name: /^Test / }).click();
    await expect(page.getByRole('menuitem', { name: 'Member events' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Pipeline events' }).click();
    await expect(page.getByText('Test delivered: Pipeline events')).toBeVisible();
    expect(receiver.requests.slice(before).map((r) => r.headers['x-service-event'])).toEqual(['Pipeline Hook']);

    // Edit: the saved values of secrets are not shown, and keeping them sends nothing about them.
    const writes = recordHookRequests(page);
    await row.getByRole('link', { name: /^Edit / }).click();
    await expect(page.getByLabel('Secret token', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Secret token', { exact: true })).toHaveAttribute('placeholder', 'Leave empty to keep the current token');
    await expect(page.getByRole('textbox', { name: 'Branch filter' })).toHaveValue('main,release/*');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Project receiver');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Webhook saved')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Webhooks' }).getByRole('link', { name: 'Project receiver', exact: true })).toBeVisible();
    const put = writes.filter((r) => r.method() === 'PUT');
    expect(put).toHaveLength(1);
    expect(put[0].postDataJSON()).toMatchObject({ name: 'Project receiver', push_events: true, branch_filter_strategy: 'wildcard' });
    for (const secret of ['token', 'custom_headers', 'url_variables', 'member_events']) expect(put[0].postDataJSON()).not.toHaveProperty(secret);
  });

  test('without the role: a Developer of the project sees the forbidden state', async ({ developerPage: page }) => {
    await page.goto(`/projects/${GROUP_PATH}/${PROJECT_PATH}`);
    await expect(page.getByRole('heading', { level: 1, name: PROJECT_PATH })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Webhooks' })).toHaveCount(0);
    await page.goto(`/projects/${GROUP_PATH}/${PROJECT_PATH}/-/hooks`);
    await expect(page.getByRole('heading', { name: 'You need the Maintainer role to manage webhooks' })).toBeVisible();
    await expect(page.getByText(`is Developer.`)).toBeVisible();
  });
});
