import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import type { GroupRow, ProjectRow, UserRow } from '../db/schema.ts';
import { ensureRepository } from '../services/git/repositories.ts';
import { createLabel } from '../services/planning/labels.ts';
import { createIssue, moveIssueState, type Acting } from '../services/planning/issues.ts';
import { createMergeRequest } from '../services/planning/merge-requests.ts';
import { createNote } from '../services/planning/notes.ts';

const LABELS = [
  { name: 'bug', color: '#dc143c', description: 'Something is broken' },
  { name: 'feature', color: '#428bca', description: 'New behaviour' },
  { name: 'documentation', color: '#69d100', description: 'Docs and guides' },
  { name: 'priority::high', color: '#ff8c00', description: 'Do this first' },
];

const ISSUES: { title: string; labels: string[]; by: number; closed?: boolean; weight?: number; confidential?: boolean; notes?: [number, string][] }[] = [
  { title: 'Dark mode resets after sign-out', labels: ['bug', 'priority::high'], by: 2, weight: 3, notes: [[1, 'Reproduced on Firefox and Chromium.'], [2, 'The theme cookie is cleared with the session.']] },
  { title: 'Audit log for sign-ins', labels: ['feature'], by: 1, weight: 5 },
  { title: 'Typo in the README install section', labels: ['documentation'], by: 3, closed: true, weight: 1 },
  { title: 'Search results ignore the locale', labels: ['bug'], by: 2, weight: 2 },
  { title: 'Document the cache settings', labels: ['documentation'], by: 0, closed: true },
  { title: 'Rotate the signing key of the preview service', labels: ['priority::high'], by: 1, confidential: true },
  { title: 'Pagination links lose the filters', labels: ['bug'], by: 3, weight: 2 },
];

/**
 * Demo work items on the website project: group labels of Acme, issues (some closed, one
 * confidential) with comments, and merge requests on the demo repository's branches. Runs
 * before the demo hooks are made, so nothing is delivered for it.
 */
export async function seedWorkItems(db: Db, config: Config, where: { project: ProjectRow; group: GroupRow; baseUrl: string }, people: UserRow[]): Promise<void> {
  const acting = (u: UserRow): Acting => ({ project: where.project, group: where.group, baseUrl: where.baseUrl, user: u });
  for (const l of LABELS) await createLabel(db, { owner: { scope: 'groups', id: where.group.id }, group: where.group }, l);
  for (const i of ISSUES) {
    const author = people[i.by % people.length];
    const issue = await createIssue(db, acting(author), { title: i.title, labels: i.labels, weight: i.weight, confidential: i.confidential, assignee_ids: [people[(i.by + 1) % people.length].id] });
    for (const [who, body] of i.notes ?? []) await createNote(db, { type: 'Issue', id: issue.id, projectId: where.project.id }, people[who % people.length], { body });
    if (i.closed) await db.transaction().execute((trx) => moveIssueState(trx, acting(people[0]), issue, 'closed'));
  }
  const repo = { dir: await ensureRepository(db, config.repositoriesDir, where.project) };
  const mrs = [
    { source_branch: 'feature/dark-mode', title: 'Dark mode toggle', labels: ['feature'], by: 2, note: 'Looks good; can we keep the toggle in the header?' },
    { source_branch: 'feature/audit-log', title: 'Draft: Record sign-ins in the audit log', labels: ['feature'], by: 1, note: 'Still missing the retention setting.' },
    { source_branch: 'fix/typo-readme', title: 'Fix a typo in the README', labels: ['documentation'], by: 3, note: 'Thanks!' },
  ];
  for (const m of mrs) {
    const author = people[m.by % people.length];
    const mr = await createMergeRequest(db, repo, acting(author), { source_branch: m.source_branch, target_branch: where.project.default_branch ?? 'main', title: m.title, labels: m.labels, reviewer_ids: [people[0].id] });
    await createNote(db, { type: 'MergeRequest', id: mr.id, projectId: where.project.id }, people[0], { body: m.note });
  }
}
