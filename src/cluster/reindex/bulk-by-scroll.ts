/**
 * Reindex, update_by_query and delete_by_query (ES AbstractAsyncBulkByScrollAction): scan the
 * source documents in batches of `size` (doc-scan.ts), run each batch through the write flow
 * (write-flow.ts: the ingest pipelines for reindex and update_by_query, one call per batch so
 * inference is batched; the caller's rights checked where each document lands), write it with
 * per-item results, make it durable (translog fsync), then throttle to `requests_per_second`.
 * Slices run in parallel, each over its share of the documents and of the rate. The job checks for
 * cancellation before each batch and while throttled: a cancelled job stops cleanly between
 * batches and reports what it did with `canceled`.
 *
 * Failures follow ES: a version conflict is counted (and, with `conflicts: abort`, also a
 * failure); any other per-document failure is listed in `failures`; a batch with failures is the
 * last one — documents already written stay written.
 */
import { EsError, IllegalArgumentError, InternalError, VersionConflictError } from '../../errors/index.js';
import { filterSource, type SourceFilter } from '../../common/source-filter.js';
import type { QueryNode } from '../../dsl/index.js';
import type { SparseInference } from '../../ml/index.js';
import type { Task } from '../../tasks/index.js';
import { DocScan, type ScannedDoc } from './doc-scan.js';
import type { IndexService } from '../indices/index-service.js';
import type { IndicesService } from '../indices/indices-service.js';
import type { SearchPool } from '../search-pool.js';
import { TouchedShards, type Authorize, type PipelineInput, type WriteFlow } from '../writes/write-flow.js';

export type ByScrollKind = 'reindex' | 'update_by_query' | 'delete_by_query';

export interface ByScrollRequest {
  readonly kind: ByScrollKind;
  readonly source: readonly IndexService[];
  readonly query: QueryNode | null;
  /** Batch size (`source.size` / `scroll_size`). */
  readonly size: number;
  /** null = every matching document. */
  readonly maxDocs: number | null;
  readonly conflicts: 'abort' | 'proceed';
  /** -1 = unthrottled. */
  readonly requestsPerSecond: number;
  readonly slices: number;
  readonly refresh: boolean;
  /** reindex: `source._source` filtering of what is copied. */
  readonly sourceFilter: SourceFilter | null;
  /** reindex: the destination. */
  readonly dest: { readonly index: string; readonly opType: 'index' | 'create'; readonly pipeline: string | null } | null;
  /** update_by_query: `?pipeline=`. */
  readonly pipeline: string | null;
  /** The caller's rights, checked where each document lands (write-flow.ts); absent = no security. */
  readonly authorize?: Authorize;
}

export interface ByScrollDeps {
  readonly indices: IndicesService;
  readonly pool: SearchPool;
  readonly inference: SparseInference | null;
  /** The write flow: pipelines, authorization where documents land, auto-creation. */
  readonly writes: WriteFlow;
  /** Time spent in pipelines vs writes, for benchmarks. */
  readonly timings?: { ingestMs: number; writeMs: number };
}

interface Failure {
  readonly index: string;
  readonly id: string;
  readonly cause: Record<string, unknown>;
  readonly status: number;
}

/** ES BulkByScrollTask.Status of one slice (or the sum of all). */
class SliceStatus {
  total = 0;
  updated = 0;
  created = 0;
  deleted = 0;
  batches = 0;
  versionConflicts = 0;
  noops = 0;
  throttledMillis = 0;
  throttledUntilMillis = 0;
  constructor(readonly sliceId: number | null, public requestsPerSecond: number) {}

  render(canceled: string | null): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.sliceId !== null) out.slice_id = this.sliceId;
    Object.assign(out, {
      total: this.total, updated: this.updated, created: this.created, deleted: this.deleted, batches: this.batches,
      version_conflicts: this.versionConflicts, noops: this.noops, retries: { bulk: 0, search: 0 },
      throttled_millis: this.throttledMillis, requests_per_second: rpsValue(this.requestsPerSecond), throttled_until_millis: this.throttledUntilMillis,
    });
    if (canceled !== null) out.canceled = canceled;
    return out;
  }
}

/** ES renders unthrottled as -1.0 and a rate as a float; JSON has no -1.0, so -1 it is. */
function rpsValue(rps: number): number {
  return rps === Infinity || rps < 0 ? -1 : rps;
}

export class ByScrollJob {
  private readonly slices: SliceStatus[];
  private failures: Failure[] = [];
  private stopped = false;
  private wake: (() => void) | null = null;
  private scan: DocScan | null = null;

  constructor(private readonly req: ByScrollRequest, private readonly deps: ByScrollDeps, private readonly task: Task) {
    // Each slice is a sliced scroll in ES, which its shards refuse past index.max_slices_per_scroll
    // (DefaultSearchContext.preProcess); refused here before a status is made per slice.
    for (const index of req.source) {
      const limit = index.resolvedSettings.maxSlicesPerScroll;
      if (req.slices > limit) {
        throw new IllegalArgumentError(`The number of slices [${req.slices}] is too large. It must be less than [${limit}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.`);
      }
    }
    const perSlice = req.requestsPerSecond < 0 ? -1 : req.requestsPerSecond / req.slices;
    this.slices = Array.from({ length: req.slices }, (_, i) => new SliceStatus(req.slices > 1 ? i : null, perSlice));
    task.rethrottle = (rps) => {
      for (const s of this.slices) s.requestsPerSecond = rps < 0 ? -1 : rps / req.slices;
      this.wake?.();
    };
  }

  /** `task.status` while running. */
  status(): Record<string, unknown> {
    const sum = new SliceStatus(null, this.req.requestsPerSecond);
    for (const s of this.slices) {
      sum.total += s.total;
      sum.updated += s.updated;
      sum.created += s.created;
      sum.deleted += s.deleted;
      sum.batches += s.batches;
      sum.versionConflicts += s.versionConflicts;
      sum.noops += s.noops;
      sum.throttledMillis += s.throttledMillis;
    }
    sum.requestsPerSecond = this.slices.some((s) => s.requestsPerSecond < 0) ? -1 : this.slices.reduce((n, s) => n + s.requestsPerSecond, 0);
    const out = sum.render(this.task.reasonCancelled);
    if (this.slices.length > 1) out.slices = this.slices.map((s) => s.render(this.task.reasonCancelled));
    return out;
  }

  async run(): Promise<Record<string, unknown>> {
    const start = performance.now();
    // Sources named through filtered aliases read only what the filters let through, as a search would.
    this.scan = await DocScan.open(this.req.source, this.req.query, this.deps.pool, this.deps.inference,
      (index, query) => this.deps.indices.searchQuery(this.req.source, index, query));
    const maxPerSlice = this.req.maxDocs === null ? null : splitMaxDocs(this.req.maxDocs, this.req.slices);
    await Promise.all(this.slices.map((s, i) => this.runSlice(s, i, maxPerSlice?.[i] ?? null)));
    if (this.req.refresh) await this.refreshTargets();
    const { slices: _, ...status } = this.status();
    return { took: Math.round(performance.now() - start), timed_out: false, ...status, failures: this.failures };
  }

  private async runSlice(status: SliceStatus, slice: number, maxDocs: number | null): Promise<void> {
    const scan = this.scan!;
    const total = scan.count(slice, this.req.slices);
    status.total = maxDocs === null ? total : Math.min(total, maxDocs);
    const docs = scan.docs(slice, this.req.slices);
    let done = 0;
    while (!this.stopped && !this.task.cancelled && done < status.total) {
      const batch: ScannedDoc[] = [];
      const want = Math.min(this.req.size, status.total - done);
      while (batch.length < want) {
        const next = docs.next();
        if (next.done) break;
        batch.push(next.value);
      }
      if (batch.length === 0) break;
      const started = Date.now();
      await this.runBatch(batch, status);
      done += batch.length;
      status.batches++;
      if (this.failures.length > 0) this.stopped = true;
      if (!this.stopped && done < status.total) await this.throttle(status, started, batch.length);
    }
  }

  /** ES WorkerBulkByScrollTaskState.throttleWaitTime: the batch may not start before size/rps after the last. */
  private async throttle(status: SliceStatus, lastStart: number, lastSize: number): Promise<void> {
    for (;;) {
      if (this.task.cancelled || status.requestsPerSecond <= 0) return;
      const until = lastStart + (lastSize / status.requestsPerSecond) * 1000;
      const wait = until - Date.now();
      if (wait <= 0) return;
      status.throttledUntilMillis = Math.round(wait);
      const slept = Date.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, wait);
        const unsubscribe = this.task.onCancel(finish);
        this.wake = finish;
        function finish() {
          clearTimeout(timer);
          unsubscribe();
          resolve();
        }
      });
      this.wake = null;
      status.throttledMillis += Date.now() - slept;
      status.throttledUntilMillis = 0;
    }
  }

  private failure(index: string, id: string, e: unknown): Failure {
    const err = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
    return { index, id, cause: err.toObject(), status: err.status };
  }

  private async runBatch(batch: readonly ScannedDoc[], status: SliceStatus): Promise<void> {
    const touched = new TouchedShards();
    const touch = (index: IndexService, shard: number) => touched.touch(index, shard);
    const conflict = (index: string, id: string, e: VersionConflictError) => {
      status.versionConflicts++;
      if (this.req.conflicts === 'abort') this.failures.push(this.failure(index, id, e));
    };
    const timings = this.deps.timings;
    if (this.req.kind === 'delete_by_query') {
      const t0 = performance.now();
      for (const d of batch) {
        try {
          const r = d.index.delete(d.id, { create: false, ifSeqNo: d.seqNo, ifPrimaryTerm: d.primaryTerm, routing: null });
          touch(d.index, r.shard);
          if (r.result === 'deleted') status.deleted++;
          else status.noops++;
        } catch (e) {
          if (e instanceof VersionConflictError) conflict(d.index.name, d.id, e);
          else this.failures.push(this.failure(d.index.name, d.id, e));
        }
      }
      await this.sync(touched);
      if (timings) timings.writeMs += performance.now() - t0;
      return;
    }
    // reindex / update_by_query: source → pipeline → write.
    const t0 = performance.now();
    const inputs: PipelineInput[] = [];
    const scanned: ScannedDoc[] = [];
    for (const d of batch) {
      if (d.source === null) {
        this.failures.push(this.failure(d.index.name, d.id, new EsError('illegal_argument_exception', `[${d.index.name}][${d.id}] didn't store _source`, 400)));
        continue;
      }
      let source = JSON.parse(d.source) as Record<string, unknown>;
      if (this.req.sourceFilter) source = filterSource(source, this.req.sourceFilter);
      const dest = this.req.dest;
      inputs.push({ index: dest ? dest.index : d.index.name, id: d.id, routing: null, source, requestPipeline: dest ? dest.pipeline : this.req.pipeline });
      scanned.push(d);
    }
    const outputs = await this.deps.writes.runPipelines(inputs);
    const t1 = performance.now();
    if (timings) timings.ingestMs += t1 - t0;
    outputs.forEach((out, i) => {
      const d = scanned[i];
      const destName = inputs[i].index;
      if (out.kind === 'failed') {
        this.failures.push(this.failure(destName, d.id, out.error));
        return;
      }
      if (out.kind === 'dropped') {
        status.noops++;
        return;
      }
      // Failures name the index the write went to, after the pipeline (ES BulkItemResponse.Failure).
      const landed = out.index;
      try {
        const text = JSON.stringify(out.source);
        const writes = this.deps.writes;
        if (this.req.kind === 'reindex') {
          const dest = this.req.dest!;
          const opType = dest.opType;
          // The route checked the destination; a pipeline that set `_index` is checked where it points.
          if (out.index !== dest.index) writes.authorizeLanding(this.req.authorize, opType, out.index, true);
          const index = writes.target(opType, out.index);
          const r = index.index(out.id ?? d.id, text, out.source, { create: opType === 'create', ifSeqNo: null, ifPrimaryTerm: null, routing: out.routing });
          touch(index, r.shard);
          if (r.result === 'created') status.created++;
          else status.updated++;
        } else {
          // update_by_query writes back only if nobody changed the document since the scan read it.
          // A pipeline that sets `_index` sends that conditional write elsewhere, as ES does: checked
          // and auto-created there, it fails as a version conflict unless that index holds a copy
          // with the same seq_no.
          let index = d.index;
          if (out.index !== d.index.name) {
            writes.authorizeLanding(this.req.authorize, 'index', out.index, true);
            index = writes.target('index', out.index);
          }
          const r = index.index(out.id ?? d.id, text, out.source, { create: false, ifSeqNo: d.seqNo, ifPrimaryTerm: d.primaryTerm, routing: out.routing });
          touch(index, r.shard);
          status.updated++;
        }
      } catch (e) {
        if (e instanceof VersionConflictError) conflict(landed, d.id, e);
        else this.failures.push(this.failure(landed, d.id, e));
      }
    });
    await this.sync(touched);
    if (timings) timings.writeMs += performance.now() - t1;
  }

  /** Durable before the batch counts as done: translogs fsynced, mapping changes saved. */
  private async sync(touched: ReadonlyMap<IndexService, Set<number>>): Promise<void> {
    await Promise.all([...touched].map(([index, shards]) => index.sync(shards)));
    await this.deps.indices.persist();
  }

  private async refreshTargets(): Promise<void> {
    const names = this.req.dest ? [this.req.dest.index] : this.req.source.map((i) => i.name);
    // A dest alias names its write index, where the copies went.
    await Promise.all(names.map((n) => this.deps.indices.writeTarget(n)?.refresh()));
  }

  /** Stops after the current batch (shutdown). */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }
}

/** ES splits max_docs over slices as evenly as it can, the first slices taking the remainder. */
function splitMaxDocs(maxDocs: number, slices: number): number[] {
  const base = Math.floor(maxDocs / slices);
  return Array.from({ length: slices }, (_, i) => base + (i < maxDocs % slices ? 1 : 0));
}
