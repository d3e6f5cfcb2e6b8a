import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Note } from '../../../shared/src/notes.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

/** What holds a thread of comments: an issue or a merge request of a project, by its iid. */
export interface NoteableRef {
  projectId: number;
  noteable: 'issues' | 'merge_requests';
  iid: number;
}

/** What the thread shows of a note. */
export type ThreadNote = Pick<Note, 'id' | 'body' | 'author' | 'created_at' | 'updated_at' | 'system' | 'internal'>;

export const notesKeys = {
  all: ['notes'] as const,
  of: (r: NoteableRef) => [...notesKeys.all, r.projectId, r.noteable, r.iid] as const,
};

/** How many comments the thread reads, 100 at a time: enough for any issue people still read in a browser. */
const MAX_PAGES = 10;

function notesPage(r: NoteableRef, pageNo: number, signal?: AbortSignal): Promise<Page<ThreadNote>> {
  const query = { sort: 'asc' as const, order_by: 'created_at' as const, per_page: 100, page: pageNo };
  const id = String(r.projectId);
  return r.noteable === 'issues'
    ? page(v4.GET('/projects/{id}/issues/{issue_iid}/notes', { params: { path: { id, issue_iid: String(r.iid) }, query }, signal }))
    : page(v4.GET('/projects/{id}/merge_requests/{merge_request_iid}/notes', { params: { path: { id, merge_request_iid: String(r.iid) }, query }, signal }));
}

/** The thread, oldest first: comments and the system notes the platform writes (label, state, assignee changes). */
export function useNotes(r: NoteableRef) {
  return useQuery({
    queryKey: notesKeys.of(r),
    queryFn: async ({ signal }) => {
      const notes: ThreadNote[] = [];
      for (let pageNo = 1; pageNo <= MAX_PAGES; pageNo++) {
        const p = await notesPage(r, pageNo, signal);
        notes.push(...p.items);
        if (!p.page.nextPage) return { notes, complete: true };
      }
      return { notes, complete: false };
    },
  });
}

export function useAddNote(r: NoteableRef, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: string) => {
      const id = String(r.projectId);
      return r.noteable === 'issues'
        ? data(v4.POST('/projects/{id}/issues/{issue_iid}/notes', { params: { path: { id, issue_iid: String(r.iid) } }, body: { body } }))
        : data(v4.POST('/projects/{id}/merge_requests/{merge_request_iid}/notes', { params: { path: { id, merge_request_iid: String(r.iid) } }, body: { body } }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: notesKeys.of(r) }),
  });
}

const notePath = (r: NoteableRef, noteId: number) =>
  r.noteable === 'issues' ? { kind: 'issues' as const, path: { id: String(r.projectId), issue_iid: String(r.iid), note_id: String(noteId) } } : { kind: 'merge_requests' as const, path: { id: String(r.projectId), merge_request_iid: String(r.iid), note_id: String(noteId) } };

/** Changes a comment's text (its author's, as the API allows). */
export function useUpdateNote(r: NoteableRef, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ noteId, body }: { noteId: number; body: string }) => {
      const p = notePath(r, noteId);
      return p.kind === 'issues'
        ? data(v4.PUT('/projects/{id}/issues/{issue_iid}/notes/{note_id}', { params: { path: p.path }, body: { body } }))
        : data(v4.PUT('/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}', { params: { path: p.path }, body: { body } }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: notesKeys.of(r) }),
  });
}

/** Deletes a comment (its author, or a Maintainer and up). */
export function useDeleteNote(r: NoteableRef, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (noteId: number) => {
      const p = notePath(r, noteId);
      return p.kind === 'issues'
        ? data(v4.DELETE('/projects/{id}/issues/{issue_iid}/notes/{note_id}', { params: { path: p.path } }))
        : data(v4.DELETE('/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}', { params: { path: p.path } }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: notesKeys.of(r) }),
  });
}
