import { Worker } from 'node:worker_threads';
import type { OutboundRequest, OutboundResult } from './http.ts';

/**
 * Outbound requests (webhook deliveries) are made on a thread of their own: building, writing
 * and reading an HTTP request is a third of a delivery's work, and on the main thread it
 * competes with the database and the API's requests. One thread per process, started by the
 * first delivery (about 0.7 s of CPU to load its modules: a process that sends nothing, as most
 * test servers and many instances, never pays it; the first delivery waits for it once);
 * requests and answers cross in batches, one message per turn of each thread's loop. The
 * thread runs the same `postJson`, with its guard against internal addresses, its timeouts
 * and its cap on what is read.
 */
let thread: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, (result: OutboundResult) => void>();
let outbox: [number, OutboundRequest][] = [];

/** The thread's entry: under tsx (a .ts module) the thread registers tsx before loading it. */
function threadSource(): string {
  const entry = new URL('./sender-thread.ts', import.meta.url).href;
  if (!import.meta.url.endsWith('.ts')) return `import(${JSON.stringify(entry)});`;
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
}

/** Starts the thread if it is not running. */
function startSender(): Worker {
  if (thread) return thread;
  const worker = new Worker(threadSource(), { eval: true, execArgv: [], name: 'outbound sender' });
  worker.on('message', (answers: [number, OutboundResult][]) => {
    for (const [id, result] of answers) {
      const resolve = waiting.get(id);
      waiting.delete(id);
      resolve?.(result);
    }
    if (!waiting.size) worker.unref();
  });
  // A thread that died answers every request it held with the reason, and the next request starts another.
  const died = (reason: string) => {
    if (thread !== worker) return;
    thread = undefined;
    for (const [id, resolve] of waiting) {
      waiting.delete(id);
      resolve({ status: null, headers: {}, body: '', durationMs: 0, error: `outbound sender stopped: ${reason}` });
    }
  };
  worker.on('error', (e) => died(e.message));
  worker.on('exit', (code) => died(`exit code ${code}`));
  worker.unref();
  thread = worker;
  return worker;
}

/** `postJson` on the sender thread. */
export function postJsonOnSender(request: OutboundRequest): Promise<OutboundResult> {
  const worker = startSender();
  const id = nextId++;
  if (!waiting.size) worker.ref();
  if (!outbox.length) queueMicrotask(flush);
  outbox.push([id, request]);
  return new Promise((resolve) => waiting.set(id, resolve));
}

function flush() {
  const batch = outbox;
  outbox = [];
  thread?.postMessage(batch);
}
