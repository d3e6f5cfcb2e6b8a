import { useState } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { StackTraceEntry } from '../../../../shared/src/error-tracking.ts';
import { foldFrames, isDependencyFrame } from './error-model.ts';
import './stack-trace.css';

/** `handle (/app/src/db.js:12:5)`: where a frame is, as a reader scans a trace. */
const whereOf = (f: StackTraceEntry) => `${f.filename ?? '<unknown file>'}${f.lineNo !== null ? `:${f.lineNo}` : ''}${f.colNo !== null ? `:${f.colNo}` : ''}`;

/**
 * The latest event's stack trace, most recent call first, folded to the application's own
 * frames: the frames of dependencies and of the runtime are behind "Show N more frames". A
 * frame's source lines are shown where the SDK sent them, its own line marked.
 */
export function StackTrace({ frames }: { frames: StackTraceEntry[] }) {
  const [all, setAll] = useState(false);
  if (frames.length === 0) return <Text size="sm" c="dimmed">The SDK sent no stack trace with this error’s latest event.</Text>;
  const { shown, hidden } = foldFrames(frames, all);
  const folds = frames.some(isDependencyFrame) && shown.some((f) => !isDependencyFrame(f));
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed">
        Most recent call first. {frames.length} {frames.length === 1 ? 'frame' : 'frames'}
        {hidden > 0 ? `; ${hidden} of dependencies and the runtime are folded away.` : '.'}
      </Text>
      <ol className="gh-frames" aria-label="Stack trace">
        {shown.map((f, i) => (
          <Frame key={i} frame={f} open={i === 0} />
        ))}
      </ol>
      {folds && (hidden > 0 || all) && (
        <Button variant="subtle" size="compact-sm" w="fit-content" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? 'Show only the application’s frames' : `Show ${hidden} more ${hidden === 1 ? 'frame' : 'frames'}`}
        </Button>
      )}
    </Stack>
  );
}

/** One frame: where it is, and its source lines (shown at first for the most recent call only; the others on request). */
function Frame({ frame: f, open }: { frame: StackTraceEntry; open: boolean }) {
  const [shown, setShown] = useState(open);
  const hasSource = f.context.length > 0;
  return (
    <li className="gh-frame" data-dependency={isDependencyFrame(f) || undefined}>
      <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
          <Text span fw={700} ff="monospace" size="sm">
            {f.function ?? '<anonymous>'}
          </Text>{' '}
          <Text span c="dimmed" ff="monospace" size="sm">
            at
          </Text>{' '}
          {whereOf(f)}
          {isDependencyFrame(f) && (
            <Text span c="dimmed" size="xs">
              {' '}
              (dependency or runtime)
            </Text>
          )}
        </Text>
        {hasSource && (
          <Button variant="subtle" size="compact-xs" onClick={() => setShown(!shown)} aria-expanded={shown} aria-label={`${shown ? 'Hide' : 'Show'} the source of ${f.function ?? 'the frame'} at ${whereOf(f)}`} style={{ flexShrink: 0 }}>
            {shown ? 'Hide source' : 'Show source'}
          </Button>
        )}
      </Group>
      {hasSource && shown && <SourceLines lines={f.context} at={f.lineNo} />}
    </li>
  );
}

/** The source around a frame's line, numbered; the frame's own line is marked (and named for screen readers). */
function SourceLines({ lines, at }: { lines: [number, string][]; at: number | null }) {
  return (
    <Paper withBorder radius="sm" mt={6} className="gh-source">
      <pre>
        {lines.map(([n, text]) => {
          const current = n === at;
          return (
            <span key={n} className={current ? 'gh-source-row gh-source-current' : 'gh-source-row'}>
              <span className="gh-source-line-no" aria-hidden>
                {n}
              </span>
              {current && <span className="gh-visually-hidden">Line {n}, where the error was raised: </span>}
              {text || ' '}
            </span>
          );
        })}
      </pre>
    </Paper>
  );
}
