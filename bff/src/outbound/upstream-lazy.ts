/**
 * The upstream client (upstream.ts), loaded on first use and kept: it brings the HTTP client
 * (undici, about 0.25 s of CPU), which a server that never calls an upstream, an AI gateway or a
 * package repository, need not load at its start. Every caller shares the one import: an
 * `import()` at each call costs a module resolution each time (under tsx, a round trip to its
 * loader thread: 0.7 ms of a code suggestion's CPU).
 */
let loaded: Promise<typeof import('./upstream.ts')> | undefined;

export function upstreamClient(): Promise<typeof import('./upstream.ts')> {
  if (!loaded) {
    loaded = import('./upstream.ts');
    // A failed load (it should not happen) is tried again by the next caller.
    loaded.catch(() => (loaded = undefined));
  }
  return loaded;
}
