import { parentPort } from 'node:worker_threads';
import { postJson, type OutboundRequest, type OutboundResult } from './http.ts';

/**
 * The sender thread's side (see sender.ts): requests arrive in batches of [id, request], and
 * answers go back in batches of [id, result], one message per turn of this thread's loop.
 */
const port = parentPort!;
let answers: [number, OutboundResult][] = [];
let flushing = false;

const flush = () => {
  flushing = false;
  const batch = answers;
  answers = [];
  port.postMessage(batch);
};

port.on('message', (batch: [number, OutboundRequest][]) => {
  for (const [id, request] of batch) {
    void postJson(request).then((result) => {
      answers.push([id, result]);
      if (!flushing) {
        flushing = true;
        setImmediate(flush);
      }
    });
  }
});
