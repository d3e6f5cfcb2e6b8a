import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Db } from '../db/index.ts';
import type { Vault } from '../auth/vault.ts';
import type { Config } from '../config.ts';
import type { ProjectRow, UserRow } from '../db/schema.ts';
import { COMPLETED_STATUSES, type PipelineStatus } from '../../../shared/src/pipelines.ts';
import { DEFAULT_BRANCH, ensureRepository } from '../services/git/repositories.ts';
import { commitMeta, composeStatus, runningSeconds } from '../services/ci/pipelines.ts';
import { EXTERNAL_STAGE } from '../services/ci/commit-statuses.ts';
import { createTrigger } from '../services/ci/pipeline-triggers.ts';

const run = promisify(execFile);
const git = async (dir: string, args: string[], env: Record<string, string> = {}) => (await run('git', ['-C', dir, ...args], { env: { ...process.env, ...env } })).stdout.trim();

/**
 * The newest commits of main, made first (a few small commits) when the repository is still
 * empty, so that the pipelines stand on real commits whichever seed ran before this one.
 */
async function mainCommits(dir: string, people: UserRow[]): Promise<string[]> {
  const existing = await git(dir, ['rev-list', '--max-count=8', `refs/heads/${DEFAULT_BRANCH}`]).catch(() => '');
  if (existing) return existing.split('\n').reverse();
  const messages = ['chore: start the website', 'feat: landing page', 'fix: broken footer link', 'feat: pricing table', 'docs: how to deploy', 'feat: dark mode'];
  let parent: string | undefined;
  const made: string[] = [];
  for (const [i, message] of messages.entries()) {
    const who = people[i % people.length];
    const blob = await run('sh', ['-c', `printf '%s\\n' "$1" | git -C "$2" hash-object -w --stdin`, 'sh', `# Website\n\n${message}`, dir]).then((r) => r.stdout.trim());
    const tree = await run('sh', ['-c', `printf '100644 blob %s\\tREADME.md\\n' "$1" | git -C "$2" mktree`, 'sh', blob, dir]).then((r) => r.stdout.trim());
    const when = new Date(Date.now() - (messages.length - i) * 36 * 3_600_000).toISOString();
    const env = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when };
    parent = await git(dir, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message], env);
    made.push(parent);
  }
  await git(dir, ['update-ref', `refs/heads/${DEFAULT_BRANCH}`, parent!]);
  return made;
}

type JobPlan = [name: string, status: PipelineStatus, minutes: number];
/** A week and a half of CI on main: mostly green, one red, one canceled, the newest still running. */
const HISTORY: { source: string; jobs: JobPlan[]; by: number; hoursAgo: number }[] = [
  { source: 'push', by: 1, hoursAgo: 230, jobs: [['build', 'success', 3], ['test', 'success', 7], ['lint', 'success', 1]] },
  { source: 'push', by: 2, hoursAgo: 190, jobs: [['build', 'success', 3], ['test', 'failed', 6], ['lint', 'success', 1]] },
  { source: 'push', by: 2, hoursAgo: 150, jobs: [['build', 'success', 4], ['test', 'success', 8], ['lint', 'success', 1]] },
  { source: 'trigger', by: 0, hoursAgo: 120, jobs: [['deploy', 'success', 5]] },
  { source: 'external', by: 1, hoursAgo: 80, jobs: [['build', 'success', 3], ['test', 'canceled', 2]] },
  { source: 'push', by: 2, hoursAgo: 40, jobs: [['build', 'success', 3], ['test', 'success', 7], ['lint', 'skipped', 0]] },
  { source: 'trigger', by: 0, hoursAgo: 20, jobs: [['deploy', 'success', 4]] },
  { source: 'push', by: 2, hoursAgo: 0.2, jobs: [['build', 'success', 3], ['test', 'running', 0], ['lint', 'pending', 0]] },
];

/**
 * A pipeline history for the demo website project, written as rows (back-dated, so no webhook
 * deliveries are queued for the past), and a trigger token its owner can copy.
 */
export async function seedPipelines(db: Db, config: Config, vault: Vault, project: ProjectRow, people: UserRow[]): Promise<void> {
  const dir = await ensureRepository(db, config.repositoriesDir, project);
  const commits = await mainCommits(dir, people);
  const trigger = await createTrigger(db, vault, people[0], project, 'Nightly deploy (demo)');
  // After the pipelines the CI reported for the demo merge requests' branches, if any.
  const last = await db.selectFrom('pipelines').select((eb) => eb.fn.max('iid').as('max')).where('project_id', '=', project.id).executeTakeFirst();
  const firstIid = Number(last?.max ?? 0) + 1;
  for (const [n, plan] of HISTORY.entries()) {
    const sha = commits[Math.min(commits.length - 1, Math.floor((n * commits.length) / HISTORY.length))];
    const meta = await commitMeta(dir, sha);
    const created = Date.now() - plan.hoursAgo * 3_600_000;
    const at = (minutes: number) => new Date(created + minutes * 60_000).toISOString();
    let clock = 0.5;
    const jobs = plan.jobs.map(([name, status, minutes]) => {
      const started = status === 'pending' || status === 'skipped' ? null : at(clock);
      const finished = COMPLETED_STATUSES.includes(status) && started ? at((clock += minutes)) : null;
      return { name, status, started_at: started, finished_at: finished, allow_failure: 0 };
    });
    const status = composeStatus(jobs)!;
    const finished = COMPLETED_STATUSES.includes(status) ? jobs.map((j) => j.finished_at ?? '').sort().at(-1) || null : null;
    const startedAt = jobs.map((j) => j.started_at).filter((s): s is string => s !== null).sort()[0] ?? null;
    const inserted = await db
      .insertInto('pipelines')
      .values({
        project_id: project.id,
        iid: firstIid + n,
        sha,
        before_sha: meta.beforeSha,
        ref: DEFAULT_BRANCH,
        status,
        source: plan.source,
        user_id: people[plan.by].id,
        trigger_id: plan.source === 'trigger' ? trigger.trigger.id : null,
        variables: plan.source === 'trigger' ? JSON.stringify([{ key: 'DEPLOY_ENV', value: 'production' }]) : '[]',
        coverage: null,
        commit_message: meta.message,
        commit_author_name: meta.authorName,
        commit_author_email: meta.authorEmail,
        committed_at: meta.committedAt,
        started_at: startedAt,
        finished_at: finished,
        duration: runningSeconds(jobs, created + clock * 60_000),
        queued_duration: startedAt ? 30 : null,
        created_at: at(0),
        updated_at: finished ?? at(clock),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [i, j] of jobs.entries()) {
      await db
        .insertInto('pipeline_jobs')
        .values({
          pipeline_id: inserted.id,
          project_id: project.id,
          name: j.name,
          stage: EXTERNAL_STAGE,
          status: j.status,
          ref: DEFAULT_BRANCH,
          sha,
          target_url: `https://ci.example.com/acme/website/jobs/${inserted.id * 10 + i}`,
          description: j.status === 'failed' ? '3 tests failed' : null,
          coverage: j.name === 'test' && j.status === 'success' ? 81.5 : null,
          user_id: people[plan.by].id,
          created_at: at(0),
          updated_at: j.finished_at ?? j.started_at ?? at(0),
          started_at: j.started_at,
          finished_at: j.finished_at,
        })
        .execute();
    }
  }
}
