import type { ProjectIteration } from '../../../shared/src/iterations.ts';
import type { IterationWithGroup } from '../services/planning/project-iterations.ts';

export function presentIteration(it: IterationWithGroup, ctx: { baseUrl: string }): ProjectIteration {
  return {
    id: it.id,
    iid: it.iid,
    sequence: it.sequence,
    group_id: it.group_id,
    title: it.title,
    description: it.description,
    state: it.state,
    created_at: it.created_at,
    updated_at: it.updated_at,
    start_date: it.start_date,
    due_date: it.due_date,
    web_url: `${ctx.baseUrl}/groups/${it.group_full_path}/-/iterations/${it.id}`,
  };
}
