import { Badge } from '@mantine/core';
import { dueStatus, type Milestone } from '../../../../shared/src/group-milestones.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** Past due, upcoming or due within a week: what the platform's list warns about. */
export function DueBadge({ milestone }: { milestone: Milestone }) {
  const status = dueStatus(milestone, today());
  if (status === 'past_due') return <Badge color="red" variant="light">Past due</Badge>;
  if (status === 'upcoming') return <Badge color="blue" variant="light">Upcoming</Badge>;
  if (status === 'due_soon') return <Badge color="orange" variant="light">Due soon</Badge>;
  if (milestone.state === 'closed') return <Badge color="gray" variant="light">Closed</Badge>;
  return null;
}
