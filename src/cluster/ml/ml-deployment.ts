/**
 * One started model deployment (ES TrainedModelAssignment + the per-node inference processes):
 * per ML node, its allocations (each an MlAllocation: a Piscina pool of threads_per_allocation
 * threads) and a queue bounded by queue_capacity, as ES's per-node process queue
 * (ProcessWorkerExecutorService). A request goes to the least loaded node; it runs on an idle
 * allocation or waits in that node's queue; a full queue rejects it with 429 and ES's message.
 * Every figure in `stats()` is measured here.
 */
import { EsError, InternalError, RejectedExecutionError, StatusError } from '../../errors/index.js';
import type { Allocations, DeploymentRecord, SparseVector } from '../../ml/index.js';
import { MlAllocation, type AllocationModel } from './ml-allocation.js';

export type RoutingState = 'starting' | 'started' | 'stopping' | 'failed';
export type AssignmentState = 'starting' | 'started' | 'stopping' | 'failed';

interface Pending {
  readonly texts: readonly string[];
  readonly purpose: 'document' | 'query';
  readonly resolve: (v: SparseVector[]) => void;
  readonly reject: (e: unknown) => void;
  settled: boolean;
  timer: NodeJS.Timeout | null;
}

interface Completion {
  readonly at: number;
  readonly docs: number;
  readonly ms: number;
}

const MINUTE_MS = 60_000;

export interface MlThreadPoolStats {
  readonly threads: number;
  readonly active: number;
  readonly queue: number;
  readonly rejected: number;
  readonly completed: number;
  /** Documents encoded. */
  readonly inferenceCount: number;
  readonly totalTimeMs: number;
  readonly utilization: number;
}

/** The allocations of one deployment on one ML node, its queue and its counters. */
class NodeProcess {
  /** Started allocations; `idle` ⊆ these. */
  readonly allocations: MlAllocation[] = [];
  readonly idle: MlAllocation[] = [];
  /** Allocations placed here and still loading. */
  starting = 0;
  /** Allocations to close when they next become idle (`_update` down). */
  retire = 0;
  readonly queue: Pending[] = [];
  routingState: RoutingState = 'starting';
  reason = '';
  readonly startTime = Date.now();
  inferenceCount = 0;
  /** Inference requests served (each runs on one allocation). */
  requestCount = 0;
  totalTimeMs = 0;
  errorCount = 0;
  rejectedCount = 0;
  timeoutCount = 0;
  lastAccess = 0;
  peakPerMinute = 0;
  readonly recent: Completion[] = [];

  constructor(readonly node: string) {}

  get busy(): number {
    return this.allocations.length - this.idle.length;
  }

  /** Placed allocations (started or loading). */
  get target(): number {
    return this.allocations.length + this.starting - this.retire;
  }

  record(docs: number, ms: number): void {
    const now = Date.now();
    this.requestCount++;
    this.inferenceCount += docs;
    this.totalTimeMs += ms;
    this.lastAccess = now;
    this.recent.push({ at: now, docs, ms });
    this.prune(now);
    this.peakPerMinute = Math.max(this.peakPerMinute, this.lastMinute(now).docs);
  }

  prune(now: number): void {
    while (this.recent.length > 0 && this.recent[0].at < now - MINUTE_MS) this.recent.shift();
  }

  lastMinute(now: number): { docs: number; ms: number } {
    this.prune(now);
    let docs = 0;
    let ms = 0;
    for (const c of this.recent) {
      docs += c.docs;
      ms += c.ms;
    }
    return { docs, ms };
  }
}

export interface DeploymentOptions {
  readonly record: DeploymentRecord;
  readonly workerDir: URL;
  /** What the allocations load. */
  readonly model: AllocationModel;
  /** Called whenever allocation counts or states change (waiters re-check their condition). */
  readonly onChange: () => void;
}

export class MlDeployment {
  record: DeploymentRecord;
  private readonly processes = new Map<string, NodeProcess>();
  private readonly workerDir: URL;
  readonly model: AllocationModel;
  private readonly onChange: () => void;
  state: AssignmentState = 'starting';
  /** Why the deployment holds fewer allocations than its target (placement explanation), or ''. */
  reason = '';
  private maxAssigned = 0;
  private stopped = false;
  /** Requests running on an allocation: a stop lets them finish before the pools close. */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(options: DeploymentOptions) {
    this.record = options.record;
    this.workerDir = options.workerDir;
    this.model = options.model;
    this.onChange = options.onChange;
  }

  get id(): string {
    return this.record.deployment_id;
  }

  /** Allocations placed per node (started or loading): what placement counts as used. */
  placed(): Allocations {
    const out: Record<string, number> = {};
    for (const p of this.processes.values()) if (p.target > 0) out[p.node] = p.target;
    return out;
  }

  /** Started allocations across nodes (ES allocation_status.allocation_count). */
  get allocationCount(): number {
    let n = 0;
    for (const p of this.processes.values()) n += p.allocations.length - p.retire;
    return n;
  }

  /** ES AllocationStatus.calculateState. */
  allocationState(): 'starting' | 'started' | 'fully_allocated' {
    const n = this.allocationCount;
    if (n === 0) return 'starting';
    return n >= this.record.number_of_allocations ? 'fully_allocated' : 'started';
  }

  /** Node failures by node name (routing state failed). */
  failures(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const p of this.processes.values()) if (p.routingState === 'failed') out[p.node] = p.reason;
    return out;
  }

  /** Starting allocations still loading. */
  get loading(): number {
    let n = 0;
    for (const p of this.processes.values()) n += p.starting;
    return n;
  }

  /** Adds allocations per node (`placement` holds the new ones only); they start loading at once. */
  addAllocations(placement: Allocations): Promise<void> {
    const starts: Promise<void>[] = [];
    for (const [node, count] of Object.entries(placement)) {
      let p = this.processes.get(node);
      if (!p) this.processes.set(node, (p = new NodeProcess(node)));
      // Un-retire before starting new pools: cheaper than a new thread pool.
      const reused = Math.min(p.retire, count);
      p.retire -= reused;
      for (let i = reused; i < count; i++) starts.push(this.startAllocation(p));
    }
    this.onChange();
    return Promise.all(starts).then(() => undefined);
  }

  private async startAllocation(p: NodeProcess): Promise<void> {
    p.starting++;
    const allocation = new MlAllocation(this.record.threads_per_allocation, this.workerDir, this.model);
    try {
      await allocation.start();
    } catch (e) {
      p.starting--;
      p.routingState = 'failed';
      p.reason = e instanceof Error ? e.message : String(e);
      if (this.state === 'starting' && this.allocationCount === 0 && this.loading === 0) this.state = 'failed';
      await allocation.close();
      this.onChange();
      return;
    }
    p.starting--;
    if (this.stopped) {
      await allocation.close();
      return;
    }
    p.allocations.push(allocation);
    p.routingState = 'started';
    this.state = 'started';
    this.maxAssigned = Math.max(this.maxAssigned, this.allocationCount);
    this.release(p, allocation);
    this.onChange();
  }

  /** Removes allocations down to `target` per node; busy ones go when their request finishes. */
  removeAllocations(target: Allocations): void {
    for (const p of this.processes.values()) {
      let excess = p.target - (target[p.node] ?? 0);
      while (excess > 0 && p.idle.length > 0) {
        const a = p.idle.pop()!;
        p.allocations.splice(p.allocations.indexOf(a), 1);
        void a.close();
        excess--;
      }
      p.retire += excess;
    }
    this.onChange();
  }

  /** The process a request goes to: started, with allocations, least loaded per allocation. */
  private route(): NodeProcess | null {
    let best: NodeProcess | null = null;
    let bestLoad = Infinity;
    for (const p of this.processes.values()) {
      const n = p.allocations.length - p.retire;
      if (p.routingState !== 'started' || n <= 0) continue;
      const load = (p.busy + p.queue.length) / n;
      if (load < bestLoad) {
        best = p;
        bestLoad = load;
      }
    }
    return best;
  }

  /**
   * Encodes `texts`. Rejects with 409 when no allocation has started, 429 when the chosen node's
   * queue holds `queue_capacity` requests, 408 after `timeoutMs` (queued requests leave the queue;
   * Infinity waits without limit).
   */
  infer(texts: readonly string[], timeoutMs: number, timeoutText: string, purpose: 'document' | 'query' = 'document'): Promise<SparseVector[]> {
    const p = this.stopped ? null : this.route();
    if (!p) return Promise.reject(new StatusError(`Trained model deployment [${this.id}] is not allocated to any nodes`, 409));
    return new Promise<SparseVector[]>((resolve, reject) => {
      const pending: Pending = { texts, purpose, resolve, reject, settled: false, timer: null };
      const idle = p.idle.pop();
      if (idle) {
        this.run(p, idle, pending);
      } else if (p.queue.length >= this.record.queue_capacity) {
        p.rejectedCount++;
        reject(new RejectedExecutionError('inference process queue is full. Unable to execute command'));
        return;
      } else {
        p.queue.push(pending);
      }
      // An infinite timeout (ingest's, as ES's) sets no timer.
      if (!Number.isFinite(timeoutMs)) return;
      pending.timer = setTimeout(() => {
        if (pending.settled) return;
        pending.settled = true;
        p.timeoutCount++;
        const i = p.queue.indexOf(pending);
        if (i >= 0) p.queue.splice(i, 1);
        reject(new StatusError(`timeout [${timeoutText}] waiting for inference result`, 408));
      }, timeoutMs);
      pending.timer.unref?.();
    });
  }

  private run(p: NodeProcess, allocation: MlAllocation, pending: Pending): void {
    const started = performance.now();
    const work = allocation.encode(pending.texts, pending.purpose).then(
      (result) => {
        p.record(pending.texts.length, performance.now() - started);
        this.settle(pending, () => pending.resolve(result));
      },
      (e) => {
        p.errorCount++;
        this.settle(pending, () => pending.reject(e instanceof EsError ? e : new InternalError(String(e))));
      },
    ).finally(() => {
      this.inflight.delete(work);
      this.release(p, allocation);
    });
    this.inflight.add(work);
  }

  private settle(pending: Pending, action: () => void): void {
    if (pending.timer) clearTimeout(pending.timer);
    if (pending.settled) return;
    pending.settled = true;
    action();
  }

  /** An allocation became free: retire it, or give it the next queued request, or park it. */
  private release(p: NodeProcess, allocation: MlAllocation): void {
    if (this.stopped) return;
    if (p.retire > 0) {
      p.retire--;
      p.allocations.splice(p.allocations.indexOf(allocation), 1);
      void allocation.close();
      this.onChange();
      this.drainIfUnserved(p);
      return;
    }
    let next = p.queue.shift();
    while (next && next.settled) next = p.queue.shift();
    if (next) this.run(p, allocation, next);
    else p.idle.push(allocation);
  }

  /** A node left with queued requests and no allocations: its requests can never run there. */
  private drainIfUnserved(p: NodeProcess): void {
    if (p.allocations.length > 0) return;
    for (const q of p.queue.splice(0)) this.settle(q, () => q.reject(new StatusError(`Trained model deployment [${this.id}] is not allocated to any nodes`, 409)));
  }

  /** Stops: queued requests fail, running ones finish, then the pools close. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.state = 'stopping';
    const closing: Promise<void>[] = [];
    for (const p of this.processes.values()) {
      p.routingState = 'stopping';
      for (const q of p.queue.splice(0)) {
        this.settle(q, () => q.reject(new RejectedExecutionError('unable to process as inference process worker service has shutdown')));
      }
    }
    await Promise.allSettled([...this.inflight]);
    for (const p of this.processes.values()) for (const a of p.allocations) closing.push(a.close());
    await Promise.all(closing);
  }

  /** ES TrainedModelAssignment as the start and update APIs render it. */
  assignment(node: (name: string) => string, taskParameters: Record<string, unknown>): Record<string, unknown> {
    const routing: Record<string, unknown> = {};
    for (const p of this.processes.values()) {
      if (p.target === 0 && p.routingState !== 'failed') continue;
      routing[node(p.node)] = { current_allocations: p.allocations.length - p.retire, target_allocations: p.target, routing_state: p.routingState, reason: p.reason };
    }
    return {
      task_parameters: taskParameters,
      routing_table: routing,
      assignment_state: this.state,
      ...(this.reason ? { reason: this.reason } : {}),
      start_time: new Date(this.record.start_time).toISOString(),
      max_assigned_allocations: this.maxAssigned,
    };
  }

  /** ES AssignmentStats (`deployment_stats`), with measured per-node figures. */
  stats(nodeEntry: (name: string) => Record<string, unknown>, cacheSize: string): Record<string, unknown> {
    const now = Date.now();
    let inferenceCount = 0;
    let errors = 0;
    let rejected = 0;
    let timeouts = 0;
    let peak = 0;
    const nodes: Record<string, unknown>[] = [];
    for (const p of this.processes.values()) {
      if (p.target === 0 && p.routingState !== 'failed' && p.inferenceCount === 0) continue;
      const minute = p.lastMinute(now);
      inferenceCount += p.inferenceCount;
      errors += p.errorCount;
      rejected += p.rejectedCount;
      timeouts += p.timeoutCount;
      peak += p.peakPerMinute;
      const average = p.inferenceCount > 0 ? p.totalTimeMs / p.inferenceCount : null;
      nodes.push({
        node: nodeEntry(p.node),
        routing_state: { routing_state: p.routingState, ...(p.reason ? { reason: p.reason } : {}) },
        inference_count: p.inferenceCount,
        ...(average !== null ? { average_inference_time_ms: average, average_inference_time_ms_excluding_cache_hits: average } : {}),
        inference_cache_hit_count: 0,
        ...(p.errorCount > 0 ? { error_count: p.errorCount } : {}),
        ...(p.rejectedCount > 0 ? { rejected_execution_count: p.rejectedCount } : {}),
        ...(p.timeoutCount > 0 ? { timeout_count: p.timeoutCount } : {}),
        ...(p.lastAccess > 0 ? { last_access: p.lastAccess } : {}),
        number_of_pending_requests: p.queue.length,
        start_time: p.startTime,
        threads_per_allocation: this.record.threads_per_allocation,
        number_of_allocations: p.allocations.length - p.retire,
        peak_throughput_per_minute: p.peakPerMinute,
        throughput_last_minute: minute.docs,
        average_inference_time_ms_last_minute: minute.docs > 0 ? minute.ms / minute.docs : 0,
        inference_cache_hit_count_last_minute: 0,
      });
    }
    return {
      deployment_id: this.id,
      model_id: this.record.model_id,
      threads_per_allocation: this.record.threads_per_allocation,
      number_of_allocations: this.record.number_of_allocations,
      queue_capacity: this.record.queue_capacity,
      state: this.state,
      ...(this.reason ? { reason: this.reason } : {}),
      allocation_status: { allocation_count: this.allocationCount, target_allocation_count: this.record.number_of_allocations, state: this.allocationState() },
      cache_size: cacheSize,
      priority: this.record.priority,
      start_time: this.record.start_time,
      ...(inferenceCount > 0 ? { inference_count: inferenceCount } : {}),
      peak_throughput_per_minute: peak,
      ...(errors > 0 ? { error_count: errors } : {}),
      ...(rejected > 0 ? { rejected_execution_count: rejected } : {}),
      ...(timeouts > 0 ? { timeout_count: timeouts } : {}),
      nodes,
    };
  }

  /**
   * The deployment as a thread pool (`_nodes/stats`, `_cat/thread_pool`): its threads, the threads of
   * busy allocations, queued and refused requests, requests served, and the busy share of its
   * allocations' time since they started (request time / (allocations × uptime)).
   */
  threadPoolStats(): MlThreadPoolStats {
    const perAllocation = this.record.threads_per_allocation;
    const now = Date.now();
    const out = { threads: 0, active: 0, queue: 0, rejected: 0, completed: 0, inferenceCount: 0, totalTimeMs: 0, utilization: 0 };
    let capacityMs = 0;
    for (const p of this.processes.values()) {
      out.threads += p.allocations.length * perAllocation;
      out.active += p.busy * perAllocation;
      out.queue += p.queue.length;
      out.rejected += p.rejectedCount;
      out.completed += p.requestCount;
      out.inferenceCount += p.inferenceCount;
      out.totalTimeMs += p.totalTimeMs;
      capacityMs += p.allocations.length * (now - p.startTime);
    }
    out.utilization = capacityMs > 0 ? Math.min(1, out.totalTimeMs / capacityMs) : 0;
    return out;
  }

  /** Requests waiting across nodes, and docs inferred (for model-level inference_stats). */
  counters(): { inferenceCount: number; failures: number } {
    let inferenceCount = 0;
    let failures = 0;
    for (const p of this.processes.values()) {
      inferenceCount += p.inferenceCount;
      failures += p.errorCount;
    }
    return { inferenceCount, failures };
  }
}
