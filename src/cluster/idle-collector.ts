/**
 * Collecting garbage once writes stop (issue 22). A bulk load leaves the coordinator's heap full of
 * request bodies and parsed documents, and builds and merges leave the workers' typed arrays; V8
 * collects when a thread allocates, so a node that goes quiet after a load kept all of it resident —
 * at 200k short docs ~180 MB of worker ArrayBuffers and ~100 MB of main heap after the final merge.
 * Every build or merge re-arms a timer; when it fires (no segment work for IDLE_MS), the main thread
 * runs a full GC and asks every worker to run one.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// As in workers/release-memory.ts: V8's documented way to get `gc` without a command-line flag.
setFlagsFromString('--expose-gc');
const fullGc = runInNewContext('gc') as (() => void) | undefined;

export const IDLE_MS = 2000;

export class IdleCollector {
  private timer: NodeJS.Timeout | null = null;
  private lastForced = -Infinity;

  constructor(private readonly askWorkers: () => void, private readonly idleMs = IDLE_MS) {}

  /** Segment work happened: collect once it has stopped for idleMs. */
  touch(): void {
    if (this.timer !== null) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.askWorkers();
      fullGc?.();
    }, this.idleMs);
    this.timer.unref();
  }

  /**
   * Collects in every thread at once (before a force-merge, whose peak would otherwise include what
   * a bulk load just left in the heaps); the shards of one `_forcemerge` ask together, so a second
   * request within idleMs is a no-op.
   */
  collectNow(): void {
    const now = performance.now();
    if (now - this.lastForced < this.idleMs) return;
    this.lastForced = now;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.askWorkers();
    fullGc?.();
  }

  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
