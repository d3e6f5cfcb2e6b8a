import zlib from 'node:zlib';
import type { Request } from 'express';
import { ApiError } from './errors.ts';
import { badRequest } from '../util/errors.ts';

/**
 * A request's body as bytes, decompressed as its Content-Encoding says (gzip, deflate or none),
 * bounded before and after decompression: past either bound the request is refused (413) as
 * soon as it is known, so a small bomb never becomes a large buffer.
 */
export async function readRawBody(req: Request, limits: { maxBytes: number; maxInflatedBytes: number }): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const encoding = String(req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const inflate = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : undefined;
  if (!inflate && encoding !== 'identity' && encoding !== '') throw badRequest(`400 Bad request - the body's encoding ${encoding} is not supported`);
  return new Promise<Buffer>((resolve, reject) => {
    let received = 0;
    let inflated = 0;
    const chunks: Buffer[] = [];
    let done = false;
    const fail = (e: unknown) => {
      if (done) return;
      done = true;
      req.unpipe();
      inflate?.destroy();
      // The rest of the body is read and dropped, so the answer reaches the sender.
      req.resume();
      reject(e);
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) fail(tooLarge(limits.maxBytes));
    });
    req.on('error', fail);
    const out = inflate ?? req;
    if (inflate) {
      inflate.on('error', () => fail(badRequest('400 Bad request - the body cannot be decompressed')));
      req.pipe(inflate);
    }
    out.on('data', (chunk: Buffer) => {
      if (done) return;
      inflated += chunk.length;
      if (inflated > limits.maxInflatedBytes) return fail(tooLarge(limits.maxInflatedBytes));
      chunks.push(chunk);
    });
    out.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks));
    });
  });
}

const tooLarge = (max: number) => new ApiError(413, { message: `413 Request Entity Too Large - the body may hold at most ${max} bytes` });
