/**
 * The merged term dictionary of a field (Lucene's MultiTermsEnum in SegmentMerger): a k-way merge
 * of the sources' sorted dictionaries, comparing their UTF-8 bytes where they lie (byte order is
 * code-point order, the order every dictionary is in), so a merge decodes no term to a string,
 * sorts nothing and hashes nothing. For each merged term it lists the (source part, old ordinal)
 * pairs that hold it, in part order — the order their postings must be appended in.
 */
import type { StringTable } from './bytes.js';

/** One source dictionary: `offsets[i]..offsets[i + 1]` are term i's bytes. */
export interface TermDictionary {
  readonly bytes: Uint8Array;
  readonly offsets: Uint32Array;
  readonly count: number;
}

export interface TermUnion {
  readonly terms: StringTable;
  readonly termCount: number;
  /** Per part: old ordinal → merged ordinal. */
  readonly ordMaps: Int32Array[];
  /** Merged term t is held by sources entryStart[t]..entryStart[t + 1] of entryPart / entryOldOrd. */
  readonly entryStart: Uint32Array;
  readonly entryPart: Uint32Array;
  readonly entryOldOrd: Uint32Array;
}

function compareTerms(a: TermDictionary, ai: number, b: TermDictionary, bi: number): number {
  const as = a.offsets[ai];
  const al = a.offsets[ai + 1] - as;
  const bs = b.offsets[bi];
  const bl = b.offsets[bi + 1] - bs;
  const n = Math.min(al, bl);
  const ab = a.bytes;
  const bb = b.bytes;
  for (let i = 0; i < n; i++) {
    const d = ab[as + i] - bb[bs + i];
    if (d !== 0) return d;
  }
  return al - bl;
}

export function unionTerms(parts: readonly TermDictionary[]): TermUnion {
  let totalBytes = 0;
  let totalTerms = 0;
  for (const p of parts) {
    totalBytes += p.offsets[p.count] - p.offsets[0];
    totalTerms += p.count;
  }
  const bytes = new Uint8Array(totalBytes);
  const offsets = new Uint32Array(totalTerms + 1);
  const entryStart = new Uint32Array(totalTerms + 1);
  const entryPart = new Uint32Array(totalTerms);
  const entryOldOrd = new Uint32Array(totalTerms);
  const ordMaps = parts.map((p) => new Int32Array(p.count));
  const cursor = new Uint32Array(parts.length);

  // Min-heap of parts by (current term, part index): equal terms come out in part order.
  const heap: number[] = [];
  const less = (x: number, y: number) => {
    const c = compareTerms(parts[x], cursor[x], parts[y], cursor[y]);
    return c < 0 || (c === 0 && x < y);
  };
  const siftDown = (i: number) => {
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const c = l + 1 < n && less(heap[l + 1], heap[l]) ? l + 1 : l;
      if (!less(heap[c], heap[i])) return;
      [heap[c], heap[i]] = [heap[i], heap[c]];
      i = c;
    }
  };
  parts.forEach((p, i) => {
    if (p.count > 0) heap.push(i);
  });
  for (let i = (heap.length >>> 1) - 1; i >= 0; i--) siftDown(i);

  let count = 0;
  let pos = 0;
  let entries = 0;
  let lastPart = -1;
  let lastOrd = 0;
  while (heap.length > 0) {
    const p = heap[0];
    const part = parts[p];
    const ord = cursor[p];
    if (count === 0 || compareTerms(parts[lastPart], lastOrd, part, ord) !== 0) {
      entryStart[count] = entries;
      offsets[count] = pos;
      const start = part.offsets[ord];
      const end = part.offsets[ord + 1];
      bytes.set(part.bytes.subarray(start, end), pos);
      pos += end - start;
      count++;
    }
    lastPart = p;
    lastOrd = ord;
    ordMaps[p][ord] = count - 1;
    entryPart[entries] = p;
    entryOldOrd[entries] = ord;
    entries++;
    if (++cursor[p] === part.count) {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    if (heap.length > 0) siftDown(0);
  }
  offsets[count] = pos;
  entryStart[count] = entries;
  return {
    terms: { bytes: bytes.subarray(0, pos), offsets: offsets.subarray(0, count + 1) },
    termCount: count,
    ordMaps,
    entryStart: entryStart.subarray(0, count + 1),
    entryPart,
    entryOldOrd,
  };
}

/** The strings `keep` (ascending indexes) of a table, as a new table. */
export function selectStrings(table: StringTable, keep: readonly number[]): StringTable {
  let total = 0;
  for (const t of keep) total += table.offsets[t + 1] - table.offsets[t];
  const bytes = new Uint8Array(total);
  const offsets = new Uint32Array(keep.length + 1);
  let pos = 0;
  keep.forEach((t, i) => {
    offsets[i] = pos;
    bytes.set(table.bytes.subarray(table.offsets[t], table.offsets[t + 1]), pos);
    pos += table.offsets[t + 1] - table.offsets[t];
  });
  offsets[keep.length] = pos;
  return { bytes, offsets };
}
