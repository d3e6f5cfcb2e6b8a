import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * The system's git, always asynchronous (a request never blocks the event loop on a child),
 * never reading the user's or system's configuration, with input on stdin where plumbing
 * takes it. Arguments are passed as an array (no shell); callers validate refs and paths
 * before they reach git's command line.
 */
export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] === '-C' ? args.slice(2).join(' ') : args.join(' ')} failed (${code}): ${stderr.trim().slice(0, 500)}`);
  }
}

export interface GitOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Output past this many bytes is an error rather than memory the process cannot spare. */
  maxBytes?: number;
}

// Paths clients send are literal paths, never pathspec magic such as `:(glob)`.
const ISOLATED_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', GIT_LITERAL_PATHSPECS: '1', LC_ALL: 'C' };

/**
 * Blobs past this size are big to git: diffed and merged as binary, never loaded whole to be
 * compared, so a diff or the stats of a commit cost git no more than this per side whatever the
 * file. The platform's Gitaly sets core.bigFileThreshold to 50 MiB for every git it runs.
 */
export const BIG_FILE_THRESHOLD_BYTES = 50 * 1024 * 1024;

/** Starts git in `dir` (a bare repository); the caller reads its streams. */
export function spawnGit(dir: string, args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn('git', ['-c', `core.bigFileThreshold=${BIG_FILE_THRESHOLD_BYTES}`, '-C', dir, ...args], { env: { ...process.env, ...ISOLATED_ENV, ...env }, stdio: 'pipe' });
}

/** Runs git to the end and answers its standard output; a non-zero exit is a GitError. */
export function git(dir: string, args: string[], opts: GitOptions = {}): Promise<Buffer> {
  const maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawnGit(dir, args, opts.env);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (b: Buffer) => {
      size += b.length;
      if (size > maxBytes) child.kill();
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    // A child that exits before reading its input is reported by its exit code, not by EPIPE.
    child.stdin.on('error', () => {});
    child.on('close', (code) => {
      if (size > maxBytes) return reject(new GitError(args, code, `output over ${maxBytes} bytes`));
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitError(args, code, Buffer.concat(err).toString('utf8')));
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** `git` answering text. */
export const gitText = async (dir: string, args: string[], opts?: GitOptions) => (await git(dir, args, opts)).toString('utf8');

/** Whether git exits 0 (a test such as `merge-base --is-ancestor`), without its output. */
export async function gitSucceeds(dir: string, args: string[]): Promise<boolean> {
  try {
    await git(dir, args);
    return true;
  } catch (e) {
    if (e instanceof GitError) return false;
    throw e;
  }
}
