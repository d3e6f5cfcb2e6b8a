import { memo, useId, useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Diff } from '../../../../shared/src/compare.ts';
import type { MergeRequest } from '../../../../shared/src/merge-requests.ts';
import { useMergeRequestChanges } from '../../api/merge-requests.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { formatCount } from '../../format.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { COLLAPSE_LINES, changeLabel, diffStats, fileView, parseDiff, type DiffLine } from './diff-model.ts';

/*
 * Colours of the diff, each pair well past WCAG AA (4.5:1) for text: the code (#1f2328) and the
 * line numbers (#57606a) on the added, removed and hunk backgrounds; a + or − sign and a hidden
 * word say the same to those who do not see the colour.
 */
const ROW: Record<DiffLine['kind'], { background: string; sign: string; word: string }> = {
  add: { background: '#e6ffec', sign: '+', word: 'Added: ' },
  del: { background: '#ffebe9', sign: '−', word: 'Removed: ' },
  context: { background: '#ffffff', sign: ' ', word: '' },
  hunk: { background: '#ddf4ff', sign: '', word: '' },
  note: { background: '#ffffff', sign: '', word: '' },
};
const NUMBER: React.CSSProperties = { width: 48, minWidth: 48, padding: '0 8px', textAlign: 'right', color: '#57606a', userSelect: 'none', verticalAlign: 'top' };
const CODE: React.CSSProperties = { padding: '0 8px', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: '#1f2328', width: '100%' };
const SIGN: React.CSSProperties = { width: 16, padding: '0 2px', color: '#1f2328', userSelect: 'none', verticalAlign: 'top' };

/** The Changes tab: every file's change from the merge base, long ones collapsed behind "Show file". */
export function MergeRequestChanges({ mr }: { mr: MergeRequest }) {
  const { project } = useProjectContext();
  const changes = useMergeRequestChanges(project.id, mr.iid);
  return (
    <QueryContent
      query={changes}
      what="the changes"
      empty={(data) =>
        data.changes.length === 0 && (
          <EmptyState title="No changes">
            {mr.source_branch} changes no file against {mr.target_branch}.
          </EmptyState>
        )
      }
    >
      {(data) => <ChangedFiles files={data.changes} overflow={data.overflow} />}
    </QueryContent>
  );
}

function ChangedFiles({ files, overflow }: { files: Diff[]; overflow: boolean }) {
  const parsed = useMemo(() => files.map((f) => ({ file: f, lines: parseDiff(f.diff) })), [files]);
  const totals = parsed.reduce((t, p) => {
    const s = diffStats(p.lines);
    return { added: t.added + s.added, removed: t.removed + s.removed };
  }, { added: 0, removed: 0 });
  return (
    <Stack gap="md">
      <Text size="sm">
        {formatCount(files.length, 'file', 'files')} changed, with <Text span c="teal.9" fw={600}>{formatCount(totals.added, 'line', 'lines')} added</Text> and{' '}
        <Text span c="red.9" fw={600}>{formatCount(totals.removed, 'line', 'lines')} removed</Text>. Files with over {COLLAPSE_LINES} changed lines are collapsed.
      </Text>
      {overflow && (
        <Alert color="yellow" variant="light" title="Not every change is shown">
          This merge request changes more than the server shows at once; compare the branches with git for the rest.
        </Alert>
      )}
      {parsed.map(({ file, lines }) => (
        <ChangedFile key={`${file.old_path}\u0000${file.new_path}`} file={file} lines={lines} />
      ))}
    </Stack>
  );
}

function ChangedFile({ file, lines }: { file: Diff; lines: DiffLine[] }) {
  const view = fileView(file, lines);
  const [shown, setShown] = useState(view === 'open');
  const bodyId = useId();
  const { added, removed } = diffStats(lines);
  const label = changeLabel(file);
  const path = file.deleted_file ? file.old_path : file.new_path;
  return (
    <Paper withBorder radius="md" component="section" aria-label={`File ${path}`} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" gap="sm" px="sm" py={8} bg="gray.0" wrap="wrap" style={{ borderBottom: shown ? '1px solid var(--mantine-color-gray-3)' : undefined }}>
        <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
          <Title order={3} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {path}
          </Title>
          {label && (
            <Badge size="sm" variant="light" color={file.deleted_file ? 'red' : file.new_file ? 'teal' : 'gray'} tt="none">
              {label}
            </Badge>
          )}
          <Text size="xs" c="dimmed" component="span">
            <Text span c="teal.9" inherit>
              +{added}
            </Text>{' '}
            <Text span c="red.9" inherit>
              −{removed}
            </Text>
            <span className="gh-visually-hidden"> ({added} added, {removed} removed)</span>
          </Text>
        </Group>
        {view === 'long' && (
          <Button size="compact-sm" variant="default" aria-expanded={shown} aria-controls={bodyId} onClick={() => setShown((s) => !s)}>
            {shown ? 'Hide file' : 'Show file'}
          </Button>
        )}
      </Group>
      {view === 'long' && !shown && (
        <Text size="sm" c="dimmed" px="sm" py="xs">
          {formatCount(added + removed, 'line', 'lines')} changed: collapsed to keep the page readable.
        </Text>
      )}
      {view === 'left-out' && (
        <Text size="sm" c="dimmed" px="sm" py="xs">
          {file.too_large ? 'This change is too large to show (its patch is over 200 KiB).' : 'The server left this change out: the merge request changes more than it shows at once.'} Compare the branches with git to read it.
        </Text>
      )}
      {view === 'no-lines' && (
        <Text size="sm" c="dimmed" px="sm" py="xs">
          {file.renamed_file ? 'Renamed without changing its content.' : 'No lines to show (an empty or binary file, or only its mode changed).'}
        </Text>
      )}
      <div id={bodyId} hidden={!shown || view === 'left-out' || view === 'no-lines'} style={{ overflowX: 'auto' }}>
        {shown && <DiffTable path={path} lines={lines} />}
      </div>
    </Paper>
  );
}

/** A file's lines: old and new numbers, the sign, the code; drawn once per file (a long file has hundreds). */
const DiffTable = memo(function DiffTable({ path, lines }: { path: string; lines: DiffLine[] }) {
  return (
    <table aria-label={`Changes of ${path}`} style={{ borderCollapse: 'collapse', width: '100%', fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12, lineHeight: '20px' }}>
      <thead className="gh-visually-hidden">
        <tr>
          <th scope="col">Old line</th>
          <th scope="col">New line</th>
          <th scope="col">Change</th>
          <th scope="col">Code</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => {
          const look = ROW[l.kind];
          if (l.kind === 'hunk' || l.kind === 'note') {
            return (
              <tr key={i} style={{ background: look.background }}>
                <td colSpan={3} style={NUMBER} />
                <td style={{ ...CODE, color: '#1f2328', fontStyle: l.kind === 'note' ? 'italic' : undefined }}>{l.text}</td>
              </tr>
            );
          }
          return (
            <tr key={i} style={{ background: look.background }}>
              <td style={NUMBER}>{l.oldLine ?? ''}</td>
              <td style={NUMBER}>{l.newLine ?? ''}</td>
              <td style={SIGN} aria-hidden="true">
                {look.sign}
              </td>
              <td style={CODE}>
                {look.word && <span className="gh-visually-hidden">{look.word}</span>}
                {l.text}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
});
