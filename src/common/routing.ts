/**
 * Document routing exactly as Elasticsearch does it, so a document lands on the same shard number
 * here as on a real ES cluster with the same `number_of_shards` (users move between the two).
 *
 * ES: `OperationRouting.calculateScaledShardId`: `floorMod(Murmur3HashFunction.hash(routing),
 * routingNumShards) / routingFactor`, where the routing string is hashed as its UTF-16 code units
 * in little-endian byte order (`Murmur3HashFunction.hash(String)`), murmur3_x86_32 with seed 0, read
 * as a signed int. `routingNumShards` defaults to `numShards × 2^k` ≤ 1024
 * (`MetadataCreateIndexService.calculateNumRoutingShards`).
 */
/**
 * ES `Murmur3HashFunction.hash(String)` as a signed 32-bit int: murmur3_x86_32 (seed 0) over the
 * string's UTF-16 code units as little-endian bytes, read straight from the string — two code units
 * are one 4-byte block — rather than from a byte array made for each call (once per written
 * document: ~0.2 KB of the coordinator's young generation each, issue 22).
 */
export function esMurmur3(routing: string): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const units = routing.length;
  let h = 0;
  let i = 0;
  for (; i + 1 < units; i += 2) {
    let k = routing.charCodeAt(i) | (routing.charCodeAt(i + 1) << 16);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (i < units) {
    // The last code unit alone: a 2-byte tail.
    let k = routing.charCodeAt(i);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= units * 2;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** ES 7+ default `index.number_of_routing_shards` for an index with `numShards` shards. */
export function defaultRoutingNumShards(numShards: number): number {
  const log2MaxNumShards = 10; // log2(1024)
  const log2NumShards = 32 - Math.clz32(numShards - 1); // ceil(log2(numShards))
  const numSplits = Math.max(1, log2MaxNumShards - log2NumShards);
  return numShards * 2 ** numSplits;
}

/** The shard a document with this routing value (its `_id` unless `routing` is given) belongs to. */
export function shardForRouting(routing: string, numShards: number, routingNumShards = defaultRoutingNumShards(numShards)): number {
  const hash = esMurmur3(routing);
  const mod = ((hash % routingNumShards) + routingNumShards) % routingNumShards; // Java floorMod
  return Math.floor(mod / (routingNumShards / numShards));
}
