import { request as api } from './harness.ts';

/**
 * A project's repository filled through the commits API: `main` with three commits
 * (README.md, src/app.js, a binary logo.png), and `feature` one commit past main that edits
 * and renames. Answers the commits' ids, oldest first.
 */
export async function fillRepository(projectId: number): Promise<{ main: string[]; feature: string }> {
  const commit = async (json: object) => {
    const res = await api(`/projects/${projectId}/repository/commits`, { method: 'POST', json });
    if (res.status !== 201) throw new Error(`fixture commit answered ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  const main = [
    await commit({ branch: 'main', commit_message: 'Initial commit', actions: [{ action: 'create', file_path: 'README.md', content: '# Demo\n' }] }),
    await commit({ branch: 'main', commit_message: 'Add the app', actions: [{ action: 'create', file_path: 'src/app.js', content: 'console.log(1);\n' }] }),
    await commit({
      branch: 'main',
      commit_message: 'Add the logo',
      actions: [{ action: 'create', file_path: 'logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]).toString('base64'), encoding: 'base64' }],
    }),
  ];
  const feature = await commit({
    branch: 'feature',
    start_branch: 'main',
    commit_message: 'Feature work',
    actions: [
      { action: 'update', file_path: 'README.md', content: '# Demo\n\nMore.\n' },
      { action: 'move', previous_path: 'src/app.js', file_path: 'src/main.js' },
      { action: 'create', file_path: 'src/new.js', content: 'export {};\n' },
    ],
  });
  return { main, feature };
}
