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
import murmur from 'murmurhash3js-revisited';

/**
 * The UTF-16 bytes of the routing string being hashed, and views of its first n bytes by n: the
 * hash runs once per written document, and a byte array per call was ~0.2 KB of the coordinator's
 * young generation per document (issue 22). Routing strings longer than the scratch (ids are at
 * most 512 bytes) get their own array.
 */
const SCRATCH_BYTES = 2048;
const scratch = new Uint8Array(SCRATCH_BYTES);
const views: Array<Uint8Array | undefined> = [];

/** ES `Murmur3HashFunction.hash(String)` as a signed 32-bit int. */
export function esMurmur3(routing: string): number {
  const n = routing.length * 2;
  const bytes = n <= SCRATCH_BYTES ? (views[n] ??= scratch.subarray(0, n)) : new Uint8Array(n);
  for (let i = 0; i < routing.length; i++) {
    const c = routing.charCodeAt(i);
    bytes[i * 2] = c & 0xff;
    bytes[i * 2 + 1] = c >>> 8;
  }
  return murmur.x86.hash32(bytes, 0) | 0;
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
