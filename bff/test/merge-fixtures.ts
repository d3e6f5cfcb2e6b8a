import { request as api } from './harness.ts';

/** Shared by the merging tests: branches made through the commits API, merge requests, and waiting for the train. */
export async function commitTo(projectId: number, branch: string, files: Record<string, string>, opts: { start?: string; message?: string; token?: string } = {}): Promise<string> {
  const existing = await api(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`, { token: opts.token });
  const actions = await Promise.all(
    Object.entries(files).map(async ([file_path, content]) => {
      const ref = existing.status === 200 ? branch : (opts.start ?? 'main');
      const there = await api(`/projects/${projectId}/repository/files/${encodeURIComponent(file_path)}?ref=${encodeURIComponent(ref)}`, { token: opts.token });
      return { action: there.status === 200 ? 'update' : 'create', file_path, content };
    }),
  );
  const res = await api(`/projects/${projectId}/repository/commits`, {
    method: 'POST',
    token: opts.token,
    json: { branch, ...(existing.status === 200 ? {} : { start_branch: opts.start ?? 'main' }), commit_message: opts.message ?? `Change ${Object.keys(files).join(', ')}`, actions },
  });
  if (res.status !== 201) throw new Error(`commit answered ${res.status} ${res.text}`);
  return res.body.id as string;
}

export async function openMergeRequest(projectId: number, source: string, title: string, token?: string): Promise<{ iid: number; id: number; sha: string }> {
  const res = await api(`/projects/${projectId}/merge_requests`, { method: 'POST', token, json: { source_branch: source, target_branch: 'main', title } });
  if (res.status !== 201) throw new Error(`merge request answered ${res.status} ${res.text}`);
  return res.body;
}

/** Polls until `probe` answers something (short interval; the train runs in the server's job workers). */
export async function eventually<T>(probe: () => Promise<T | undefined | false>, what: string, limitMs = 30_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The first-parent history of a branch, newest first: subjects. */
export async function firstParentSubjects(projectId: number, branch: string): Promise<{ id: string; title: string; parent_ids: string[] }[]> {
  const res = await api(`/projects/${projectId}/repository/commits?ref_name=${encodeURIComponent(branch)}&first_parent=true&per_page=100`);
  return res.body;
}
