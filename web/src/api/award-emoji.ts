import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AwardEmoji } from '../../../shared/src/emoji-reactions.ts';
import { data, v4, type MutationOptions } from './client.ts';
import type { NoteableRef } from './notes.ts';

/** What takes reactions: an issue or merge request itself, or one of its comments (`noteId`). */
export interface AwardableRef extends NoteableRef {
  noteId?: number;
}

export const awardEmojiKeys = {
  all: ['award-emoji'] as const,
  of: (r: AwardableRef) => [...awardEmojiKeys.all, r.projectId, r.noteable, r.iid, r.noteId ?? 'self'] as const,
};

/** The typed path of an awardable's reactions, and the parameters it takes. */
function at(r: AwardableRef) {
  const id = String(r.projectId);
  const iid = String(r.iid);
  if (r.noteable === 'issues') {
    return r.noteId === undefined
      ? ({ path: '/projects/{id}/issues/{issue_iid}/award_emoji', params: { id, issue_iid: iid } } as const)
      : ({ path: '/projects/{id}/issues/{issue_iid}/notes/{note_id}/award_emoji', params: { id, issue_iid: iid, note_id: String(r.noteId) } } as const);
  }
  return r.noteId === undefined
    ? ({ path: '/projects/{id}/merge_requests/{merge_request_iid}/award_emoji', params: { id, merge_request_iid: iid } } as const)
    : ({ path: '/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}/award_emoji', params: { id, merge_request_iid: iid, note_id: String(r.noteId) } } as const);
}

// The four paths take the same query and body and answer the same shape; one typed call stands for them.
type AnyAwardPath = '/projects/{id}/issues/{issue_iid}/award_emoji';
type AnyAwardParams = { id: string; issue_iid: string };

/** Every reaction on the awardable (the first 100). */
export function useAwards(r: AwardableRef) {
  return useQuery({
    queryKey: awardEmojiKeys.of(r),
    queryFn: ({ signal }): Promise<AwardEmoji[]> => {
      const { path, params } = at(r);
      return data(v4.GET(path as AnyAwardPath, { params: { path: params as AnyAwardParams, query: { per_page: 100 } }, signal }));
    },
  });
}

/** Adds the caller's reaction by name (`thumbsup`), or removes one of theirs by its id. */
export function useToggleAward(r: AwardableRef, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: async (change: { add: string } | { remove: number }) => {
      const { path, params } = at(r);
      if ('add' in change) {
        await data(v4.POST(path as AnyAwardPath, { params: { path: params as AnyAwardParams }, body: { name: change.add } }));
      } else {
        await data(v4.DELETE(`${path as AnyAwardPath}/{award_id}`, { params: { path: { ...(params as AnyAwardParams), award_id: String(change.remove) } } }));
      }
    },
    onSettled: () => qc.invalidateQueries({ queryKey: awardEmojiKeys.of(r) }),
  });
}
