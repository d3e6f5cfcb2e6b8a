import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import type { GroupRow, ProjectRow, UserRow } from '../db/schema.ts';
import type { CommitAction } from '../../../shared/src/commits.ts';
import { ACCESS_LEVELS } from '../../../shared/src/roles.ts';
import { commitAsPush } from '../services/git/commit-create.ts';
import { DEFAULT_BRANCH, ensureRepository } from '../services/git/repositories.ts';
import { reportStatus } from '../services/ci/commit-statuses.ts';
import { createMergeRequest } from '../services/planning/merge-requests.ts';
import { createNote } from '../services/planning/notes.ts';
import { mergeMergeRequest } from '../services/merging/merge-request-merge.ts';

const PLANS = ['Starter', 'Team', 'Business', 'Enterprise'];

/** A long generated file (over 300 lines): the merge request page shows it collapsed until asked. */
function pricingCatalogue(): string {
  const lines = ['// The plans and their prices, per region and billing period.', 'export const catalogue = ['];
  const regions = ['eu', 'us', 'uk', 'ch', 'jp', 'au', 'ca', 'br'];
  for (const region of regions) {
    for (const [n, plan] of PLANS.entries()) {
      for (const period of ['month', 'year']) {
        const price = (n + 1) * 9 * (period === 'year' ? 10 : 1);
        lines.push(`  { region: '${region}', plan: '${plan}', period: '${period}', price: ${price}, currency: '${region === 'eu' ? 'EUR' : region === 'uk' ? 'GBP' : 'USD'}' },`);
      }
    }
  }
  lines.push('];', '');
  for (const plan of PLANS) lines.push(`export const is${plan} = (p) => p.plan === '${plan}';`);
  lines.push('');
  // A helper per region, as such catalogues grow: the file passes 300 lines.
  for (const region of regions) {
    lines.push(`/** The plans sold in ${region.toUpperCase()}. */`, `export function plansIn${region.toUpperCase()}() {`, `  return catalogue.filter((p) => p.region === '${region}');`, '}', '');
  }
  for (let i = 0; lines.length < 320; i++) lines.push(`export const discount${i} = ${(i % 5) * 5}; // percent off in promotion ${i}`);
  return `${lines.join('\n')}\n`;
}

interface DemoMergeRequest {
  branch: string;
  title: string;
  description: string;
  by: number;
  labels: string[];
  commits: { message: string; actions: CommitAction[] }[];
  /** The CI's jobs on the branch's head (a pipeline of an external CI). */
  jobs?: [name: string, state: 'success' | 'running' | 'failed'][];
  merge?: boolean;
  note?: [number, string];
}

const MERGE_REQUESTS: DemoMergeRequest[] = [
  {
    branch: 'feature/pricing-table',
    title: 'Pricing table from the plan catalogue',
    by: 2,
    labels: ['feature'],
    description: [
      'The pricing page reads its plans from **one catalogue** instead of four hand-written tables.',
      '',
      '- adds `src/pricing/catalogue.js` (generated, long: review the helpers at its end)',
      '- moves the configuration notes to `docs/configuration.md`',
      '- drops the old `src/config.js`',
      '',
      'Closes the question raised in the last sprint review.',
    ].join('\n'),
    commits: [
      { message: 'feat(pricing): plan catalogue for every region', actions: [{ action: 'create', file_path: 'src/pricing/catalogue.js', content: pricingCatalogue() }] },
      {
        message: 'refactor: configuration notes move to the docs',
        actions: [
          { action: 'move', previous_path: 'docs/logging.md', file_path: 'docs/configuration.md' },
          { action: 'delete', file_path: 'src/config.js' },
        ],
      },
    ],
    jobs: [['build', 'success'], ['test', 'failed']],
    note: [0, 'The test job fails on the Swiss prices; can you have a look?'],
  },
  {
    branch: 'feature/newsletter',
    title: 'Newsletter sign-up form',
    by: 1,
    labels: ['feature'],
    description: 'A sign-up form in the footer. It merges once the CI passes: the *test* job is still running.',
    commits: [{ message: 'feat: newsletter sign-up form in the footer', actions: [{ action: 'create', file_path: 'src/newsletter.js', content: "export function signUp(email) {\n  return fetch('/newsletter', { method: 'POST', body: email });\n}\n" }] }],
    jobs: [['build', 'success'], ['test', 'running']],
  },
  {
    branch: 'fix/footer-link',
    title: 'Fix the broken footer link',
    by: 3,
    labels: ['bug'],
    description: 'The footer linked to `/legal` which moved to `/terms`.',
    commits: [{ message: 'fix: footer links to the terms page', actions: [{ action: 'create', file_path: 'src/footer.js', content: "export const legalLink = '/terms';\n" }] }],
    jobs: [['build', 'success'], ['test', 'success']],
    merge: true,
  },
];

/**
 * Merge requests with real branches on the demo website project, made as the API makes them:
 * commits through the commits service (as pushes, push rule checked), pipelines by commit statuses as an external CI reports
 * them, one merged through the merge service (so main holds its merge commit). One has a long
 * generated file, a move and a deletion, so the changes page shows collapsed and labelled files.
 * Runs before the demo hooks are made, so nothing is delivered for it.
 */
export async function seedMergeRequests(db: Db, config: Config, where: { project: ProjectRow; group: GroupRow; baseUrl: string }, people: UserRow[]): Promise<void> {
  const { project, group, baseUrl } = where;
  const dir = await ensureRepository(db, config.repositoriesDir, project);
  const target = project.default_branch ?? DEFAULT_BRANCH;
  for (const m of MERGE_REQUESTS) {
    const author = people[m.by % people.length];
    for (const [k, c] of m.commits.entries()) {
      const body = { branch: m.branch, ...(k === 0 && { start_branch: target }), commit_message: c.message, actions: c.actions };
      await commitAsPush({ db, dir, baseUrl, project, group, user: author, defaultBranch: target, role: ACCESS_LEVELS.developer }, body);
    }
    const mr = await createMergeRequest(db, { dir }, { project, group, baseUrl, user: author }, {
      source_branch: m.branch,
      target_branch: target,
      title: m.title,
      description: m.description,
      labels: m.labels,
      assignee_ids: [author.id],
      reviewer_ids: [people[0].id],
    });
    if (m.jobs) {
      const head = mr.sha!;
      for (const [name, state] of m.jobs) {
        await reportStatus(db, { scope: { project, group, baseUrl }, dir, defaultBranch: target, user: people[1] }, head, { state, name, ref: m.branch, target_url: `https://ci.example.com/acme/website/${m.branch}/${name}` });
      }
    }
    if (m.note) await createNote(db, { type: 'MergeRequest', id: mr.id, projectId: project.id }, people[m.note[0] % people.length], { body: m.note[1] });
    if (m.merge) {
      const merger = people[1];
      await mergeMergeRequest({ db, dir, baseUrl, project, group, user: merger, role: ACCESS_LEVELS.maintainer }, mr, { should_remove_source_branch: false });
    }
  }
}
