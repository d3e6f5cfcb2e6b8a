/** The part of autocannon's programmatic API that bench/run.ts and bench/deliveries.ts use (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    pipelining?: number;
    /** Requests in turn; `setupRequest` may change each one before it is sent (its body, say). */
    requests?: { method?: string; body?: string | Buffer; headers?: Record<string, string>; setupRequest?: (req: { body?: string | Buffer; headers?: Record<string, string> }) => { body?: string | Buffer; headers?: Record<string, string> } }[];
  }

  export interface Stats {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface Result {
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** Requests per second sampled once a second. */
    requests: Stats & { sent: number };
    /** Milliseconds, 2xx responses only, at 1 ms resolution. */
    latency: Stats & { totalCount: number };
    throughput: Stats;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  function autocannon(opts: Options): Instance;
  export default autocannon;
}
