import { fork, spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/** Starts git in `dir` (a bare repository) from this process, for a caller that reads its streams as they come. */
export function spawnGit(dir: string, args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn('git', ['-c', `core.bigFileThreshold=${BIG_FILE_THRESHOLD_BYTES}`, '-C', dir, ...args], { env: { ...process.env, ...ISOLATED_ENV, ...env }, stdio: 'pipe' });
}

/** What the spawner answers for one run (git-spawner.mjs). */
type SpawnerAnswer = { id: number; error?: string; code?: number | null; stdout?: Uint8Array | null; stderr?: Uint8Array; overflow?: boolean };

type Pending = { resolve: (a: SpawnerAnswer | undefined) => void; reject: (e: Error) => void };

/**
 * The spawner process that starts the runs of `git()` (git-spawner.mjs explains why), forked
 * at the first run and again after it dies. Its channel keeps this process alive only while a
 * run is under way, so a server or a script exits as it would without it.
 */
class Spawner {
  private current: { child: ChildProcess; pending: Map<number, Pending> } | undefined;
  private seq = 0;

  /** A run the spawner could not be sent (it had just died) goes to a new one, once: it never started. */
  async run(args: string[], env: NodeJS.ProcessEnv, input: string | Buffer, maxBytes: number, retry = true): Promise<SpawnerAnswer> {
    const spawner = (this.current ??= this.start());
    const id = ++this.seq;
    let unsent: Error | undefined;
    const answer = await new Promise<SpawnerAnswer | undefined>((resolve, reject) => {
      spawner.pending.set(id, { resolve, reject });
      if (spawner.pending.size === 1) spawner.child.channel?.ref();
      spawner.child.send({ id, args, env, input, maxBytes }, (e) => {
        if (!e) return;
        unsent = e;
        this.forget(spawner.child);
        settle(spawner, id, (p) => p.resolve(undefined));
      });
    });
    if (answer) return answer;
    if (!retry) throw new Error(`the git spawner could not be reached: ${unsent?.message}`);
    return this.run(args, env, input, maxBytes, false);
  }

  private start() {
    const child = fork(SPAWNER_PATH, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] });
    const spawner = { child, pending: new Map<number, Pending>() };
    child.on('message', (a: SpawnerAnswer) => settle(spawner, a.id, (p) => p.resolve(a)));
    // Its runs under way when it dies fail (no answer can come once its channel closes); the next run forks another.
    const lost = (why: string) => {
      this.forget(child);
      for (const id of [...spawner.pending.keys()]) settle(spawner, id, (p) => p.reject(new Error(`the git spawner ${why} during the run`)));
    };
    child.on('disconnect', () => lost('went away'));
    child.on('exit', (code, signal) => lost(`exited (${signal ?? code})`));
    child.unref();
    child.channel?.unref();
    return spawner;
  }

  /** A spawner that died (or cannot be written to) is not used again. */
  private forget(child: ChildProcess): void {
    if (this.current?.child !== child) return;
    this.current = undefined;
    child.kill('SIGKILL');
  }
}

function settle(spawner: { child: ChildProcess; pending: Map<number, Pending> }, id: number, how: (p: Pending) => void): void {
  const p = spawner.pending.get(id);
  if (!p) return;
  spawner.pending.delete(id);
  if (spawner.pending.size === 0) spawner.child.channel?.unref();
  how(p);
}

const SPAWNER_PATH = fileURLToPath(new URL('./git-spawner.mjs', import.meta.url));
const spawner = new Spawner();
const bytes = (b: Uint8Array | null | undefined) => (b ? Buffer.from(b.buffer, b.byteOffset, b.byteLength) : Buffer.alloc(0));

/** Runs git to the end and answers its standard output; a non-zero exit is a GitError. */
export async function git(dir: string, args: string[], opts: GitOptions = {}): Promise<Buffer> {
  const maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  const a = await spawner.run(['-c', `core.bigFileThreshold=${BIG_FILE_THRESHOLD_BYTES}`, '-C', dir, ...args], { ...process.env, ...ISOLATED_ENV, ...opts.env }, opts.input ?? '', maxBytes);
  if (a.error !== undefined) throw new Error(`git could not be started: ${a.error}`);
  if (a.overflow) throw new GitError(args, a.code ?? null, `output over ${maxBytes} bytes`);
  if (a.code !== 0) throw new GitError(args, a.code ?? null, bytes(a.stderr).toString('utf8'));
  return bytes(a.stdout);
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
