import { GitError, spawnGit } from './git-run.ts';

/** One file's change between two commits, its patch from the first hunk on. */
export interface DiffInfo {
  diff: string;
  newPath: string;
  oldPath: string;
  aMode: string;
  bMode: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
  /** Past the collection's safe limits: the patch is left out (the platform's `collapsed`). */
  collapsed: boolean;
  /** The patch alone is past the limit of one file: left out (the platform's `too_large`). */
  tooLarge: boolean;
}

/** The changes as far as the limits let them be read; `overflow` when files were left out. */
export interface DiffCollection {
  diffs: DiffInfo[];
  overflow: boolean;
}

/**
 * How much of a diff is read, as the platform bounds a diff collection. Past the max limits
 * the collection stops (overflow); past the safe limits each further patch is emptied and
 * marked collapsed, when collapsing; a patch of maxPatchBytes or more is emptied and marked
 * too large. Lines and bytes count a patch's content lines, not its hunk headers.
 */
export interface DiffLimits {
  maxFiles: number;
  maxLines: number;
  maxBytes: number;
  safeMaxFiles: number;
  safeMaxLines: number;
  safeMaxBytes: number;
  maxPatchBytes: number;
}

/**
 * The platform's defaults: application settings diff_max_files 1,000, diff_max_lines 50,000 and
 * diff_max_patch_bytes 200 KiB; the safe limits a tenth of the max ones; 5 KiB of patch a file.
 * What one request holds is then bounded: at most maxBytes of patches kept, plus one patch of
 * at most maxPatchBytes being read.
 */
export const DIFF_LIMITS: DiffLimits = {
  maxFiles: 1000,
  maxLines: 50_000,
  maxBytes: 1000 * 5 * 1024,
  safeMaxFiles: 100,
  safeMaxLines: 5000,
  safeMaxBytes: 100 * 5 * 1024,
  maxPatchBytes: 200 * 1024,
};

interface Entry {
  oldPath: string;
  newPath: string;
  aMode: string;
  bMode: string;
  status: string;
}

interface Patch {
  entry: Entry;
  /** Kept bytes: never more than maxPatchBytes. */
  parts: Buffer[];
  kept: number;
  /** The whole patch's length, kept or not. */
  length: number;
  lines: number;
  bytes: number;
  /** A hunk (or a binary notice) began: what follows is the patch. */
  started: boolean;
}

type LineKind = 'diff' | 'header' | 'hunk' | 'content';

const ZEROS = '000000';
const DIFF_GIT = Buffer.from('diff --git ');
const CLASSIFY_BYTES = DIFF_GIT.length;

/**
 * Reads `git diff --raw -z --patch` output as it arrives, a chunk at a time, and keeps only
 * what the limits let through: raw records first (each file's modes, status and paths), an
 * empty field, then one `diff --git` section per record in the same order. A line is never
 * held whole (a minified file's single line may be hundreds of megabytes): its first bytes
 * say what it is, the rest is counted and kept only while the patch is under its limit.
 */
export class DiffReader {
  private raw = true;
  private field: Buffer[] = [];
  private record: string[] = [];
  private readonly entries: Entry[] = [];
  private next = 0;
  private patch: Patch | undefined;
  /** The start of a line not yet long enough to tell what it is. */
  private lineStart: Buffer | undefined = Buffer.alloc(0);
  private kind: LineKind = 'header';
  private files = 0;
  private lines = 0;
  private bytes = 0;
  readonly diffs: DiffInfo[] = [];
  overflow = false;
  done = false;

  constructor(
    private readonly collapse: boolean,
    private readonly limits: DiffLimits = DIFF_LIMITS,
  ) {}

  /** Takes the next chunk; false once nothing more is wanted (the collection overflowed). */
  push(chunk: Buffer): boolean {
    let at = 0;
    while (this.raw && at < chunk.length && !this.done) at = this.readRaw(chunk, at);
    while (!this.raw && at < chunk.length && !this.done) at = this.readPatch(chunk, at);
    return !this.done;
  }

  /** The end of git's output: the last line and patch, and records git printed no section for. */
  end(): DiffCollection {
    if (!this.done && this.lineStart && this.lineStart.length) {
      this.beginLine(this.lineStart);
      this.endLine();
    }
    if (!this.done) this.finishPatch();
    while (!this.done && this.next < this.entries.length) {
      this.startPatch();
      if (!this.done) this.finishPatch();
    }
    return { diffs: this.diffs, overflow: this.overflow };
  }

  private readRaw(chunk: Buffer, at: number): number {
    const nul = chunk.indexOf(0, at);
    if (nul < 0) {
      this.field.push(chunk.subarray(at));
      return chunk.length;
    }
    this.field.push(chunk.subarray(at, nul));
    const field = Buffer.concat(this.field).toString('utf8');
    this.field = [];
    if (this.record.length === 0 && field === '') {
      // The empty field between the raw records and the patches.
      this.raw = false;
      return nul + 1;
    }
    this.record.push(field);
    const status = this.record[0].split(' ')[4] ?? '';
    if (this.record.length === (/^[RC]/.test(status) ? 3 : 2)) {
      this.addEntry(this.record);
      this.record = [];
    }
    return nul + 1;
  }

  private addEntry([meta, from, to]: string[]): void {
    // Entries past the files limit are never shown: the one after the last shown overflows.
    if (this.entries.length > this.limits.maxFiles) return;
    const [aMode, bMode, , , status] = meta.slice(1).split(' ');
    if (status === 'T') {
      // A type change (a file becoming a link): shown as a deletion and an addition, as git prints two sections.
      this.entries.push({ oldPath: from, newPath: from, aMode, bMode: ZEROS, status: 'D' });
      this.entries.push({ oldPath: from, newPath: from, aMode: ZEROS, bMode, status: 'A' });
      return;
    }
    this.entries.push({ oldPath: from, newPath: to ?? from, aMode, bMode, status });
  }

  private readPatch(chunk: Buffer, at: number): number {
    if (this.lineStart) {
      const newline = chunk.indexOf(0x0a, at);
      const upTo = newline < 0 ? chunk.length : newline + 1;
      const start = Buffer.concat([this.lineStart, chunk.subarray(at, Math.min(upTo, at + CLASSIFY_BYTES))]);
      if (start.length < CLASSIFY_BYTES && newline < 0) {
        this.lineStart = start;
        return chunk.length;
      }
      const taken = start.length - this.lineStart.length;
      this.lineStart = undefined;
      this.beginLine(start);
      at += taken;
      if (this.done) return chunk.length;
      if (start[start.length - 1] === 0x0a) {
        this.endLine();
        return at;
      }
    }
    const newline = chunk.indexOf(0x0a, at);
    const end = newline < 0 ? chunk.length : newline + 1;
    this.keep(chunk.subarray(at, end));
    if (newline >= 0) this.endLine();
    return end;
  }

  /** What a line is, from its first bytes, which are kept or dropped with it. */
  private beginLine(start: Buffer): void {
    if (start.subarray(0, DIFF_GIT.length).equals(DIFF_GIT)) {
      this.finishPatch();
      if (!this.done) this.startPatch();
      this.kind = 'diff';
      return;
    }
    const p = this.patch;
    const first = start[0];
    if (start[0] === 0x40 && start[1] === 0x40) this.kind = 'hunk';
    else if (p?.started && (first === 0x2b || first === 0x2d || first === 0x20 || first === 0x5c || first === 0x7e)) this.kind = 'content';
    else if (!p?.started && start.subarray(0, 7).toString('latin1') === 'Binary ') this.kind = 'content';
    else this.kind = 'header';
    if (p && this.kind !== 'header') p.started = true;
    this.keep(start);
  }

  private keep(piece: Buffer): void {
    const p = this.patch;
    if (!p || (this.kind !== 'hunk' && this.kind !== 'content')) return;
    p.length += piece.length;
    if (this.kind === 'content') p.bytes += piece.length;
    const room = this.limits.maxPatchBytes - p.kept;
    if (room <= 0) return;
    // Copied: the chunk it came from is git's buffer, not ours to keep.
    const part = Buffer.from(piece.subarray(0, room));
    p.parts.push(part);
    p.kept += part.length;
  }

  private endLine(): void {
    if (this.patch && this.kind === 'content') this.patch.lines++;
    this.lineStart = Buffer.alloc(0);
  }

  private startPatch(): void {
    this.files++;
    const entry = this.entries[this.next++];
    if (!entry || this.files > this.limits.maxFiles) {
      this.overflow = true;
      this.done = true;
      this.patch = undefined;
      return;
    }
    this.patch = { entry, parts: [], kept: 0, length: 0, lines: 0, bytes: 0, started: false };
  }

  /** One file done: collapsed past the safe limits, too large past its own, or the end of the collection past the max ones. */
  private finishPatch(): void {
    const p = this.patch;
    if (!p) return;
    this.patch = undefined;
    const l = this.limits;
    this.lines += p.lines;
    this.bytes += p.bytes;
    let collapsed = false;
    let tooLarge = false;
    const prune = () => {
      this.lines -= p.lines;
      this.bytes -= p.length;
      p.parts = [];
    };
    if (this.collapse && p.lines > 0 && (this.files > l.safeMaxFiles || this.lines > l.safeMaxLines || this.bytes > l.safeMaxBytes)) {
      prune();
      collapsed = true;
    } else if (p.length >= l.maxPatchBytes) {
      prune();
      tooLarge = true;
    }
    if (this.files > l.maxFiles || this.lines >= l.maxLines || this.bytes >= l.maxBytes) {
      this.overflow = true;
      this.done = true;
      return;
    }
    const e = p.entry;
    this.diffs.push({
      diff: Buffer.concat(p.parts).toString('utf8'),
      oldPath: e.oldPath,
      newPath: e.newPath,
      aMode: e.aMode,
      bMode: e.bMode,
      newFile: e.status === 'A',
      renamedFile: e.status.startsWith('R') || e.status.startsWith('C'),
      deletedFile: e.status === 'D',
      collapsed,
      tooLarge,
    });
  }
}

/**
 * The changes from one commit to another, read from git's output as it comes and within the
 * limits (collapsing past the safe ones where `collapse`); git is stopped once the collection
 * overflows. What this process holds is bounded whatever the blobs (see DIFF_LIMITS).
 */
export function readDiffs(dir: string, from: string, to: string, opts: { collapse: boolean; limits?: DiffLimits }): Promise<DiffCollection> {
  // Blobs past git's big file threshold (see git-run.ts) read "Binary files … differ", as on the platform.
  const args = ['diff', '--raw', '-z', '-M', '--full-index', '--patch', '--no-color', '--no-ext-diff', from, to, '--'];
  const reader = new DiffReader(opts.collapse, opts.limits);
  return new Promise((resolve, reject) => {
    const child = spawnGit(dir, args);
    child.stdin.end();
    const err: Buffer[] = [];
    let errBytes = 0;
    child.stderr.on('data', (b: Buffer) => {
      if (errBytes < 64 * 1024) err.push(b);
      errBytes += b.length;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (reader.done) return;
      if (!reader.push(chunk)) {
        child.stdout.destroy();
        child.kill();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (reader.done) return resolve(reader.end());
      if (code !== 0) return reject(new GitError(args, code, Buffer.concat(err).toString('utf8')));
      resolve(reader.end());
    });
  });
}
