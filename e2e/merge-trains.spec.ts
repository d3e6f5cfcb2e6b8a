import { createMember, expect, expectAccessible, signInAt, test } from './fixtures.ts';

interface Car {
  status: string;
  position: number | null;
  pipeline: { id: number; sha: string; ref: string } | null;
}

test.describe('Merge trains of a project', () => {
  // A long flow on a busy machine; only what the screen shows decides.
  test.describe.configure({ timeout: 180_000 });
  test('a Maintainer turns trains on and adds two merge requests; CI passes the first (merged, the second moves up) and fails the second (dropped with its reason)', async ({ page, api }) => {
    const suffix = Date.now().toString(36);
    const group = await api<{ id: number }>('POST', '/groups', { name: `Trains ${suffix}`, path: `trains-${suffix}` });
    const created = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `Trains ${suffix}`, path: `trains-${suffix}`, namespace_id: group.json.id });
    expect(created.status).toBe(201);
    const project = created.json;
    const commit = async (branch: string, file: string, start?: string) => {
      const res = await api('POST', `/projects/${project.id}/repository/commits`, {
        branch,
        ...(start ? { start_branch: start } : {}),
        commit_message: `Add ${file}`,
        actions: [{ action: 'create', file_path: file, content: `${file}\n` }],
      });
      expect(res.status).toBe(201);
    };
    await commit('main', 'README.md');
    const mrs: { iid: number; title: string }[] = [];
    for (const name of ['first', 'second']) {
      await commit(`e2e-${name}`, `${name}.txt`, 'main');
      const mr = await api<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: `e2e-${name}`, target_branch: 'main', title: `Train ${name} ${suffix}` });
      expect(mr.status).toBe(201);
      mrs.push({ iid: mr.json.iid, title: `Train ${name} ${suffix}` });
    }
    const maintainer = await createMember({ scope: 'projects', id: project.id }, 'maintainer', 'trains');
    const car = async (iid: number) => (await api<Car>('GET', `/projects/${project.id}/merge_trains/merge_requests/${iid}`)).json;
    /** The car's current train pipeline (other than `not`), once the train built it. */
    const pipelineOf = async (iid: number, not?: number) => {
      await expect.poll(async () => ((await car(iid)).pipeline?.id ?? not) !== not && (await car(iid)).status === 'fresh', { timeout: 30_000 }).toBe(true);
      return (await car(iid)).pipeline!;
    };
    const report = async (p: { sha: string; ref: string }, state: string) => expect((await api('POST', `/projects/${project.id}/statuses/${p.sha}`, { state, ref: p.ref, name: 'e2e-train' })).status).toBe(201);

    await signInAt(page, `/projects/${project.path_with_namespace}/-/merge_trains`, maintainer);
    await expect(page.getByRole('heading', { name: 'Merge trains', level: 2 })).toBeVisible();
    // The switch shows the saved setting: it turns on once the server has it.
    await page.getByRole('switch', { name: 'Merge trains' }).click();
    await expect(page.getByRole('switch', { name: 'Merge trains' })).toBeChecked();
    await expect(page.getByText('No merge request is on a train')).toBeVisible();
    await expect(page.getByText('A merge request gets on when it is added here')).toBeVisible();
    for (const mr of mrs) {
      await page.getByRole('textbox', { name: 'Merge request number' }).fill(String(mr.iid));
      await page.getByRole('button', { name: 'Add to merge train' }).click();
      await expect(page.getByRole('table', { name: 'Merge train into main' }).getByRole('row').filter({ hasText: mr.title })).toBeVisible();
    }
    const queue = page.getByRole('table', { name: 'Merge train into main' });
    const first = await pipelineOf(mrs[0].iid);
    const second = await pipelineOf(mrs[1].iid);
    await expect(queue.getByRole('row').filter({ hasText: mrs[1].title })).toContainText('2');
    await report(first, 'running');
    await expect(queue.getByRole('row').filter({ hasText: mrs[0].title })).toContainText('Running');
    await expectAccessible(page, 'merge trains with a queue');

    await report(first, 'success');
    await expect(page.getByRole('table', { name: 'Merged by the train' }).getByRole('row').filter({ hasText: mrs[0].title })).toBeVisible();
    await expect(queue.getByRole('row')).toHaveCount(2);
    const secondRow = queue.getByRole('row').filter({ hasText: mrs[1].title });
    await expect(secondRow.getByRole('cell').first()).toHaveText('1');

    // The second car was built on the first's train commit, which is now main: its pipeline stands.
    const again = await pipelineOf(mrs[1].iid);
    expect(again.id).toBe(second.id);
    await report(second, 'failed');
    const dropped = page.getByRole('table', { name: 'Dropped merge requests' }).getByRole('row').filter({ hasText: mrs[1].title });
    await expect(dropped).toContainText('the pipeline of the merge train failed');
    await expect(page.getByText('No merge request is on a train')).toBeVisible();
    await expectAccessible(page, 'merge trains with merged and dropped cars');
  });

  test('removing a car asks first, then takes it off the train', async ({ page, api }) => {
    const suffix = Date.now().toString(36);
    const group = await api<{ id: number }>('POST', '/groups', { name: `Remove ${suffix}`, path: `remove-${suffix}` });
    const project = (await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `Remove ${suffix}`, path: `remove-${suffix}`, namespace_id: group.json.id })).json;
    await api('POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'Init', actions: [{ action: 'create', file_path: 'README.md', content: 'x\n' }] });
    await api('POST', `/projects/${project.id}/repository/commits`, { branch: 'e2e-remove', start_branch: 'main', commit_message: 'Change', actions: [{ action: 'create', file_path: 'r.txt', content: 'r\n' }] });
    const mr = (await api<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'e2e-remove', target_branch: 'main', title: `Remove me ${suffix}` })).json;
    const developer = await createMember({ scope: 'projects', id: project.id }, 'developer', 'trainsdev');
    expect((await api('PUT', `/../console/projects/${project.id}/merge_settings`, { merge_trains_enabled: true })).status).toBe(200);
    expect((await api('POST', `/projects/${project.id}/merge_trains/merge_requests/${mr.iid}`, {})).status).toBe(201);

    await signInAt(page, `/projects/${project.path_with_namespace}/-/merge_trains`, developer);
    await expect(page.getByRole('switch', { name: 'Merge trains' })).toBeDisabled();
    await page.getByRole('button', { name: `Remove !${mr.iid} from the merge train` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove from the merge train?' });
    await expect(dialog).toContainText(`Remove me ${suffix}`);
    await dialog.getByRole('button', { name: 'Remove from train' }).click();
    await expect(page.getByRole('table', { name: 'Dropped merge requests' }).getByRole('row').filter({ hasText: `Remove me ${suffix}` })).toContainText(`${developer.username} removed it`);
  });
});
