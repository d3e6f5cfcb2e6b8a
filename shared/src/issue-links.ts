import { z } from './errors.ts';
import { intParam } from './params.ts';
import { issue } from './issues.ts';

/** Issue links, spec part 2, "Issue links". */
export const ISSUE_LINK_TYPES = ['relates_to', 'blocks', 'is_blocked_by'] as const;
export const issueLinkType = z.enum(ISSUE_LINK_TYPES);
export type IssueLinkType = z.infer<typeof issueLinkType>;

/** An item of GET …/links: the linked issue and the link, as seen from the issue asked about. */
export const linkedIssue = issue.extend({
  issue_link_id: z.number().int(),
  link_type: issueLinkType,
  link_created_at: z.string(),
  link_updated_at: z.string(),
});

/** One link as stored: `is_blocked_by` links are kept as `blocks` the other way round. */
export const issueLink = z.object({ source_issue: issue, target_issue: issue, link_type: issueLinkType });

export const issueLinkCreateBody = z.object({
  target_project_id: z.union([z.number().int().positive().transform(String), z.string().min(1).max(255)]),
  target_issue_iid: intParam().pipe(z.number().int().positive()),
  link_type: issueLinkType.optional(),
});
export type IssueLinkCreateBody = z.infer<typeof issueLinkCreateBody>;

export const issueLinkDeleteQuery = z.object({ link_type: issueLinkType.optional() });
