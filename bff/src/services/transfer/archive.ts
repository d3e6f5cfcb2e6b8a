import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';

/*
 * The platform's group export archive, as its own source and test fixtures show it
 * (lib/gitlab/import_export/group/import_export.yml, Group::TreeSaver / TreeRestorer and the
 * NdjsonReader, spec/fixtures/lib/gitlab/import_export/group_exports/{complex,no_children}):
 *
 * - a gzipped tar holding `VERSION` (the archive format, "0.2.4", checked on import),
 *   `GITLAB_VERSION` and `GITLAB_REVISION` (the exporting instance), and the ndjson tree;
 * - `tree/groups/_all.ndjson`: one line per group of the tree, the group's id as a bare number,
 *   the exported (top) group first and every parent before its children;
 * - `tree/groups/<id>.json`: the group's own attributes, one JSON object: id, name, path,
 *   description, visibility_level (0 private, 10 internal, 20 public), parent_id (null for the
 *   top group), request_access_enabled, share_with_group_lock, membership_lock,
 *   require_two_factor_authentication, two_factor_grace_period, project_creation_level
 *   (0 no one, 1 maintainers, 2 developers), subgroup_creation_level (0 owners, 1 maintainers),
 *   emails_enabled, lfs_enabled, auto_devops_enabled, mentions_disabled... (owner_id,
 *   runners_token, created_at and updated_at are left out on export);
 * - `tree/groups/<id>/<relation>.ndjson`, one record per line:
 *   - labels: id, title, color, description, group_id, project_id, type "GroupLabel",
 *     template, priorities, created_at, updated_at;
 *   - milestones: id, iid, title, description, state (active, closed), start_date, due_date,
 *     group_id, project_id, created_at, updated_at;
 *   - epics: id, iid, group_id, author_id, title, description, state (opened, closed; older
 *     archives carry state_id instead), confidential, color, start_date_fixed,
 *     start_date_is_fixed, due_date_fixed, due_date_is_fixed, closed_at, closed_by_id,
 *     parent_id and `parent` (the parent epic's own attributes: id, iid, group_id, title...),
 *     relative_position, created_at, updated_at (notes, award_emoji, label_links... too);
 *   - boards: id, name, group_id, project_id, milestone_id, weight, hide_backlog_list,
 *     hide_closed_list, created_at, updated_at and `lists` (id, board_id, list_type (backlog,
 *     closed, label...), position, label_id and `label`: the label's attributes, title among them);
 *   - badges: id, name, link_url, image_url, group_id, project_id, type "GroupBadge";
 *   - members: id, access_level, source_id, source_type "Namespace", user_id, expires_at,
 *     created_by_id, created_at, updated_at and `user`: id, public_email, username;
 *   - user_contributions: id, username, name, public_email of the users who contributed;
 *   - namespace_settings (prevent_sharing_groups_outside_hierarchy), and on the platform's EE
 *     epic_boards and iterations_cadences: read past, not imported here.
 */

export const ARCHIVE_VERSION = '0.2.4';
/** What our exports say they were made by, in GITLAB_VERSION and GITLAB_REVISION. */
export const EXPORTER_VERSION = '17.11.0';
export const EXPORTER_REVISION = 'gatehouse';

/** The relations imported here, and the platform's others an archive may carry (read past). */
export const IMPORTED_RELATIONS = ['labels', 'milestones', 'epics', 'boards', 'badges', 'members', 'user_contributions'] as const;
const IGNORED_RELATIONS = ['namespace_settings', 'epic_boards', 'iterations_cadences'];
export type Relation = (typeof IMPORTED_RELATIONS)[number];

/** An archive refused for what it is (not what the database thought of it): a 400 up front, the reason of a failed import later. */
export class ArchiveRefused extends Error {}

export interface ArchiveLimits {
  /** The most the archive's files may hold in all, decompressed. */
  maxBytes: number;
  /** The longest line of an ndjson file (and the largest group .json file). */
  maxLineBytes: number;
}

/** The tar headers and padding around the files, over their own bytes, before a gzip stream counts as a bomb. */
const TAR_OVERHEAD = 1024 * 1024;

/** The name an archive entry may have (leading `./` dropped), or the reason it is refused. */
export function entryName(raw: string): string {
  if (raw.includes('\0') || raw.includes('\\')) throw new ArchiveRefused(`the archive holds an entry with a forbidden name: ${JSON.stringify(raw)}`);
  if (raw.startsWith('/')) throw new ArchiveRefused(`the archive holds an entry with an absolute path: ${JSON.stringify(raw)}`);
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new ArchiveRefused(`the archive holds an entry outside its folder: ${JSON.stringify(raw)}`);
  return parts.join('/');
}

/** Whether `name` (an entry's clean name) is a file of the archive's layout; unknown files are refused. */
function knownFile(name: string): boolean {
  if (name === 'VERSION' || name === 'GITLAB_VERSION' || name === 'GITLAB_REVISION' || name === 'tree/groups/_all.ndjson') return true;
  if (/^tree\/groups\/\d{1,18}\.json$/.test(name)) return true;
  const m = /^tree\/groups\/\d{1,18}\/([a-z_]+)\.ndjson$/.exec(name);
  return Boolean(m && ((IMPORTED_RELATIONS as readonly string[]).includes(m[1]) || IGNORED_RELATIONS.includes(m[1])));
}
const knownFolder = (name: string) => name === '' || name === 'tree' || name === 'tree/groups' || /^tree\/groups\/\d{1,18}$/.test(name);

/** Counts what passes and fails past `max` bytes. */
function capped(max: number, what: () => string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(new ArchiveRefused(what()));
      else done(null, chunk);
    },
  });
}

/** Fails a file whose lines (for ndjson) or whole (for a .json) run past `max` bytes. */
function lineCapped(name: string, max: number): Transform {
  const whole = name.endsWith('.json');
  let run = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (whole) run += chunk.length;
      else {
        const nl = chunk.lastIndexOf(0x0a);
        if (nl < 0) run += chunk.length;
        else {
          // The longest line within the chunk, and what runs on after its last newline.
          let start = 0;
          for (let i = chunk.indexOf(0x0a); i >= 0 && i <= nl; i = chunk.indexOf(0x0a, i + 1)) {
            if (run + (i - start) > max) return done(new ArchiveRefused(`${name} has a line longer than ${max} bytes`));
            run = 0;
            start = i + 1;
          }
          run = chunk.length - start;
        }
      }
      if (run > max) return done(new ArchiveRefused(whole ? `${name} is larger than ${max} bytes` : `${name} has a line longer than ${max} bytes`));
      done(null, chunk);
    },
  });
}

/**
 * Reads an archive as it streams in and checks it all: gzip, tar, every entry a plain file or
 * folder of the layout under a safe name, the declared sizes and the decompressed total within
 * `limits`, no ndjson line past its limit. Into `dir` when given (the caller's temporary
 * folder, which it removes), or only checked. Throws ArchiveRefused saying why.
 */
export async function extractArchive(source: Readable, dir: string | null, limits: ArchiveLimits): Promise<string[]> {
  const names: string[] = [];
  let declared = 0;
  const untar = tar.extract();
  untar.on('entry', (header, stream, next) => {
    const fail = (e: Error) => {
      stream.resume();
      next(e);
    };
    let name: string;
    try {
      name = entryName(header.name);
    } catch (e) {
      return fail(e as Error);
    }
    if (header.type === 'directory') {
      if (!knownFolder(name)) return fail(new ArchiveRefused(`the archive holds an unknown folder: ${name}`));
      stream.resume();
      return next();
    }
    if (header.type === 'symlink' || header.type === 'link') return fail(new ArchiveRefused(`the archive holds a link: ${name}`));
    if (header.type !== 'file' && header.type !== 'contiguous-file') return fail(new ArchiveRefused(`the archive holds an entry that is not a file: ${name}`));
    if (!knownFile(name)) return fail(new ArchiveRefused(`the archive holds an unknown file: ${name}`));
    if (names.includes(name)) return fail(new ArchiveRefused(`the archive holds ${name} twice`));
    declared += header.size;
    if (declared > limits.maxBytes) return fail(new ArchiveRefused(`the archive is larger than ${limits.maxBytes} bytes once decompressed`));
    names.push(name);
    const stages: NodeJS.ReadWriteStream[] = [lineCapped(name, limits.maxLineBytes)];
    let sink: NodeJS.WritableStream;
    if (dir) {
      const target = path.join(dir, name);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      sink = fs.createWriteStream(target, { flags: 'wx' });
    } else sink = new PassThrough().resume();
    pipeline([stream, ...stages, sink]).then(() => next(), next);
  });
  try {
    await pipeline(source, gzipOnly(), zlib.createGunzip(), capped(limits.maxBytes + TAR_OVERHEAD, () => `the archive is larger than ${limits.maxBytes} bytes once decompressed`), untar);
  } catch (e) {
    if (e instanceof ArchiveRefused) throw e;
    const err = e as NodeJS.ErrnoException;
    if (err.code?.startsWith('Z_')) throw new ArchiveRefused(`the file is not a gzip archive (${err.message})`);
    if (/tar|header|Unexpected end/i.test(err.message ?? '')) throw new ArchiveRefused(`the file is not a tar archive (${err.message})`);
    throw e;
  }
  for (const required of ['VERSION', 'tree/groups/_all.ndjson']) if (!names.includes(required)) throw new ArchiveRefused(`the archive has no ${required}: it is not a group export`);
  return names;
}

/** Refuses at once a file that does not start as gzip does. */
function gzipOnly(): Transform {
  let checked = false;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!checked && chunk.length) {
        checked = true;
        if (chunk[0] !== 0x1f || (chunk.length > 1 && chunk[1] !== 0x8b)) return done(new ArchiveRefused('the file is not a gzip archive'));
      }
      done(null, chunk);
    },
    flush(done) {
      done(checked ? null : new ArchiveRefused('the file is empty'));
    },
  });
}

/** The records of an ndjson file of an extracted archive, one at a time (nothing when it is absent). */
export async function* readNdjson(file: string): AsyncGenerator<Record<string, unknown>> {
  if (!fs.existsSync(file)) return;
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ArchiveRefused(`${path.basename(path.dirname(file))}/${path.basename(file)} line ${n} is not JSON`);
    }
    yield value as Record<string, unknown>;
  }
}

/** An archive's file to write: its name in the archive and the file on disk that holds its bytes. */
export interface ArchiveFile {
  name: string;
  file: string;
}

/**
 * The gzipped tar of `files` (read from disk one after the other as the stream is read), as a
 * stream for the file store's `put`: one file's chunk or two is held at a time, whatever the size.
 */
export function packArchive(files: ArchiveFile[]): Readable {
  const pack = tar.pack();
  const out = new PassThrough();
  void (async () => {
    for (const f of files) {
      const { size, mtime } = await fs.promises.stat(f.file);
      const entry = pack.entry({ name: f.name, size, mode: 0o644, mtime });
      await pipeline(fs.createReadStream(f.file), entry);
    }
    pack.finalize();
  })().catch((e: Error) => pack.destroy(e));
  pipeline(pack, zlib.createGzip(), out).catch((e: Error) => out.destroy(e));
  return out;
}

/** Writes lines to a file with backpressure: one JSON record a line. */
export class NdjsonWriter {
  private readonly stream: fs.WriteStream;
  count = 0;
  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.stream = fs.createWriteStream(file);
  }
  async write(record: unknown): Promise<void> {
    this.count++;
    if (!this.stream.write(`${JSON.stringify(record)}\n`)) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) => this.stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
