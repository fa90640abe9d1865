/**
 * Reused buffers for the bytes of JsonPieces responses of 4–64 KB (an `_msearch`'s pages: ~30 KB for
 * ten searches of ten hits). Why: V8 counts the bytes of every ArrayBuffer allocated since the last
 * mark-compact against the old generation's limit, and starts incremental marking once what is left of
 * that limit is less than the young generation. A fresh ~30 KB buffer per `_msearch` response, on top
 * of the workers' transferred page buffers, reached that trigger before the young generation filled:
 * at 100 connections every young-generation cycle was a mark-compact instead of a scavenge (issue 19,
 * `gc-i19g`). A buffer taken from here is given back once its response has been written to the socket
 * (`finish`), so a busy server allocates none. Smaller bodies come from Node's own 8 KB pool as before,
 * and larger ones are allocated as before.
 */
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import type { JsonPieces } from '../common/json-pieces.js';

export const RESPONSE_BUFFER_BYTES = 64 * 1024;
/** Below this Buffer.allocUnsafe already cuts the bytes from Node's shared pool. */
const POOLED_BELOW = Buffer.poolSize >>> 1;
/** Free buffers kept (1 MB): responses are usually written at once, so few are out at a time. */
const KEEP = 16;

const free: Buffer[] = [];
const TAKEN = Symbol('responseBuffer');
type BufferedResponse = ServerResponse & { [TAKEN]?: Buffer };

/** The `finish` listener of every response that took a buffer (one function, no closure per response). */
function giveBack(this: BufferedResponse): void {
  const buffer = this[TAKEN];
  if (buffer === undefined) return;
  this[TAKEN] = undefined;
  if (free.length < KEEP) free.push(buffer);
}

/**
 * The bytes of `body` to send on `res`. A response whose connection closes before it finished does
 * not give its buffer back (a write may still hold it); the collector frees it then.
 */
export function responseBytes(body: JsonPieces, res: ServerResponse): Buffer {
  const bound = body.byteLengthBound();
  if (bound < POOLED_BELOW || bound > RESPONSE_BUFFER_BYTES) return body.toBuffer();
  const buffer = free.pop() ?? Buffer.allocUnsafeSlow(RESPONSE_BUFFER_BYTES);
  const length = body.writeInto(buffer);
  (res as BufferedResponse)[TAKEN] = buffer;
  res.on('finish', giveBack);
  return buffer.subarray(0, length);
}

/** Free buffers held now (tests). */
export function freeResponseBuffers(): number {
  return free.length;
}
