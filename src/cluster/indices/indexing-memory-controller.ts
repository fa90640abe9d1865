/**
 * ES's IndexingMemoryController for the node: the indexing buffers of all shards (documents written
 * but not yet refreshed into segments, held as strings on the coordinator's heap) share
 * `indices.memory.index_buffer_size`.
 *
 * - Over the budget, the shards with the largest buffers are refreshed until the rest fit. Looked
 *   at after every 1/32 of the budget written, so a bulk cannot overshoot it by much.
 * - When refreshes cannot keep up — the buffers plus the documents of refreshes still building
 *   pass 1.5× the budget, ES's "now throttling indexing for shard [..]: segment writing can't keep
 *   up" — writes to the largest of those shards are throttled: a write request's response waits
 *   (after its documents are durable) until a refresh has built what it wrote, so a client with a
 *   fixed number of requests in flight sends no more meanwhile. Throttling delays, it never
 *   rejects: a load sees no error it would not see on ES (which throttles the same way). Under a
 *   quiet load the refresh interval keeps the buffers far below the limit and nothing waits.
 *
 * Before throttling, a 1M-document bulk load on a loaded 2-core machine let refreshes fall ~450k
 * documents behind (a background merge held one of the two build threads): 130–160 MB of
 * unrefreshed documents and the garbage around them were the largest part of the load's RSS peak
 * (issue 22).
 */

/** A shard as the controller sees it (cluster/indices/index-shard.ts). */
export interface BufferedShard {
  /** Estimated heap bytes of the documents buffered since the last refresh started. */
  readonly bufferedBytes: number;
  /** Estimated heap bytes of the documents a refresh in flight is building (ES's bytes "writing"). */
  readonly refreshingBytes: number;
  /** A refresh is queued or running. */
  readonly refreshing: boolean;
  /** Resolves once every write made before the call is in segments. */
  refresh(): Promise<void>;
  /** ES `indexing.is_throttled` / `throttle_time_in_millis` (shard-stats.ts). */
  readonly stats: { throttledNow: number; throttleTimeMs: number };
}

/** ES throttles indexing once buffered plus writing bytes pass this multiple of the budget. */
const THROTTLE_FACTOR = 1.5;

export class IndexingMemoryController {
  /** Buffer growth since the controller last looked. */
  private grownSinceCheck = 0;
  /** Requests whose responses wait on a throttled shard right now. */
  throttledRequests = 0;
  /** Requests that were throttled since start. */
  throttledTotal = 0;

  constructor(private readonly budgetBytes: number, private readonly shards: () => Iterable<BufferedShard>) {}

  /** Called as a shard's buffer grows: refreshes the largest buffers once the total passes the budget. */
  bufferGrew(bytes: number): void {
    this.grownSinceCheck += bytes;
    if (this.grownSinceCheck < this.budgetBytes / 32) return;
    this.grownSinceCheck = 0;
    this.refreshLargest();
  }

  private refreshLargest(): void {
    const shards = [...this.shards()].filter((s) => !s.refreshing && s.bufferedBytes > 0);
    let total = 0;
    for (const s of shards) total += s.bufferedBytes;
    shards.sort((a, b) => b.bufferedBytes - a.bufferedBytes);
    for (const s of shards) {
      if (total <= this.budgetBytes) break;
      total -= s.bufferedBytes;
      void s.refresh().catch(() => undefined);
    }
  }

  /**
   * The shards whose writes are throttled now: none while buffered plus writing bytes stay within
   * 1.5× the budget; otherwise the largest (by both) until the rest fit in the budget, as ES picks them.
   */
  throttledShards(): Set<BufferedShard> {
    const shards = [...this.shards()].filter((s) => s.bufferedBytes + s.refreshingBytes > 0);
    let total = 0;
    for (const s of shards) total += s.bufferedBytes + s.refreshingBytes;
    const throttled = new Set<BufferedShard>();
    if (total <= this.budgetBytes * THROTTLE_FACTOR) return throttled;
    shards.sort((a, b) => b.bufferedBytes + b.refreshingBytes - (a.bufferedBytes + a.refreshingBytes));
    for (const s of shards) {
      if (total <= this.budgetBytes) break;
      total -= s.bufferedBytes + s.refreshingBytes;
      throttled.add(s);
    }
    return throttled;
  }

  /**
   * Holds a write request whose documents went to `written` while any of them is throttled: a
   * refresh of those shards (queued after one in flight) is awaited, which builds everything the
   * request wrote. Never throws: the writes are durable already, and a failed refresh keeps its
   * documents buffered for the next one.
   */
  async throttle(written: Iterable<BufferedShard>): Promise<void> {
    const waiting = this.waitingOn(written);
    if (waiting.length === 0) return;
    const start = performance.now();
    this.throttledRequests++;
    this.throttledTotal++;
    for (const s of waiting) s.stats.throttledNow++;
    try {
      await Promise.all(waiting.map((s) => s.refresh()));
    } catch {
      // The refresh failed: its documents stay buffered (index-shard.ts) and the request is answered.
    } finally {
      this.throttledRequests--;
      const ms = performance.now() - start;
      for (const s of waiting) {
        s.stats.throttledNow--;
        s.stats.throttleTimeMs += ms;
      }
    }
  }

  private waitingOn(written: Iterable<BufferedShard>): BufferedShard[] {
    const throttled = this.throttledShards();
    return throttled.size === 0 ? [] : [...written].filter((s) => throttled.has(s));
  }
}
