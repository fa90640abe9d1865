/**
 * Collecting garbage once writes stop (issue 22). A bulk load leaves the coordinator's heap full of
 * request bodies and parsed documents, and builds and merges leave the workers' typed arrays; V8
 * collects when a thread allocates, so a node that goes quiet after a load kept all of it resident —
 * at 200k short docs ~180 MB of worker ArrayBuffers and ~100 MB of main heap after the final merge.
 * When the node's segment work has stopped — no build or merge in flight, and none ended for
 * IDLE_MS — the main thread runs a full GC and asks every worker to run one (and drop its build
 * scratch, workers/release-memory.ts).
 *
 * Only then (issue 19): a forced full GC makes V8 deoptimize the thread's hot code ("weak objects":
 * what the code was specialised on died with the last build), and the next build runs interpreted
 * and compiles everything again — a 5k-doc build costs 331 ms of CPU after one against 126 ms
 * without (bench/build-gc-churn.ts). The timer used to be re-armed only when a build or merge
 * ended, so a merge running longer than IDLE_MS counted as idle, and a bulk load paid 4–5 such
 * collections in every thread (0.2–0.3 s on the main thread each, plus the recompiles). Segment work
 * in flight now holds the collection off; what a load leaves is still collected IDLE_MS after it.
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
  /** Builds and merges started and not yet ended. */
  private inFlight = 0;

  constructor(
    private readonly askWorkers: () => void,
    private readonly idleMs = IDLE_MS,
    private readonly collectHere: () => void = () => fullGc?.(),
  ) {}

  /** A build or merge starts: no collection until it has ended and IDLE_MS passed with none. */
  begin(): void {
    this.inFlight++;
    this.cancel();
  }

  /** A build or merge ended (done or failed): collect once segment work has stopped for idleMs. */
  end(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight > 0) return;
    if (this.timer !== null) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.inFlight === 0) this.collect();
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
    this.cancel();
    this.collect();
  }

  close(): void {
    this.cancel();
  }

  private collect(): void {
    this.askWorkers();
    this.collectHere();
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
