import type { Milestone } from '../../../shared/src/group-milestones.ts';
import type { MilestoneWithOwner } from '../services/planning/milestones.ts';
import { presentMilestoneBrief } from './work-items.ts';

/**
 * A group's or a project's milestone (the platform's Milestone entity: `group_id` or
 * `project_id` by its owner), the same shape issues and merge requests embed.
 */
export function presentMilestone(m: MilestoneWithOwner, ctx: { baseUrl: string }): Milestone {
  return presentMilestoneBrief(m, { baseUrl: ctx.baseUrl, ownerPath: m.owner_path }) as Milestone;
}
