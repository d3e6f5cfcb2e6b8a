import type { Label } from '../../../shared/src/labels.ts';
import type { LabelRow } from '../db/schema.ts';
import { textColor, type LabelCounts } from '../services/planning/labels.ts';

export function presentLabel(l: LabelRow & { counts?: LabelCounts }): Label {
  return {
    id: l.id,
    name: l.title,
    description: l.description,
    description_html: l.description ?? '',
    text_color: textColor(l.color),
    color: l.color,
    priority: l.priority,
    is_project_label: l.project_id !== null,
    subscribed: false,
    archived: false,
    ...(l.counts ?? {}),
  };
}
