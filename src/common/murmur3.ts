/**
 * MurmurHash3 x86_32 over a byte range (Lucene StringHelper.murmurhash3_x86_32), as a signed int.
 * Reads the bytes in place: slicing hashes every `_id` of a segment, with no array per id.
 */
const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

export function murmur3x86_32(bytes: Uint8Array, from: number, to: number, seed: number): number {
  const len = to - from;
  const blocksEnd = from + (len & ~3);
  let h = seed | 0;
  let i = from;
  for (; i < blocksEnd; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = len & 3;
  if (tail > 0) {
    let k = 0;
    if (tail === 3) k ^= bytes[i + 2] << 16;
    if (tail >= 2) k ^= bytes[i + 1] << 8;
    k ^= bytes[i];
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
  }
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}
