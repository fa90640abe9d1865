/**
 * The docs of one slice in one segment (ES SliceQuery): a doc belongs to slice `id` of `max` when
 * floorMod(key, max) = id. Every key is a function of the document alone — never of the shard or
 * the segment it sits in — so the slices partition the hits the same way whatever the number of
 * shards (cluster/search/search-slice.ts says why this departs from ES's per-shard assignment).
 *
 * - `id`: murmur3_x86_32 (seed 7919) of the `_id`'s bytes, as ES's TermsSliceQuery hashes the
 *   `_id` terms (ES hashes its binary-encoded `_id` term, so the slice a given id falls in differs).
 * - `index_order`: the index-wide write order (unique per document) — a point in time's default.
 * - doc values (ES DocValuesSliceQuery): each value's long bits (a long as it is, a double or
 *   float as its sortable bits) through hppc's BitMixer.mix(long) = (int) mix64; a doc belongs to
 *   every slice one of its values falls in, and a doc without a value to slice 0 (contains(0)).
 */
import type { Segment } from '../../index/index.js';
import murmur from 'murmurhash3js-revisited';
import type { SliceExec } from '../plan/exec-nodes.js';

/** ES TermsSliceQuery.SEED. */
const TERMS_SLICE_SEED = 7919;

/**
 * The library's hash reads a whole array: each `_id`'s bytes are copied into a reused view of their
 * length (ids are at most 512 bytes) rather than viewed in place, so slicing a segment makes no
 * object per document.
 */
const ID_SCRATCH_BYTES = 2048;
const idScratch = new Uint8Array(ID_SCRATCH_BYTES);
const idViews: Array<Uint8Array | undefined> = [];

function idHash(bytes: Uint8Array, from: number, to: number): number {
  const n = to - from;
  const view = n <= ID_SCRATCH_BYTES ? (idViews[n] ??= idScratch.subarray(0, n)) : new Uint8Array(n);
  for (let i = 0; i < n; i++) view[i] = bytes[from + i];
  return murmur.x86.hash32(view, TERMS_SLICE_SEED) | 0;
}

function floorMod(v: number, max: number): number {
  const m = v % max;
  return m < 0 ? m + max : m;
}

/** Sets the bit of every doc of `segment` in the slice `exec` names. */
export function addSliceDocs(words: Uint32Array, exec: SliceExec, segment: Segment): void {
  const { id, max } = exec;
  const maxDoc = segment.maxDoc;
  const set = (doc: number) => {
    words[doc >>> 5] |= 1 << (doc & 31);
  };
  if (exec.by === 'id') {
    const ids = segment.ids;
    const bytes = ids.bytes;
    for (let doc = 0; doc < maxDoc; doc++) {
      if (floorMod(idHash(bytes, ids.start(doc), ids.start(doc + 1)), max) === id) set(doc);
    }
    return;
  }
  if (exec.by === 'index_order') {
    for (let doc = 0; doc < maxDoc; doc++) if (floorMod(segment.indexOrder.get(doc), max) === id) set(doc);
    return;
  }
  const field = exec.field === null ? undefined : segment.fields.get(exec.field);
  const offsets = field?.docValueOffsets ?? null;
  const numbers = field?.docValueNumbers ?? null;
  for (let doc = 0; doc < maxDoc; doc++) {
    if (offsets === null || numbers === null || offsets[doc] === offsets[doc + 1]) {
      if (id === 0) set(doc);
      continue;
    }
    for (let i = offsets[doc]; i < offsets[doc + 1]; i++) {
      if (floorMod(mix(longBits(exec.by, numbers[i])), max) === id) {
        set(doc);
        break;
      }
    }
  }
}

const scratch = new DataView(new ArrayBuffer(8));

/** The long a doc value is stored as in Lucene: a long as it is; a double or float as its sortable bits (NumericUtils). */
function longBits(by: SliceExec['by'], v: number): bigint {
  if (by === 'long') return BigInt(Math.trunc(v));
  if (by === 'float') {
    scratch.setFloat32(0, v);
    const bits = scratch.getInt32(0);
    return BigInt(bits ^ ((bits >> 31) & 0x7fffffff));
  }
  scratch.setFloat64(0, v);
  const bits = scratch.getBigInt64(0);
  return bits ^ ((bits >> 63n) & 0x7fffffffffffffffn);
}

const MASK64 = 0xffffffffffffffffn;

/** hppc BitMixer.mix(long): (int) mix64, David Stafford's variant 9. */
function mix(value: bigint): number {
  let z = BigInt.asUintN(64, value);
  z = ((z ^ (z >> 32n)) * 0x4cd6944c5cc20b6dn) & MASK64;
  z = ((z ^ (z >> 29n)) * 0xfc12c5b19d3259e9n) & MASK64;
  z ^= z >> 32n;
  return Number(BigInt.asIntN(32, z));
}
