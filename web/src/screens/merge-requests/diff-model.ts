/*
 * How the Changes tab reads a file's patch (the API's `diff`, from its first hunk on): lines with
 * their old and new numbers, the file's counts, what kind of change it is, and whether it is shown
 * at once or behind a "Show file" button. No React here, so it is tested on its own.
 */

export type DiffLineKind = 'hunk' | 'add' | 'del' | 'context' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line's number in the old file (removed and context lines). */
  oldLine: number | null;
  /** The line's number in the new file (added and context lines). */
  newLine: number | null;
  /** The line without its leading +, - or space; a hunk's header as it is. */
  text: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

/** A unified patch as lines with numbers; a patch that starts elsewhere than a hunk header is numbered from 1. */
export function parseDiff(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  if (!patch) return lines;
  let oldNo = 1;
  let newNo = 1;
  const raw = patch.split('\n');
  // The patch's last newline ends its last line, it does not start an empty one.
  if (raw.at(-1) === '') raw.pop();
  for (const line of raw) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      lines.push({ kind: 'hunk', oldLine: null, newLine: null, text: line });
    } else if (line.startsWith('+')) {
      lines.push({ kind: 'add', oldLine: null, newLine: newNo++, text: line.slice(1) });
    } else if (line.startsWith('-')) {
      lines.push({ kind: 'del', oldLine: oldNo++, newLine: null, text: line.slice(1) });
    } else if (line.startsWith('\\')) {
      // "\ No newline at end of file": about the line before, numbered by neither side.
      lines.push({ kind: 'note', oldLine: null, newLine: null, text: line.slice(1).trim() });
    } else {
      lines.push({ kind: 'context', oldLine: oldNo++, newLine: newNo++, text: line.startsWith(' ') ? line.slice(1) : line });
    }
  }
  return lines;
}

/** Lines added and removed in a parsed patch. */
export function diffStats(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === 'add') added++;
    else if (l.kind === 'del') removed++;
  }
  return { added, removed };
}

/** What the API says of a file's change (the fields of its diff the page reads). */
export interface FileChange {
  diff: string;
  old_path: string;
  new_path: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  collapsed: boolean;
  too_large: boolean;
  a_mode: string;
  b_mode: string;
}

/** The words beside a file's name: new, deleted, renamed (from where), mode changed. */
export function changeLabel(f: FileChange): string | null {
  if (f.new_file) return 'New file';
  if (f.deleted_file) return 'Deleted';
  if (f.renamed_file) return `Renamed from ${f.old_path}`;
  if (f.a_mode !== f.b_mode && f.a_mode !== '0' && f.b_mode !== '0') return `Mode ${f.a_mode} → ${f.b_mode}`;
  return null;
}

/** Files with more changed lines than this are shown collapsed, behind "Show file". */
export const COLLAPSE_LINES = 200;

/**
 * How a file is first shown: `open`; `long` (collapsed here, shown on request); `left-out` when the
 * server did not send the patch (too large for one file, or past the diff limits of the whole
 * merge request); `no-lines` for a change without content lines (a pure rename, a mode change, an
 * empty or binary file).
 */
export type FileView = 'open' | 'long' | 'left-out' | 'no-lines';

export function fileView(f: FileChange, lines: DiffLine[], threshold = COLLAPSE_LINES): FileView {
  if (f.too_large || (f.collapsed && !f.diff)) return 'left-out';
  if (!lines.some((l) => l.kind !== 'hunk')) return 'no-lines';
  const { added, removed } = diffStats(lines);
  if (f.collapsed || added + removed > threshold) return 'long';
  return 'open';
}
