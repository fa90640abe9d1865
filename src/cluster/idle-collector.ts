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
 *
 * Once the threads' collections are done, glibc's heaps are trimmed (`releaseHeap`, malloc-trim.ts),
 * unless segment work resumed meanwhile: what the collections freed there stays resident
 * otherwise, as the heap's high-water mark.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// As in workers/release-memory.ts: V8's documented way to get `gc` without a command-line flag.
setFlagsFromString('--expose-gc');
const fullGc = runInNewContext('gc') as (() => void) | undefined;

/**
 * How far V8 lets an old generation grow past what its last full GC kept, in percent (V8's own
 * choice is 10–300%, from its GC and mutator speeds). Without forced collections mid-load, V8 chose
 * the top of that range for the coordinator under a bulk load: its heap went from 39 MB after V8's
 * last collection to 145 MB, most of it request bodies and parsed documents already dead, and a
 * 200k-doc load's peak RSS rose ~10%. At 50% V8's own (incremental, mid-build, so nothing is
 * deoptimized) collections keep that down: peak 423–428 MB against 462–481 MB at 100k docs, server
 * CPU within noise. A V8 flag is process-wide: the workers (and searches) get it too.
 */
export const HEAP_GROWING_PERCENT = 50;
setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

export const IDLE_MS = 2000;
/**
 * Segment bytes dropped (replaced by a merge) after which the main thread collects at once: a
 * SharedArrayBuffer's memory is freed once every thread's GC has found it dead, the workers collect
 * right after drops (workers/release-memory.ts `releaseDropped`), and the coordinator, which no
 * longer collects while a load runs, held the merged-away segments until V8's own schedule.
 */
export const DROPPED_BYTES_BEFORE_GC = 16 << 20;
/**
 * A second collection in every thread this long after the idle one, unless segment work resumed:
 * V8 shrinks a thread's young generation only at a GC that follows ~5 s of low allocation, so the
 * idle collection, 2 s after a load, left the semi-spaces grown (workers 2 × 16 MB each, the main
 * thread up to 2 × 32 MB) for as long as the node stayed idle. Measured after 200k sparse vectors:
 * V8 heap pages +23–29 MB over idle → −3 MB, RSS 281 → 261 MB (bench/memory-sparse.ts, its
 * "12 s later" reading).
 */
export const SHRINK_MS = 6000;

export interface IdleCollectorOptions {
  readonly idleMs?: number;
  readonly shrinkMs?: number;
  /** This thread's full GC. */
  readonly collectHere?: () => void;
  /** Returns the process's free malloc memory (MallocTrim); none by default. */
  readonly releaseHeap?: () => void;
  /** Drops this thread's free lists of reusable buffers, just before its collection frees them. */
  readonly releaseCaches?: () => void;
}

export class IdleCollector {
  private timer: NodeJS.Timeout | null = null;
  private lastForced = -Infinity;
  /** Builds and merges started and not yet ended. */
  private inFlight = 0;
  private droppedBytes = 0;
  private dropTimer: NodeJS.Timeout | null = null;
  private shrinkTimer: NodeJS.Timeout | null = null;
  /** This thread's second collection after `collectNow`, which segment work does not cancel. */
  private forcedShrinkTimer: NodeJS.Timeout | null = null;
  private closed = false;

  private readonly idleMs: number;
  private readonly shrinkMs: number;
  private readonly collectHere: () => void;
  private readonly releaseHeap: () => void;
  private readonly releaseCaches: () => void;

  /**
   * `askWorkers` asks every worker to collect and resolves once they have (or gave up waiting);
   * `releaseHeap` runs after each collection of every thread, once the workers' have completed.
   */
  constructor(private readonly askWorkers: () => Promise<unknown> | void, options: IdleCollectorOptions = {}) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.shrinkMs = options.shrinkMs ?? SHRINK_MS;
    this.collectHere = options.collectHere ?? (() => fullGc?.());
    this.releaseHeap = options.releaseHeap ?? (() => {});
    this.releaseCaches = options.releaseCaches ?? (() => {});
  }

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
      if (this.inFlight !== 0) return;
      this.collect();
      this.shrinkTimer = setTimeout(() => {
        this.shrinkTimer = null;
        if (this.inFlight === 0) this.collect();
      }, this.shrinkMs);
      this.shrinkTimer.unref();
    }, this.idleMs);
    this.timer.unref();
  }

  /** Segments were dropped: this thread collects once DROPPED_BYTES_BEFORE_GC have been (the drops of one publish together). */
  dropped(bytes: number): void {
    this.droppedBytes += bytes;
    if (this.dropTimer !== null || this.droppedBytes < DROPPED_BYTES_BEFORE_GC) return;
    this.dropTimer = setTimeout(() => {
      this.dropTimer = null;
      this.droppedBytes = 0;
      this.collectHere();
    }, 10);
    this.dropTimer.unref();
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
    // The coordinator's young generation stays at its grown size (2 × the 32 MB semi-space) through
    // this collection: V8 shrinks it only at a GC that follows ~5 s of low allocation, and the
    // force-merge that follows holds the idle collections off. A force-merge of a large index runs
    // for many seconds while this thread allocates little, so this thread alone collects once more
    // shrinkMs later, merge or not (at 1M docs: ~60 MB off the force-merge's peak, issue 22). The
    // workers are not asked: one is merging, and theirs are 8 MB semi-spaces.
    if (this.forcedShrinkTimer !== null) clearTimeout(this.forcedShrinkTimer);
    this.forcedShrinkTimer = setTimeout(() => {
      this.forcedShrinkTimer = null;
      if (!this.closed) this.collectHere();
    }, this.shrinkMs);
    this.forcedShrinkTimer.unref();
  }

  close(): void {
    this.closed = true;
    this.cancel();
    if (this.dropTimer !== null) clearTimeout(this.dropTimer);
    this.dropTimer = null;
    if (this.forcedShrinkTimer !== null) clearTimeout(this.forcedShrinkTimer);
    this.forcedShrinkTimer = null;
  }

  private collect(): void {
    this.droppedBytes = 0;
    const workers = this.askWorkers();
    this.releaseCaches();
    this.collectHere();
    // Not when segment work resumed meanwhile (a force-merge right after `collectNow`): the trim
    // locks each arena while it walks it, and the next build would fault the pages in again.
    const release = () => {
      if (!this.closed && this.inFlight === 0) this.releaseHeap();
    };
    void Promise.resolve(workers).then(release, release);
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.shrinkTimer !== null) clearTimeout(this.shrinkTimer);
    this.shrinkTimer = null;
  }
}
