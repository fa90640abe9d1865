/**
 * A pool task (a segment build or merge) on a search thread first answers the searches already
 * queued on that thread's search channel (workers/pool-task.ts `asPoolTask`, the drain
 * workers/search.ts registers), with the thread's flag already raised so the coordinator queues no
 * more there: a batch queued behind a running one never waits the length of a build.
 */
import { describe, expect, it } from 'vitest';
import { asPoolTask, poolTaskFlag, setSearchDrain } from '../../workers/pool-task.js';

describe('a pool task on a search thread', () => {
  it('runs the queued searches first, with the flag raised, then the task, then lowers the flag', () => {
    const order: string[] = [];
    setSearchDrain(() => order.push(`drain flag=${Atomics.load(poolTaskFlag, 0)}`));
    try {
      const out = asPoolTask(() => {
        order.push(`task flag=${Atomics.load(poolTaskFlag, 0)}`);
        return 42;
      });
      expect(out).toBe(42);
      expect(order).toEqual(['drain flag=1', 'task flag=1']);
      expect(Atomics.load(poolTaskFlag, 0)).toBe(0);
    } finally {
      setSearchDrain(() => {});
    }
  });
});
