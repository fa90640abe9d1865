/**
 * A search worker's spare buffers for the rendered pages of the batches it answers on its channel:
 * buffers the coordinator sent back once it had copied every page out (src/common/page-leases.ts
 * says why). A batch takes a spare big enough for its pages, or a new buffer, sized in steps so
 * later batches fit. A batch whose pages take more than MAX_PAGE_BUFFER_BYTES gets a fresh buffer of
 * its own size (endPages), which does not go round: what a worker keeps is bounded by KEEP_PAGE_BUFFERS ×
 * MAX_PAGE_BUFFER_BYTES (8 MB), whatever one large request rendered.
 */

/** Spares kept: about the batches whose pages wait on the coordinator at once (37–42 under `_msearch` at 100 connections here). */
export const KEEP_PAGE_BUFFERS = 64;
/** The largest buffer that goes round (a full batch of 16 ten-hit pages took 35–45 KB in the benchmark). */
export const MAX_PAGE_BUFFER_BYTES = 128 * 1024;
/** Buffers are allocated in steps of this, so that one fits the batches of about the same size. */
const STEP = 16 * 1024;

const spares: ArrayBuffer[] = [];
let allocated = 0;

/** Buffers sent back by the coordinator (SearchChannelRequest.spares), for later batches. */
export function addSpares(buffers: readonly ArrayBuffer[]): void {
  for (const b of buffers) if (spares.length < KEEP_PAGE_BUFFERS && b.byteLength > 0 && b.byteLength <= MAX_PAGE_BUFFER_BYTES) spares.push(b);
}

/** A buffer for a batch's pages of `bytes` (at most MAX_PAGE_BUFFER_BYTES): the last spare that fits, or a new one. */
export function takePageBuffer(bytes: number): Uint8Array {
  for (let i = spares.length - 1; i >= 0; i--) {
    const b = spares[i];
    if (b.byteLength < bytes) continue;
    spares[i] = spares[spares.length - 1];
    spares.pop();
    return new Uint8Array(b);
  }
  allocated++;
  return new Uint8Array(new ArrayBuffer(Math.ceil(bytes / STEP) * STEP));
}

/** Spares held now, and buffers allocated so far (tests). */
export function pageBufferCounts(): { spares: number; allocated: number } {
  return { spares: spares.length, allocated };
}
