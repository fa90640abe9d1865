/**
 * The coordinator's idle collection (cluster/idle-collector.ts): full GCs in every thread only once
 * segment work has stopped — a build or merge in flight holds it off however long it runs, since a
 * forced GC mid-load deoptimizes the threads' hot code (issue 19).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DROPPED_BYTES_BEFORE_GC, IdleCollector } from '../../src/cluster/idle-collector.js';

const IDLE = 100;
const SHRINK = 300;

describe('IdleCollector', () => {
  let asked = 0;
  let collected = 0;
  let trimmed = 0;
  let collector: IdleCollector;

  beforeEach(() => {
    vi.useFakeTimers();
    asked = 0;
    collected = 0;
    trimmed = 0;
    collector = new IdleCollector(() => {
      asked++;
    }, { idleMs: IDLE, shrinkMs: SHRINK, collectHere: () => collected++, releaseHeap: () => trimmed++ });
  });
  afterEach(() => {
    collector.close();
    vi.useRealTimers();
  });

  it('collects in every thread once no segment work has ended for the idle time', () => {
    collector.begin();
    collector.end();
    vi.advanceTimersByTime(IDLE - 1);
    expect(collected).toBe(0);
    vi.advanceTimersByTime(1);
    expect([asked, collected]).toEqual([1, 1]);
    vi.advanceTimersByTime(SHRINK - 1);
    expect(collected).toBe(1);
  });

  it('drops the free lists it is given just before this thread collects', () => {
    const order: string[] = [];
    const c = new IdleCollector(() => void order.push('workers'), {
      idleMs: IDLE, shrinkMs: SHRINK, collectHere: () => void order.push('collect'), releaseCaches: () => void order.push('caches'),
    });
    c.begin();
    c.end();
    vi.advanceTimersByTime(IDLE);
    expect(order).toEqual(['workers', 'caches', 'collect']);
    c.close();
  });

  it('collects once more a while after the idle collection (V8 shrinks young generations only then), and no more', () => {
    collector.begin();
    collector.end();
    vi.advanceTimersByTime(IDLE + SHRINK);
    expect([asked, collected]).toEqual([2, 2]);
    vi.advanceTimersByTime(SHRINK * 10);
    expect([asked, collected]).toEqual([2, 2]);
  });

  it('segment work resuming after the idle collection cancels the second one', () => {
    collector.begin();
    collector.end();
    vi.advanceTimersByTime(IDLE);
    expect(collected).toBe(1);
    collector.begin();
    vi.advanceTimersByTime(SHRINK * 2);
    expect(collected).toBe(1);
    collector.end();
    vi.advanceTimersByTime(IDLE + SHRINK);
    expect(collected).toBe(3);
  });

  it('waits for a build or merge in flight however long it runs (a long merge is not idleness)', () => {
    collector.begin(); // a merge
    collector.begin(); // a build
    collector.end(); // the build ends
    vi.advanceTimersByTime(IDLE * 10);
    expect(collected).toBe(0);
    collector.end(); // the merge ends
    vi.advanceTimersByTime(IDLE);
    expect(collected).toBe(1);
  });

  it('a build starting while the timer runs holds the collection off until it ends', () => {
    collector.begin();
    collector.end();
    vi.advanceTimersByTime(IDLE / 2);
    collector.begin();
    vi.advanceTimersByTime(IDLE * 3);
    expect(collected).toBe(0);
    collector.end();
    vi.advanceTimersByTime(IDLE - 1);
    expect(collected).toBe(0);
    vi.advanceTimersByTime(1);
    expect(collected).toBe(1);
  });

  it('collectNow collects at once, once per idle time across the shards of one force-merge', () => {
    collector.collectNow();
    collector.collectNow();
    expect([asked, collected]).toEqual([1, 1]);
    vi.advanceTimersByTime(IDLE);
    collector.collectNow();
    expect(collected).toBe(2);
  });

  it('collectNow collects this thread (only) once more after the shrink time, though a force-merge is in flight', () => {
    collector.collectNow();
    collector.begin(); // the force-merge
    expect([asked, collected]).toEqual([1, 1]);
    vi.advanceTimersByTime(SHRINK - 1);
    expect(collected).toBe(1);
    vi.advanceTimersByTime(1);
    expect([asked, collected]).toEqual([1, 2]);
    vi.advanceTimersByTime(SHRINK * 10);
    expect([asked, collected]).toEqual([1, 2]);
    collector.end();
  });

  it('close cancels the collection after collectNow', () => {
    collector.collectNow();
    collector.close();
    vi.advanceTimersByTime(SHRINK * 2);
    expect(collected).toBe(1);
  });

  it('dropped segments make this thread (not the workers, which collect on drops) collect once enough bytes went', () => {
    collector.dropped(DROPPED_BYTES_BEFORE_GC / 2);
    vi.advanceTimersByTime(IDLE);
    expect(collected).toBe(0);
    collector.dropped(DROPPED_BYTES_BEFORE_GC / 2); // the second drop of one publish
    collector.dropped(1);
    vi.advanceTimersByTime(10);
    expect([asked, collected]).toEqual([0, 1]);
    collector.dropped(DROPPED_BYTES_BEFORE_GC - 1);
    vi.advanceTimersByTime(IDLE);
    expect(collected).toBe(1);
  });

  it('trims the malloc heap after each collection of every thread, once the workers have collected, and not after a drop', async () => {
    let workersDone!: () => void;
    const c = new IdleCollector(() => new Promise<void>((r) => (workersDone = r)), { idleMs: IDLE, shrinkMs: SHRINK, collectHere: () => collected++, releaseHeap: () => trimmed++ });
    c.begin();
    c.end();
    await vi.advanceTimersByTimeAsync(IDLE);
    expect([collected, trimmed]).toEqual([1, 0]); // the workers have not answered yet
    workersDone();
    await vi.advanceTimersByTimeAsync(0);
    expect(trimmed).toBe(1);
    await vi.advanceTimersByTimeAsync(SHRINK);
    workersDone();
    await vi.advanceTimersByTimeAsync(0);
    expect([collected, trimmed]).toEqual([2, 2]);
    c.dropped(DROPPED_BYTES_BEFORE_GC);
    await vi.advanceTimersByTimeAsync(10);
    expect([collected, trimmed]).toEqual([3, 2]);
    c.close();
  });

  it('does not trim when segment work resumed before the workers answered (a force-merge after collectNow)', async () => {
    let workersDone!: () => void;
    const c = new IdleCollector(() => new Promise<void>((r) => (workersDone = r)), { idleMs: IDLE, collectHere: () => collected++, releaseHeap: () => trimmed++ });
    c.collectNow();
    c.begin();
    workersDone();
    await vi.advanceTimersByTimeAsync(0);
    expect([collected, trimmed]).toEqual([1, 0]);
    c.close();
  });

  it('trims even when asking the workers failed, and not once closed', async () => {
    let fail!: (e: Error) => void;
    const c = new IdleCollector(() => new Promise<void>((_, reject) => (fail = reject)), { idleMs: IDLE, collectHere: () => collected++, releaseHeap: () => trimmed++ });
    c.collectNow();
    fail(new Error('channel closed'));
    await vi.advanceTimersByTimeAsync(0);
    expect(trimmed).toBe(1);
    await vi.advanceTimersByTimeAsync(IDLE);
    c.collectNow();
    c.close();
    fail(new Error('channel closed'));
    await vi.advanceTimersByTimeAsync(0);
    expect(trimmed).toBe(1);
  });

  it('close cancels a pending collection', () => {
    collector.begin();
    collector.end();
    collector.close();
    vi.advanceTimersByTime(IDLE * 2);
    expect(collected).toBe(0);
  });
});
