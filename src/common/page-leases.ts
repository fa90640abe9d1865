/**
 * The coordinator's leases on search workers' page buffers, which go back to their worker to be
 * reused (workers/page-buffers.ts). A search worker renders a batch's pages into one buffer and
 * transfers it; the coordinator copies each page into its response. Why not a fresh buffer each
 * time: V8 (Node 20) counts the bytes of every ArrayBuffer that arrives on the coordinator's
 * isolate against the old generation's limit until the next mark-compact, unless the buffer is
 * freed or moved away first; under `_msearch` at 100 connections the page buffers, those a slow
 * request holds long enough to be promoted above all, started a mark-compact every 1–1.5 s where
 * scavenges would do (issue 19, `gc-i19g`, `gc-i19ring`). A buffer transferred back is detached
 * here, which takes its bytes off that count at once, and the worker writes later batches into it.
 *
 * A batch's buffer goes back once every page in it has been read out: `releasePage` is called by
 * whatever copies a page's bytes (JsonPieces, when the response is written or turned into text). A
 * buffer with a page nobody reads — its request failed or timed out, its connection closed — is
 * never given back: the collector frees it with its lease, and the worker allocates another. So
 * nothing is pinned for a slow or lost client beyond what today's fresh buffer would be.
 *
 * A page must be read once: after `releasePage` its buffer may be detached (sent back) at any time.
 */

interface Lease {
  /** Where the buffer goes once read out: its channel's list of buffers to send back (at most `keep`). */
  readonly home: ArrayBuffer[];
  readonly keep: number;
  /** Pages not yet read out. */
  remaining: number;
  /** Where each page not yet read out starts in the buffer (−1 once read): a page is counted once. */
  readonly unread: number[];
}

/**
 * The lease of a batch, on the ArrayBuffer its message carried (every view of the batch has it as
 * its `buffer`): one property read per page, and nothing that outlives the buffer.
 */
const LEASE = Symbol('pageLease');
type Leased = ArrayBuffer & { [LEASE]?: Lease };

/** Buffers read out and handed back to their channel (tests). */
let returned = 0;

/**
 * Leases `pages`, the views of one batch's `buffer`: once all are read out, `buffer` is pushed onto
 * `home` (its channel sends it back with the next batch) unless `home` holds `keep` already.
 */
export function leasePages(buffer: ArrayBuffer, pages: readonly Uint8Array[], home: ArrayBuffer[], keep: number): void {
  if (pages.length === 0) return;
  const unread = new Array<number>(pages.length);
  for (let i = 0; i < pages.length; i++) unread[i] = pages[i].byteOffset;
  (buffer as Leased)[LEASE] = { home, keep, remaining: pages.length, unread };
}

/** `page` has been copied out (a no-op for a page that is not leased, or already released). */
export function releasePage(page: Uint8Array): void {
  const buffer = page.buffer as Leased;
  const lease = buffer[LEASE];
  if (lease === undefined || lease.remaining === 0) return;
  const i = lease.unread.indexOf(page.byteOffset);
  if (i < 0) return;
  lease.unread[i] = -1;
  if (--lease.remaining > 0) return;
  buffer[LEASE] = undefined;
  if (lease.home.length < lease.keep) {
    lease.home.push(buffer);
    returned++;
  }
}

/** Buffers handed back to their channel so far (tests). */
export function returnedPageBuffers(): number {
  return returned;
}
