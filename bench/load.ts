/**
 * The load generator of the read benches (bench/run.ts, bench/proxy.ts), apart from bench/lib.ts
 * so that the server children, which import lib.ts, do not load autocannon.
 */
import autocannon from 'autocannon';

/**
 * autocannon for `seconds` on `url` with `connections` keep-alive connections; with `record`,
 * the latencies of the 2xx answers, ascending, from autocannon's per-response event (its own
 * histogram rounds to whole milliseconds).
 */
export async function autocannonLoad(url: string, headers: Record<string, string>, seconds: number, record: boolean, connections: number) {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const instance = autocannon({ url, headers, connections, duration: seconds, timeout: 30 });
  if (record) {
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode >= 300) return;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
    });
  }
  const result = await instance;
  const sorted = latencies.subarray(0, count).sort();
  return { result, sorted };
}
