/**
 * The git spawner: a small Node process that starts git for the server (git-run.ts forks it
 * once, then sends it each run over the IPC channel).
 *
 * Why a process of its own: starting a child forks the process that starts it, and a fork
 * copies the page tables of all the memory the process has touched. The server's process
 * grows to hundreds of MB of scattered heap, where a fork costs some milliseconds of kernel
 * time; this process stays at a few tens of MB, where it costs a fraction of that
 * (`npm run bench`, "git spawn").
 *
 * Plain JavaScript without imports of the project, so it starts as plain `node` wherever the
 * server runs. A message is one run: `{ id, args, env, input, maxBytes }`; the answer is
 * `{ id, code, stdout, stderr, overflow }`, or `{ id, error }` when git could not be started.
 * It never outlives the server: it leaves when the channel closes (the server exited, or
 * was killed), and ignores the terminal's signals so that a server shutting down on Ctrl-C
 * can still finish its git work.
 */
import { spawn } from 'node:child_process';

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
process.on('disconnect', () => process.exit(0));

process.on('message', ({ id, args, env, input, maxBytes }) => {
  const child = spawn('git', args, { env, stdio: 'pipe' });
  const out = [];
  const err = [];
  let size = 0;
  let overflow = false;
  let answered = false;
  const answer = (message) => {
    if (answered || !process.connected) return;
    answered = true;
    process.send({ id, ...message });
  };
  child.stdout.on('data', (b) => {
    size += b.length;
    if (size > maxBytes) {
      overflow = true;
      child.kill();
    } else out.push(b);
  });
  child.stderr.on('data', (b) => err.push(b));
  // A child that exits before reading its input is reported by its exit code, not by EPIPE.
  child.stdin.on('error', () => {});
  child.on('error', (e) => answer({ error: e.message }));
  child.on('close', (code) => answer({ code, stdout: overflow ? null : Buffer.concat(out), stderr: Buffer.concat(err), overflow }));
  child.stdin.end(input);
});
