/**
 * Buffers a response holds until its bytes have been written: the reused response buffer
 * (response-buffers.ts), a bulk response's chunks (json-chunks.ts) and its request body
 * (body-reader.ts). Each goes back to its free list on the response's `finish`, which Node emits
 * only once the last write has been handed to the socket. A response whose connection closes first
 * gives nothing back (a write may still hold the bytes); the collector frees them then.
 *
 * One shared `finish` listener per response and no closure: what to release is kept on the response
 * as (release, value) pairs.
 */
import type { ServerResponse } from 'node:http';

const HELD = Symbol('heldUntilWritten');
type HoldingResponse = ServerResponse & { [HELD]?: unknown[] };

function releaseHeld(this: HoldingResponse): void {
  const held = this[HELD];
  if (held === undefined) return;
  this[HELD] = undefined;
  for (let i = 0; i < held.length; i += 2) (held[i] as (value: unknown) => void)(held[i + 1]);
}

/** Calls `release(value)` once `res` has been written (`finish`); never if its connection closes first. */
export function releaseWhenWritten<T>(res: ServerResponse, release: (value: T) => void, value: T): void {
  const holding = res as HoldingResponse;
  const held = holding[HELD];
  if (held !== undefined) {
    held.push(release, value);
    return;
  }
  holding[HELD] = [release, value];
  res.on('finish', releaseHeld);
}
