import { useEffect, useId, useRef, useState } from 'react';
import { Avatar, Badge, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { NOTE_MAX } from '../../../../shared/src/notes.ts';
import { useAddNote, useDeleteNote, useNotes, useUpdateNote, type NoteableRef, type ThreadNote } from '../../api/notes.ts';
import { useCurrentUser } from '../../api/session.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { fromNow, fullDateTimeToMinute } from '../../format.ts';
import { Reactions } from './Reactions.tsx';

/**
 * The thread of an issue or a merge request, oldest first: people's comments (Markdown, with
 * their reactions) and, between them, the system notes the platform writes when labels, state
 * or assignees change, as quieter lines. Under it, the form to comment for those who may.
 */
export function NotesThread({
  projectId,
  noteable,
  iid,
  canComment,
  canReact,
  canDeleteOthers = false,
}: NoteableRef & {
  /** The reader may comment (signed in and able to read the issue or merge request). */
  canComment: boolean;
  /** The reader may add and take back reactions on comments. */
  canReact: boolean;
  /** The reader may delete other people's comments (Maintainers and up; anyone edits and deletes only their own otherwise). */
  canDeleteOthers?: boolean;
}) {
  const ref = { projectId, noteable, iid };
  const me = useCurrentUser();
  const notes = useNotes(ref);
  const headingId = useId();
  const kind = noteable === 'issues' ? 'issue' : 'merge request';
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId} tabIndex={-1}>
        Comments and activity
      </Title>
      <QueryContent
        query={notes}
        what="comments"
        empty={(data) => data.notes.length === 0 && <EmptyState title="No comments yet">{canComment ? `Start the discussion of this ${kind} below.` : `Nobody has commented on this ${kind}.`}</EmptyState>}
      >
        {(data) => (
          <Stack gap="xs" component="ol" aria-label="Comments" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.notes.map((n) =>
              n.system ? (
                <SystemNote key={n.id} note={n} />
              ) : (
                <Comment
                  key={n.id}
                  note={n}
                  target={{ ...ref, noteId: n.id }}
                  canReact={canReact}
                  // The API's rule: a comment is edited by its author (or an administrator), deleted by its author or a Maintainer.
                  canEdit={n.author.id === me.id || me.is_admin}
                  canDelete={n.author.id === me.id || canDeleteOthers}
                  headingId={headingId}
                />
              ),
            )}
            {!data.complete && (
              <Text component="li" size="sm" c="dimmed">
                Only the first {data.notes.length} notes are shown.
              </Text>
            )}
          </Stack>
        )}
      </QueryContent>
      {canComment && <CommentForm target={ref} kind={kind} />}
    </Stack>
  );
}

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={fullDateTimeToMinute(iso)}>
      {fromNow(iso)}
    </time>
  );
}

/** A change the platform recorded ("added ~bug label", "closed"): one quiet line, its author and time. */
function SystemNote({ note }: { note: ThreadNote }) {
  return (
    <Text component="li" size="sm" c="dimmed" pl="md" py={2} style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }} data-system-note>
      <Text span fw={600} size="sm" c="dark">
        {note.author.name}
      </Text>{' '}
      {note.body} · <When iso={note.created_at} />
    </Text>
  );
}

function Comment({ note, target, canReact, canEdit, canDelete, headingId }: { note: ThreadNote; target: NoteableRef & { noteId: number }; canReact: boolean; canEdit: boolean; canDelete: boolean; headingId: string }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  const remove = useDeleteNote(target, { meta: { errorTitle: 'The comment was not deleted' } });
  // Back from the edit form (saved or cancelled), focus returns to the Edit button that opened it.
  useEffect(() => {
    if (!editing && wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const edited = note.updated_at !== note.created_at;
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={`Comment by ${note.author.name}`}>
      <Group gap="xs" mb={4} wrap="nowrap" justify="space-between">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Avatar src={note.author.avatar_url} name={note.author.name} alt="" size={24} radius="xl" />
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {note.author.name}
          </Text>
          <Text size="sm" c="dimmed">
            @{note.author.username} · <When iso={note.created_at} />
            {edited && (
              <>
                {' '}
                · edited <When iso={note.updated_at} />
              </>
            )}
          </Text>
          {note.internal && (
            <Badge size="sm" color="orange" variant="light">
              Internal
            </Badge>
          )}
        </Group>
        {!editing && (canEdit || canDelete) && (
          <Group gap={4} wrap="nowrap">
            {canEdit && (
              <Button ref={editButton} size="compact-sm" variant="subtle" onClick={() => setEditing(true)} aria-label={`Edit the comment by ${note.author.name}`}>
                Edit
              </Button>
            )}
            {canDelete && (
              <Button size="compact-sm" variant="subtle" color="red" onClick={() => setDeleting(true)} aria-label={`Delete the comment by ${note.author.name}`}>
                Delete
              </Button>
            )}
          </Group>
        )}
      </Group>
      {editing ? <EditCommentForm note={note} target={target} onDone={() => setEditing(false)} /> : <Markdown>{note.body}</Markdown>}
      <Group mt={6}>
        <Reactions target={target} canReact={canReact} what={`the comment by ${note.author.name}`} />
      </Group>
      {canDelete && (
        <ConfirmDialog
          opened={deleting}
          title="Delete this comment?"
          confirmLabel="Delete comment"
          loading={remove.isPending}
          focusFallback={() => document.getElementById(headingId)}
          onClose={() => setDeleting(false)}
          onConfirm={() =>
            remove.mutate(note.id, {
              onSuccess: () => {
                setDeleting(false);
                notifySuccess('Comment deleted', `The comment by ${note.author.name} is gone from the thread.`);
              },
            })
          }
        >
          The comment by {note.author.name} and its reactions are deleted for everyone. This cannot be undone.
        </ConfirmDialog>
      )}
    </Paper>
  );
}

/** The comment's text in place, to change; focus starts in it. */
function EditCommentForm({ note, target, onDone }: { note: ThreadNote; target: NoteableRef & { noteId: number }; onDone: () => void }) {
  const [body, setBody] = useState(note.body);
  const [tried, setTried] = useState(false);
  const update = useUpdateNote(target, { meta: { errorTitle: 'The comment was not saved' } });
  const blank = body.trim() === '';
  return (
    <form
      aria-label={`Edit the comment by ${note.author.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (blank) return;
        update.mutate(
          { noteId: note.id, body },
          {
            onSuccess: () => {
              notifySuccess('Comment saved', 'Your comment is up to date.');
              onDone();
            },
          },
        );
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !update.isPending) onDone();
      }}
    >
      <Stack gap="xs">
        <Textarea
          label="Edit comment"
          autosize
          minRows={3}
          maxLength={NOTE_MAX}
          value={body}
          autoFocus
          error={tried && blank ? 'Write something first' : undefined}
          onChange={(e) => setBody(e.currentTarget.value)}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onDone} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save comment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function CommentForm({ target, kind }: { target: NoteableRef; kind: string }) {
  const [body, setBody] = useState('');
  const [tried, setTried] = useState(false);
  const add = useAddNote(target, { meta: { errorTitle: 'The comment was not added' } });
  const blank = body.trim() === '';
  return (
    <form
      aria-label="Add a comment"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (blank) return;
        add.mutate(body, {
          onSuccess: () => {
            setBody('');
            setTried(false);
            notifySuccess('Comment added', `Your comment is on the ${kind}.`);
          },
        });
      }}
    >
      <Stack gap="xs">
        <Textarea
          label="Comment"
          description="Markdown: **bold**, `code`, lists, links and tables."
          autosize
          minRows={3}
          maxLength={NOTE_MAX}
          value={body}
          error={tried && blank ? 'Write something first' : undefined}
          onChange={(e) => setBody(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={add.isPending}>
            Comment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
