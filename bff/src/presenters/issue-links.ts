import type { z } from 'zod';
import type { issueLink, linkedIssue } from '../../../shared/src/issue-links.ts';
import type { IssueLinkRow } from '../db/schema.ts';
import type { IssueLinkType } from '../../../shared/src/issue-links.ts';
import type { PlacedIssue } from '../services/planning/issue-links.ts';
import { presentIssue } from './issues.ts';

const issueOf = (p: PlacedIssue, baseUrl: string) => presentIssue(p.view, { baseUrl, project: p.project, group: p.group });

export function presentLinkedIssue(v: { link: IssueLinkRow; other: PlacedIssue; type: IssueLinkType }, ctx: { baseUrl: string }): z.output<typeof linkedIssue> {
  return {
    ...issueOf(v.other, ctx.baseUrl),
    issue_link_id: v.link.id,
    link_type: v.type,
    link_created_at: v.link.created_at,
    link_updated_at: v.link.updated_at,
  };
}

export function presentIssueLink(v: { link: IssueLinkRow; source: PlacedIssue; target: PlacedIssue }, ctx: { baseUrl: string }): z.output<typeof issueLink> {
  return { source_issue: issueOf(v.source, ctx.baseUrl), target_issue: issueOf(v.target, ctx.baseUrl), link_type: v.link.link_type as IssueLinkType };
}
