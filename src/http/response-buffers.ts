/**
 * Reused buffers for the bytes of JsonPieces responses of 8–64 KB (an `_msearch`'s pages: ~20–40 KB for
 * ten searches of ten hits). Why: V8 counts the bytes of every ArrayBuffer allocated since the last
 * mark-compact against the old generation's limit, and starts incremental marking once what is left of
 * that limit is less than the young generation. A fresh ~30 KB buffer per `_msearch` response, on top
 * of the workers' transferred page buffers, reached that trigger before the young generation filled:
 * at 100 connections every young-generation cycle was a mark-compact instead of a scavenge (issue 19,
 * `gc-i19g`). A buffer taken from here is given back once its response has been written to the socket
 * (`finish`), so a busy server allocates none. Smaller bodies (one search's page: 1.7–3.9 KB in the
 * benchmark) and larger ones are allocated as before: a `_search` allocates ~20 KB of heap per request,
 * so its young generation fills, and frees its buffers, well before that trigger.
 */
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import type { JsonPieces } from '../common/json-pieces.js';
import { releaseWhenWritten } from './release-when-written.js';

export const RESPONSE_BUFFER_BYTES = 64 * 1024;
/** Up to this a body is allocated as before (from Node's 8 KB pool below 4 KB): every `_search` page. */
const OWN_BUFFER_ABOVE = 8 * 1024;
/** Free buffers kept (1 MB): responses are usually written at once, so few are out at a time. */
const KEEP = 16;

const free: Buffer[] = [];

function giveBack(buffer: Buffer): void {
  if (free.length < KEEP) free.push(buffer);
}

/**
 * The bytes of `body` to send on `res`. A response whose connection closes before it finished does
 * not give its buffer back (a write may still hold it); the collector frees it then.
 */
export function responseBytes(body: JsonPieces, res: ServerResponse): Buffer {
  const bound = body.byteLengthBound();
  if (bound <= OWN_BUFFER_ABOVE || bound > RESPONSE_BUFFER_BYTES) return body.toBuffer();
  const buffer = free.pop() ?? Buffer.allocUnsafeSlow(RESPONSE_BUFFER_BYTES);
  const length = body.writeInto(buffer);
  releaseWhenWritten(res, giveBack, buffer);
  return buffer.subarray(0, length);
}

/** Free buffers held now (tests). */
export function freeResponseBuffers(): number {
  return free.length;
}

/** Lets every free buffer go to the collector (free-buffers.ts). */
export function dropFreeResponseBuffers(): void {
  free.length = 0;
}
