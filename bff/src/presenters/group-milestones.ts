import type { GroupMilestone } from '../../../shared/src/group-milestones.ts';
import type { GroupMilestoneRow } from '../services/planning/group-milestones.ts';
import { today } from '../util/time.ts';

export function presentGroupMilestone(m: GroupMilestoneRow, ctx: { baseUrl: string }): GroupMilestone {
  return {
    id: m.id,
    iid: m.iid,
    group_id: m.group_id as number,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    due_date: m.due_date,
    start_date: m.start_date,
    // The platform's `expired`: the due date has passed.
    expired: m.due_date !== null && m.due_date < today(),
    web_url: `${ctx.baseUrl}/groups/${m.group_full_path}/-/milestones/${m.iid}`,
  };
}
