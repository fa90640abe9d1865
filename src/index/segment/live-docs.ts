/**
 * Live docs: a bitset per segment with a 1 for every document that is neither deleted nor
 * replaced. Segments are immutable; deletes produce a new live-docs bitset (copy-on-write) that the
 * next refresh publishes, so a search always sees one consistent point in time. `null` = all live.
 */

export type LiveDocs = Uint32Array | null;

export function bitsetWords(maxDoc: number): number {
  return (maxDoc + 31) >>> 5;
}

export function isLive(live: LiveDocs, doc: number): boolean {
  return live === null || (live[doc >>> 5] & (1 << (doc & 31))) !== 0;
}

export function getBit(bits: Uint32Array, doc: number): boolean {
  return (bits[doc >>> 5] & (1 << (doc & 31))) !== 0;
}

export function setBit(bits: Uint32Array, doc: number): void {
  bits[doc >>> 5] |= 1 << (doc & 31);
}

export function allLive(maxDoc: number, shared: boolean): Uint32Array {
  const words = bitsetWords(maxDoc);
  const bits = shared ? new Uint32Array(new SharedArrayBuffer(words * 4)) : new Uint32Array(words);
  bits.fill(0xffffffff);
  const tail = maxDoc & 31;
  if (tail !== 0) bits[words - 1] = (1 << tail) - 1;
  return bits;
}

/** A copy of `live` (or all-live) with `docs` cleared, in shared memory for the search pool. */
export function withDeletes(live: LiveDocs, maxDoc: number, docs: Iterable<number>): Uint32Array {
  const next = allLive(maxDoc, true);
  if (live !== null) next.set(live);
  for (const d of docs) next[d >>> 5] &= ~(1 << (d & 31));
  return next;
}

export function countLive(live: LiveDocs, maxDoc: number): number {
  if (live === null) return maxDoc;
  let n = 0;
  for (let i = 0; i < live.length; i++) {
    let v = live[i];
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return n;
}
