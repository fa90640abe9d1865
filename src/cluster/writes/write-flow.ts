/**
 * The write flow on the coordinator, one home for every write path (`_doc`/`_create`, `_bulk`,
 * `_reindex`, `_update_by_query`): the index's pipelines (`?pipeline=` or `index.default_pipeline`,
 * then `index.final_pipeline`) → authorization where the document lands → the index (auto-created
 * when missing) → translog sync (group commit) and saved metadata → the request's refresh policy.
 *
 * Authorization belongs to the route (cluster/ imports neither security/ nor http/): the caller
 * passes `authorize`, which throws ES's 403 `security_exception` for an action on an index. A
 * write is checked on the index it lands in — after its pipelines, which may set `_index` — as
 * ES's shard-level bulk action checks it: `bulk[s]` and the item's action there, and
 * `indices:admin/auto_create` (granted by `create_index`) when that index does not exist yet.
 */
import { resolvePipelines, runWritePipelines, type IngestService, type WriteDocumentOutcome } from '../../ingest/index.js';
import type { JsonMap } from '../../ingest/index.js';
import type { IndexService } from '../indices/index-service.js';
import type { SourceParser } from '../../index/index.js';
import type { IndicesService } from '../indices/indices-service.js';
import type { OpType } from '../../dsl/index.js';

/** ES WriteRequest.RefreshPolicy. */
export type RefreshPolicy = 'none' | 'immediate' | 'wait_for';

/** Throws ES's 403 unless the caller may perform `action` on every one of `indices`; absent = no security. */
export type Authorize = (action: string, indices: readonly string[]) => void;

/** ES DocWriteRequest.OpType (dsl/bulk-request.ts). */
export type WriteOp = OpType;

/** The action ES authorizes for each kind of write item. */
const OP_ACTIONS: Record<WriteOp, string> = {
  index: 'indices:data/write/index:op_type/index',
  create: 'indices:data/write/index:op_type/create',
  update: 'indices:data/write/update',
  delete: 'indices:data/write/delete',
};

/** A document on its way to the pipelines of the index it is written to. */
export interface PipelineInput {
  readonly index: string;
  readonly id: string | null;
  readonly routing: string | null;
  readonly source: JsonMap;
  /** The request's pipeline (`?pipeline=`, a bulk item's `pipeline`, `dest.pipeline`); null = the index's default. */
  readonly requestPipeline: string | null;
}

export class WriteFlow {
  constructor(readonly indices: IndicesService, private readonly ingest: IngestService) {}

  /** The pipelines a write into `index` runs: the request's or the index's default, then its final one. */
  pipelinesFor(index: string, requestPipeline: string | null): string[] {
    const target = this.indices.writeTarget(index);
    return resolvePipelines(requestPipeline, target?.setting('index.default_pipeline') ?? null, target?.setting('index.final_pipeline') ?? null);
  }

  /**
   * How a write into `index` without pipelines may parse its source (index-service.ts
   * `sourceParser`), or null for JSON.parse: a missing index, one without feature fields, or a
   * write whose pipelines need the source as plain objects.
   */
  sourceParserFor(index: string, requestPipeline: string | null): SourceParser | null {
    const parse = this.indices.writeTarget(index)?.sourceParser ?? null;
    return parse !== null && this.pipelinesFor(index, requestPipeline).length === 0 ? parse : null;
  }

  /**
   * Runs every document's pipelines in one batch (an inference processor makes one model request
   * for all). A document without pipelines comes out as it went in.
   */
  async runPipelines(docs: readonly PipelineInput[]): Promise<WriteDocumentOutcome[]> {
    const chains = docs.map((d) => this.pipelinesFor(d.index, d.requestPipeline));
    const piped = docs.flatMap((d, i) => (chains[i].length > 0 ? [i] : []));
    const out: WriteDocumentOutcome[] = docs.map((d) => ({ kind: 'index', index: d.index, id: d.id, routing: d.routing, source: d.source }));
    if (piped.length === 0) return out;
    const outcomes = await runWritePipelines(this.ingest, piped.map((i) => ({ ...docs[i], pipelines: chains[i] })));
    piped.forEach((i, k) => (out[i] = outcomes[k]));
    return out;
  }

  /**
   * Checks a write where it lands (see the file header); `bulk` adds the shard-level bulk action,
   * which `_bulk` and the by-scroll APIs' child bulk requests need and single-document writes do not.
   */
  authorizeLanding(authorize: Authorize | undefined, op: WriteOp, index: string, bulk: boolean): void {
    if (!authorize) return;
    if (bulk) authorize('indices:data/write/bulk[s]', [index]);
    authorize(OP_ACTIONS[op], [index]);
    if (op !== 'delete' && !this.indices.exists(index)) authorize('indices:admin/auto_create', [index]);
  }

  /** The index a write lands in: auto-created when missing, except for deletes (ES TransportBulkAction). */
  target(op: WriteOp, index: string): IndexService {
    return op === 'delete' ? this.indices.requireWrite(index) : this.indices.getOrAutoCreate(index);
  }

  /**
   * What every write does before answering: its translog records fsynced (group commit, shared
   * with concurrent requests), indices and mappings it created saved, the answer held while
   * refreshes of its shards cannot keep up (indexing-memory-controller.ts), then the request's
   * refresh policy applied to the shards it touched. True when a refresh was forced.
   */
  async complete(policy: RefreshPolicy, touched: ReadonlyMap<IndexService, Iterable<number>>): Promise<boolean> {
    const shards = [...touched].map(([index, ids]) => [index, [...new Set(ids)]] as const);
    await Promise.all(shards.map(([index, ids]) => index.sync(ids)));
    await this.indices.persist();
    await this.indices.throttleWrites(shards.flatMap(([index, ids]) => ids.map((s) => index.shards[s])));
    const forced = await Promise.all(shards.map(([index, ids]) => applyRefresh(policy, index, ids)));
    return forced.some((f) => f);
  }
}

/** Applies the request's refresh policy to the shards a write touched; true when it forced one. */
async function applyRefresh(policy: RefreshPolicy, index: IndexService, shardIds: readonly number[]): Promise<boolean> {
  if (policy === 'none') return false;
  const shards = shardIds.map((s) => index.shards[s]);
  if (policy === 'immediate' || index.resolvedSettings.refreshIntervalMs <= 0) {
    await Promise.all(shards.map((s) => s.refresh()));
    return policy === 'immediate';
  }
  await Promise.all(shards.map((s) => s.waitForRefresh()));
  return false;
}

/** Shards a batch of writes touched, per index. */
export class TouchedShards extends Map<IndexService, Set<number>> {
  touch(index: IndexService, shard: number): void {
    let s = this.get(index);
    if (!s) this.set(index, (s = new Set()));
    s.add(shard);
  }
}
