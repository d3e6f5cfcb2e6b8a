import type { MilestoneOwner } from '../../api/milestones.ts';

/** Whose milestones a screen shows (a group's or a project's), and what the caller may do with them. */
export interface MilestonesOf extends MilestoneOwner {
  /** The group's full name or the project's name with its namespace. */
  name: string;
  /** The milestones section: the list; a milestone is at `${href}/<iid>`. */
  href: string;
  canPlan: boolean;
  canDelete: boolean;
}

/** Where a milestone's issues and merge requests come from, for sentences: "… of the group’s projects". */
export const itemsOf = (of: MilestonesOf) => (of.scope === 'groups' ? 'the group’s projects' : 'the project');
