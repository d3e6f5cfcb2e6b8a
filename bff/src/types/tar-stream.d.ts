/** The part of tar-stream 2's API that services/transfer/archive.ts uses (the package ships no types). */
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: 'file' | 'link' | 'symlink' | 'directory' | 'block-device' | 'character-device' | 'fifo' | 'contiguous-file' | 'pax-header' | 'pax-global-header' | 'gnu-long-link-path' | 'gnu-long-path' | null;
    linkname?: string | null;
  }

  export interface Pack extends Readable {
    entry(headers: Headers, callback?: (err?: Error | null) => void): Writable;
    entry(headers: Headers, buffer: string | Buffer, callback?: (err?: Error | null) => void): Writable;
    finalize(): void;
  }

  export interface Extract extends Writable {
    on(event: 'entry', listener: (headers: Headers & { size: number }, stream: Readable, next: (err?: Error) => void) => void): this;
    on(event: 'finish' | 'close', listener: () => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
  }

  export function pack(): Pack;
  export function extract(): Extract;
}
