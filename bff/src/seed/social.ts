import type { Db } from '../db/index.ts';
import type { ProjectRow, UserRow } from '../db/schema.ts';
import { createSnippet } from '../services/planning/snippets.ts';
import { normalized } from '../services/planning/issue-links.ts';
import { nowIso } from '../util/time.ts';

/**
 * Demo snippets, reactions and links: a snippet of the project with reactions, reactions on
 * its first issues, and links between them (when the demo has issues).
 */
export async function seedSocial(db: Db, project: ProjectRow, people: UserRow[]): Promise<void> {
  const [alice, bob, carol] = people;
  const view = await createSnippet(db, alice, project, {
    title: 'Local development setup',
    description: 'How to run the service on a laptop',
    visibility: 'internal',
    files: [
      { file_path: 'setup.sh', content: '#!/bin/sh\nset -e\nnpm ci\nnpm run build\nnpm start\n' },
      { file_path: 'README.md', content: '# Local setup\n\nRun `./setup.sh`, then open http://localhost:8080.\n' },
    ],
  });
  const now = nowIso();
  const award = (name: string, user: UserRow, awardable_type: string, awardable_id: number) => ({ name, user_id: user.id, awardable_type, awardable_id, created_at: now, updated_at: now });
  const issues = await db.selectFrom('issues').select(['id']).where('project_id', '=', project.id).orderBy('iid').limit(4).execute();
  await db
    .insertInto('award_emoji')
    .values([
      award('thumbsup', bob, 'Snippet', view.snippet.id),
      award('rocket', carol, 'Snippet', view.snippet.id),
      ...issues.flatMap((i, n) => [award('thumbsup', bob, 'Issue', i.id), ...(n % 2 ? [award('thumbsdown', carol, 'Issue', i.id)] : [award('eyes', carol, 'Issue', i.id)])]),
    ])
    .execute();
  const pairs: [number, number, 'relates_to' | 'blocks' | 'is_blocked_by'][] = [
    [0, 1, 'blocks'],
    [0, 2, 'relates_to'],
    [3, 1, 'is_blocked_by'],
  ];
  const rows = pairs.filter(([a, b]) => issues[a] && issues[b]).map(([a, b, type]) => ({ ...normalized(issues[a].id, issues[b].id, type), created_at: now, updated_at: now }));
  if (rows.length) await db.insertInto('issue_links').values(rows).execute();
}
