/**
 * The node's indexing memory controller (cluster/indices/indexing-memory-controller.ts): refreshes
 * the largest buffers past `indices.memory.index_buffer_size`, and holds write requests to the
 * largest shards while buffered plus refreshing bytes pass 1.5× the budget — until a refresh has
 * built what they wrote — as ES throttles indexing when segment writing cannot keep up.
 */
import { describe, expect, it } from 'vitest';
import { IndexingMemoryController, type BufferedShard } from '../../src/cluster/indices/indexing-memory-controller.js';

/** A shard whose refreshes end only when the test finishes them; like IndexShard, one more is queued behind a running one. */
class FakeShard implements BufferedShard {
  bufferedBytes = 0;
  refreshingBytes = 0;
  refreshes = 0;
  readonly stats = { throttledNow: 0, throttleTimeMs: 0 };
  private running: { done: Promise<void>; resolve: () => void } | null = null;
  private queued: { done: Promise<void>; resolve: () => void } | null = null;

  constructor(readonly name: string) {}

  get refreshing(): boolean {
    return this.running !== null;
  }

  write(bytes: number): void {
    this.bufferedBytes += bytes;
  }

  refresh(): Promise<void> {
    if (this.running) return (this.queued ??= deferred()).done;
    this.start(deferred());
    return this.running!.done;
  }

  private start(d: { done: Promise<void>; resolve: () => void }): void {
    this.refreshes++;
    this.refreshingBytes = this.bufferedBytes;
    this.bufferedBytes = 0;
    this.running = d;
  }

  /** The running refresh publishes; a queued one starts. */
  finish(): void {
    const done = this.running!;
    this.refreshingBytes = 0;
    this.running = null;
    if (this.queued) {
      this.start(this.queued);
      this.queued = null;
    }
    done.resolve();
  }
}

function deferred(): { done: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  return { done, resolve };
}

const BUDGET = 3200;

function controllerOf(...shards: FakeShard[]): IndexingMemoryController {
  return new IndexingMemoryController(BUDGET, () => shards);
}

/** Whether `p` has settled after the microtasks queued so far ran. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('IndexingMemoryController', () => {
  it('refreshes the largest buffers once the total passes the budget', () => {
    const big = new FakeShard('big');
    const small = new FakeShard('small');
    const c = controllerOf(big, small);
    small.write(1000);
    c.bufferGrew(1000);
    big.write(2500);
    c.bufferGrew(2500);
    expect(big.refreshes).toBe(1);
    // What is left (1000 bytes) fits: the small shard keeps buffering.
    expect(small.refreshes).toBe(0);
  });

  it('does not throttle while buffered plus refreshing bytes stay within 1.5x the budget', async () => {
    const shard = new FakeShard('a');
    const c = controllerOf(shard);
    shard.write(3000);
    void shard.refresh(); // 3000 bytes building
    shard.write(1500); // 4500 = 1.4x
    expect(c.throttledShards().size).toBe(0);
    expect(await settled(c.throttle([shard]))).toBe(true);
    expect(c.throttledTotal).toBe(0);
  });

  it('holds a write to a shard whose refreshes fell behind until a refresh built it', async () => {
    const shard = new FakeShard('a');
    const c = controllerOf(shard);
    shard.write(3000);
    void shard.refresh();
    shard.write(2000); // 5000 bytes buffered + building: past 4800
    const held = c.throttle([shard]);
    expect(await settled(held)).toBe(false);
    expect(c.throttledRequests).toBe(1);
    expect(shard.stats.throttledNow).toBe(1);
    // The refresh in flight ends; the one the request queued has not built its documents yet.
    shard.finish();
    expect(await settled(held)).toBe(false);
    expect(shard.refreshingBytes).toBe(2000);
    shard.finish();
    expect(await settled(held)).toBe(true);
    expect(c.throttledRequests).toBe(0);
    expect(c.throttledTotal).toBe(1);
    expect(shard.stats.throttledNow).toBe(0);
  });

  it('asks for a refresh when the throttled shard has none in flight', async () => {
    const shard = new FakeShard('a');
    const c = controllerOf(shard);
    shard.write(6000);
    const held = c.throttle([shard]);
    expect(shard.refreshes).toBe(1);
    expect(shard.refreshingBytes).toBe(6000);
    expect(await settled(held)).toBe(false);
    shard.finish();
    expect(await settled(held)).toBe(true);
  });

  it('throttles only the largest shards, not a write to a small one', async () => {
    const big = new FakeShard('big');
    const small = new FakeShard('small');
    const c = controllerOf(big, small);
    big.write(5000);
    small.write(300);
    expect([...c.throttledShards()]).toEqual([big]);
    expect(await settled(c.throttle([small]))).toBe(true);
    const held = c.throttle([small, big]);
    expect(await settled(held)).toBe(false);
    big.finish();
    expect(await settled(held)).toBe(true);
  });

  it('answers the request when the refresh it waits on fails', async () => {
    const shard: BufferedShard = {
      bufferedBytes: 9000, refreshingBytes: 0, refreshing: false, refresh: () => Promise.reject(new Error('build failed')), stats: { throttledNow: 0, throttleTimeMs: 0 },
    };
    const c = new IndexingMemoryController(BUDGET, () => [shard]);
    await expect(c.throttle([shard])).resolves.toBeUndefined();
    expect(c.throttledRequests).toBe(0);
  });

  it('never throttles without a budget', async () => {
    const shard = new FakeShard('a');
    const c = new IndexingMemoryController(Infinity, () => [shard]);
    shard.write(1e12);
    expect(await settled(c.throttle([shard]))).toBe(true);
  });
});
