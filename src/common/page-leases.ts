/**
 * The coordinator's leases on search workers' page slots (workers/page-slots.ts). A search worker
 * writes a batch's rendered pages into one of its few reused SharedArrayBuffer slots instead of a
 * fresh ArrayBuffer it transfers. Why: V8 (Node 20) counts every ArrayBuffer byte allocated since the
 * last mark-compact against the old generation's limit, and a transferred page buffer is allocated
 * on the coordinator's isolate; under `_msearch` at 100 connections those buffers, the ones a slow
 * request holds long enough to be promoted above all, started a mark-compact every 1–1.5 s where
 * scavenges would do (issue 19, `gc-i19g`, `gc-i19ring`). A shared backing store counts 0 bytes.
 *
 * A slot is the worker's again (its state word back to 0) once every page in it has been read out:
 * `releasePage` is called by whatever copies a page's bytes (JsonPieces, when the response is
 * written or turned into text). A page nobody reads — its request failed, timed out or its
 * connection closed — is released when the collector finds the batch's buffer unreachable (a
 * FinalizationRegistry on the message's own SharedArrayBuffer object, which every view of the batch
 * holds). So what a lost request pins is at most its slot, until the next collection that finds it,
 * and while a worker has no free slot it falls back to a fresh buffer as before.
 *
 * A page must be read once: after `releasePage` the slot may be rewritten by the worker.
 */

interface Lease {
  /** The worker's slot states (one Int32 per slot: 0 free, 1 the coordinator's). */
  readonly states: Int32Array;
  readonly slot: number;
  /** Pages not yet read out; the slot goes back at 0. */
  remaining: number;
}

/** Each leased page (a view of a slot) → its batch's lease; removed when the page is read out. */
const leased = new WeakMap<Uint8Array, Lease>();
/** Leases whose slot has not gone back yet (tests, and the bound on what is pinned). */
let open = 0;

function giveBack(lease: Lease): void {
  lease.remaining = 0;
  open--;
  Atomics.store(lease.states, lease.slot, 0);
}

/** The backstop for pages nobody read: the batch's buffer object was collected. */
const unreachable = new FinalizationRegistry<Lease>((lease) => {
  if (lease.remaining > 0) giveBack(lease);
});

/**
 * Leases `pages`, the views of one batch's slot `slot` (`holder`: the SharedArrayBuffer object the
 * message carried, which every view references; not referenced by the lease, so it can be collected).
 */
export function leasePages(holder: SharedArrayBuffer, states: Int32Array, slot: number, pages: readonly Uint8Array[]): void {
  if (pages.length === 0) {
    Atomics.store(states, slot, 0);
    return;
  }
  const lease: Lease = { states, slot, remaining: pages.length };
  open++;
  for (const p of pages) leased.set(p, lease);
  unreachable.register(holder, lease);
}

/** `page` has been copied out (a no-op for a page that is not leased, or already released). */
export function releasePage(page: Uint8Array): void {
  const lease = leased.get(page);
  if (lease === undefined) return;
  leased.delete(page);
  if (--lease.remaining === 0) giveBack(lease);
}

/** Slots leased and not yet given back, over every worker. */
export function openPageLeases(): number {
  return open;
}
