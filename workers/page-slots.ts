/**
 * A search worker's reused buffers for the rendered pages of the batches it answers on its channel
 * (src/common/page-leases.ts says why, and how the coordinator gives a slot back). Each slot is its
 * own SharedArrayBuffer, created the first time it is needed, and the lowest free slot is taken, so
 * a server that never has many batches' pages waiting touches one or two. A slot's state word is 0
 * while it is free and 1 from when this thread takes it until the coordinator has read out every
 * page in it: this thread only moves 0 → 1, the coordinator only 1 → 0.
 */

/**
 * Slots per worker: pages of this many batches can wait on the coordinator before batches take fresh
 * buffers. `_msearch` at 100 connections (a request's pages wait for its slowest item) found a free
 * slot for 80% of batches with 16, 99% with 32; `_search` at 100 connections used three.
 */
export const PAGE_SLOTS = 32;
/** A slot's bytes: a full batch (16 searches) of ten-hit pages of ~3 KB documents' `_source`s. */
export const PAGE_SLOT_BYTES = 64 * 1024;

/** The slots' states, shared with the coordinator (SearchPortAnnouncement.pageSlots). */
export const pageSlotStates = new Int32Array(new SharedArrayBuffer(PAGE_SLOTS * Int32Array.BYTES_PER_ELEMENT));

const slots: Array<Uint8Array | undefined> = new Array(PAGE_SLOTS);

/** The lowest free slot, now taken, for a batch whose pages take `bytes`; −1 when none is free or they do not fit. */
export function takePageSlot(bytes: number): number {
  if (bytes > PAGE_SLOT_BYTES) return -1;
  for (let i = 0; i < PAGE_SLOTS; i++) {
    if (Atomics.load(pageSlotStates, i) !== 0) continue;
    Atomics.store(pageSlotStates, i, 1);
    return i;
  }
  return -1;
}

/** Slot `i`'s bytes (a view of its whole SharedArrayBuffer). */
export function pageSlot(i: number): Uint8Array {
  return (slots[i] ??= new Uint8Array(new SharedArrayBuffer(PAGE_SLOT_BYTES)));
}

/** Gives a slot taken by takePageSlot back without the coordinator (its batch went no further). */
export function dropPageSlot(i: number): void {
  Atomics.store(pageSlotStates, i, 0);
}
