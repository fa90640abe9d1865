/**
 * Reading a request body off its stream: what fastify's `parseAs: 'buffer'` does (the same limits,
 * errors and Content-Length check), except that a large uncompressed NDJSON body (`_bulk`) is copied
 * into a reused buffer instead of a fresh one. Why: V8 counts every ArrayBuffer byte allocated since
 * the last mark-compact against the old generation's limit and starts incremental marking once what
 * is left of it is less than the young generation. A 5,000-doc `_bulk` brought ~2.4 MB of ArrayBuffers
 * to the coordinator — Node's own copy of each socket read (~1.2 MB, unavoidable) and fastify's
 * concatenation of them (~1.2 MB, a fresh mapping under the server's malloc settings) — and with its
 * response chunks those bytes, not the heap, started most of its mark-compacts (issue 19, `gc-i19bulk`).
 *
 * A buffer taken here belongs to the request's NdjsonBody until its response has been written to the
 * socket (`releaseBodyOnFinish`): the `_bulk` handler reads its lines lazily, up to its last write. A
 * request whose connection closes first, or that fails before its handler answers, does not give it
 * back (the collector frees it).
 */
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';
import { releaseWhenWritten } from './release-when-written.js';

/** Bodies below this are read as before (a concatenation of Node's chunks): `_msearch`, small bulks. */
export const POOLED_BODY_MIN_BYTES = 256 * 1024;
/** Bodies above this too: holding buffers for them between requests would cost more RSS than it saves. */
export const POOLED_BODY_MAX_BYTES = 8 * 1024 * 1024;
/** Buffers are sized in steps of this, so bodies of about one size share them. */
const POOLED_BODY_STEP = 256 * 1024;
/** Free buffers kept: two `_bulk` requests in flight, and a little slack; at most KEEP_BYTES in all. */
const KEEP = 4;
const KEEP_BYTES = 8 * 1024 * 1024;

const free: Buffer[] = [];

/** A free buffer that holds `length` bytes (the smallest that does), or a new one. */
function takeBodyBuffer(length: number): Buffer {
  let best = -1;
  for (let i = 0; i < free.length; i++) {
    if (free[i].length >= length && (best < 0 || free[i].length < free[best].length)) best = i;
  }
  if (best < 0) return Buffer.allocUnsafeSlow(Math.ceil(length / POOLED_BODY_STEP) * POOLED_BODY_STEP);
  const buffer = free[best];
  free[best] = free[free.length - 1];
  free.pop();
  return buffer;
}

/**
 * Gives a buffer from takeBodyBuffer back. Past KEEP buffers or KEEP_BYTES the smallest ones go (the
 * collector frees them): a large buffer serves small bodies too.
 */
export function giveBodyBuffer(buffer: Buffer): void {
  // Given back twice, it would be handed to two bodies at once.
  if (free.includes(buffer)) return;
  free.push(buffer);
  let bytes = freeBodyBufferBytes();
  while (free.length > KEEP || (bytes > KEEP_BYTES && free.length > 0)) {
    let smallest = 0;
    for (let i = 1; i < free.length; i++) if (free[i].length < free[smallest].length) smallest = i;
    bytes -= free[smallest].length;
    free[smallest] = free[free.length - 1];
    free.pop();
  }
}

/** Bytes of the free body buffers held now (tests). */
export function freeBodyBufferBytes(): number {
  let bytes = 0;
  for (let i = 0; i < free.length; i++) bytes += free[i].length;
  return bytes;
}

/** Free body buffers held now (tests). */
export function freeBodyBuffers(): number {
  return free.length;
}

/** Lets every free body buffer go to the collector (free-buffers.ts, tests). */
export function dropFreeBodyBuffers(): void {
  free.length = 0;
}

type Payload = Readable & { receivedEncodedLength?: number };

/**
 * Reads `payload` (the request, or the stream a preParsing hook put in its place) to its end and
 * calls `done` with its bytes — in a reused buffer (`pooled`, the whole buffer to give back) when
 * `reuse` and the body is sent as it is with a Content-Length of POOLED_BODY_MIN_BYTES to
 * POOLED_BODY_MAX_BYTES. Errors as fastify's: 413 past `limit` (stated or received), 400 for a body
 * that does not match its Content-Length, 400 for a stream error without a status.
 */
export function readBody(
  req: FastifyRequest, payload: Payload, limit: number, reuse: boolean,
  done: (error: Error | null, bytes: Buffer | null, pooled: Buffer | null) => void,
): void {
  const contentLength = Number(req.headers['content-length']);
  if (contentLength > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), null, null);
    return;
  }
  let into: Buffer | null = reuse && payload === req.raw && contentLength >= POOLED_BODY_MIN_BYTES && contentLength <= POOLED_BODY_MAX_BYTES
    ? takeBodyBuffer(contentLength)
    : null;
  const chunks: Buffer[] = [];
  let received = 0;
  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  const fail = (error: Error) => {
    if (into !== null) giveBodyBuffer(into);
    into = null;
    done(error, null, null);
  };
  function onData(chunk: Buffer | string): void {
    // A preParsing stream may emit strings.
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const at = received;
    received += bytes.length;
    // The body once inflated must not pass the limit either (a "zip bomb").
    if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      stop();
      fail(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    if (into === null) chunks.push(bytes);
    // More than the Content-Length stated fails at the end; nothing past the buffer is copied.
    else if (received <= into.length) bytes.copy(into, at);
  }
  function onEnd(error?: Error & { statusCode?: number }): void {
    stop();
    if (error != null) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      fail(error);
      return;
    }
    if (!Number.isNaN(contentLength) && (payload.receivedEncodedLength || received) !== contentLength) {
      fail(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    if (into !== null) done(null, into.subarray(0, received), into);
    else done(null, Buffer.concat(chunks, received), null);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

/** Gives `buffer` back once `res` has been written to the socket: its request is answered by then. */
export function releaseBodyOnFinish(buffer: Buffer, res: ServerResponse): void {
  releaseWhenWritten(res, giveBodyBuffer, buffer);
}
