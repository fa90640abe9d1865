/**
 * A search worker's reused buffers for the rendered pages of the batches it answers on its channel
 * (src/common/page-leases.ts says why, and how the coordinator gives a slot back). Each slot is its
 * own SharedArrayBuffer, created the first time it is needed at the size its batch needs, and the
 * lowest free slot is taken, so a server that never has many batches' pages waiting touches one or
 * two (what a burst made it allocate stays: at most PAGE_SLOTS × PAGE_SLOT_BYTES, 8 MB, in the worst
 * case; 37–42 slots of 48 KB, ~2 MB, after `_msearch` at 100 connections here). A slot's state word is 0
 * while it is free and 1 from when this thread takes it until the coordinator has read out every
 * page in it: this thread only moves 0 → 1, the coordinator only 1 → 0.
 */

/**
 * Slots per worker: pages of this many batches can wait on the coordinator before batches take fresh
 * buffers. Under `_msearch` at 100 connections a request's pages wait for its slowest item: on this
 * 2-core VM, 16 slots held 80% of batches, 32 held 75–99% (the fewer the slower the server ran),
 * 64 held all (37–42 in use at most); `_search` at 100 connections used three.
 */
export const PAGE_SLOTS = 64;
/** Most bytes a slot holds (a full batch of 16 ten-hit pages took 35–45 KB in the benchmark); a larger batch takes a fresh buffer. */
export const PAGE_SLOT_BYTES = 128 * 1024;
/** A slot is allocated in steps of this, at the size its batch needs, and grows when a later batch needs more. */
const SLOT_STEP = 16 * 1024;

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

/**
 * Slot `i`'s bytes, at least `bytes` long (a view of its whole SharedArrayBuffer). A slot too small
 * for them is replaced: the coordinator's views of the old buffer, if any are left, keep it until
 * they are collected.
 */
export function pageSlot(i: number, bytes: number): Uint8Array {
  const slot = slots[i];
  if (slot !== undefined && slot.byteLength >= bytes) return slot;
  return (slots[i] = new Uint8Array(new SharedArrayBuffer(Math.ceil(bytes / SLOT_STEP) * SLOT_STEP)));
}

/** Gives a slot taken by takePageSlot back without the coordinator (its batch went no further). */
export function dropPageSlot(i: number): void {
  Atomics.store(pageSlotStates, i, 0);
}
