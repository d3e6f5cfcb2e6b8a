import type { AwardEmojiRow, GroupRow, ProjectRow, UserRow } from '../../db/schema.ts';
import type { SnippetView } from './snippets.ts';
import { projectObject } from '../webhooks/hook-payloads.ts';
import type { AWARDABLE_TYPES } from '../../../../shared/src/emoji-reactions.ts';

export type AwardableType = (typeof AWARDABLE_TYPES)[number];

/**
 * What can be reacted to, as the emoji routes load it: its type and id, where it lives, and
 * the object an emoji event carries (`issue`, `merge_request`, `snippet`, or `note` with its parent).
 */
export interface Awardable {
  type: AwardableType;
  id: number;
  project: ProjectRow;
  group: GroupRow;
  /** The awardable's page, for `awarded_on_url`. */
  url: string;
  /** Computed only when an event fires. */
  hookObjects: (user: UserRow) => Promise<Record<string, unknown>>;
}

const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 };

/** The platform's emoji event: `award` when a reaction is added, `revoke` when it is removed. */
export function emojiPayload(baseUrl: string, event: 'award' | 'revoke', user: UserRow, awardable: Awardable, award: AwardEmojiRow, objects: Record<string, unknown>) {
  return {
    object_kind: 'emoji',
    event_type: event,
    user: { id: user.id, name: user.name, username: user.username, avatar_url: null, email: user.email },
    project_id: awardable.project.id,
    project: projectObject(baseUrl, awardable.project, awardable.group),
    object_attributes: {
      user_id: award.user_id,
      created_at: award.created_at,
      id: award.id,
      name: award.name,
      awardable_type: award.awardable_type,
      awardable_id: award.awardable_id,
      updated_at: award.updated_at,
      awarded_on_url: awardable.url,
    },
    ...objects,
  };
}

/** A snippet as emoji (and note) events carry it. */
export function snippetHookObject(v: SnippetView) {
  const s = v.snippet;
  return {
    id: s.id,
    title: s.title,
    content: v.files[0]?.content ?? '',
    author_id: s.author_id,
    project_id: s.project_id,
    created_at: s.created_at,
    updated_at: s.updated_at,
    file_name: v.files[0]?.path ?? null,
    type: 'ProjectSnippet',
    visibility_level: VISIBILITY_LEVEL[s.visibility] ?? 0,
    description: s.description,
  };
}

/** What an issue, merge request or note event embeds (`issue`, `merge_request`, `note` with its parent), for an emoji event. */
export function embeddedObjects(payload: { object_kind: string; object_attributes: Record<string, unknown> } & Record<string, unknown>): Record<string, unknown> {
  const { object_kind: kind, object_attributes: _o, event_type: _e, user: _u, project: _p, project_id: _i, repository: _r, changes: _c, labels: _l, assignees: _a, reviewers: _v, ...rest } = payload;
  const { action: _action, ...attributes } = payload.object_attributes;
  return { ...rest, [kind]: attributes };
}
