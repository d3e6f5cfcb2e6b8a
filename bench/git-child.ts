/**
 * The Gatehouse server for the git section of `npm run bench` (bench/git.ts), in its own
 * process: a fresh SQLite database in BENCH_DATA_DIR, root with BENCH_ROOT_TOKEN, and
 * BENCH_GIT_PROJECTS empty private projects `bench-git/history-<n>` to push into. Reports one
 * `@@bench {json}` line, then serves until its stdin closes.
 */
import { loadConfig } from '../bff/src/config.ts';
import { startServer } from '../bff/src/server.ts';
import { createGroup } from '../bff/src/services/groups/groups.ts';
import { createProject } from '../bff/src/services/groups/projects.ts';
import { benchServerEnv, serveUntilParentGoes } from './lib.ts';

export interface GitChildReady {
  url: string;
  projects: string[];
}

async function main(): Promise<void> {
  const config = loadConfig({ ...benchServerEnv(), GATEHOUSE_WORKERS: '0' });
  const running = await startServer(config);
  const db = running.db;
  const root = await db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirstOrThrow();
  const group = await createGroup(db, root, { name: 'Bench git', path: 'bench-git' }, null);
  const projects: string[] = [];
  for (let i = 1; i <= Number(process.env.BENCH_GIT_PROJECTS ?? 1); i++) {
    projects.push((await createProject(db, root, group, { namespace_id: group.id, name: `history-${i}`, path: `history-${i}` })).path_with_namespace);
  }
  const ready: GitChildReady = { url: serveUntilParentGoes(running), projects };
  process.stdout.write(`@@bench ${JSON.stringify(ready)}\n`);
}

main().catch((err: unknown) => {
  console.error('bench git child failed:', err);
  process.exit(1);
});
