/**
 * Every message between the coordinator and the worker pool, by name. Workers receive plain data
 * and SharedArrayBuffers; they reply with plain data and typed arrays (moved, not copied).
 *
 * Segments reach workers once: the coordinator announces each new segment (and each new live-docs
 * bitset) on the SEGMENT_CHANNEL broadcast channel, and tasks refer to them by id. A worker that
 * has not seen an id (one started after the announcement) answers `missing`, and the coordinator
 * resends the task with the buffers inline.
 */
import type { MessagePort } from 'node:worker_threads';
import type { PlainError } from '../src/errors/index.js';
import type { DocumentParseLimits, IndexCodec, IndexTextSettings, RootMapping } from '../src/index/index.js';
import type { Exec, ShardSearchRequest, ShardSearchResult } from '../src/search/index.js';
import type { ModelSpec } from '../src/ml/index.js';
import { getHeapSpaceStatistics } from 'node:v8';
import { leasePages } from '../src/common/page-leases.js';

export const SEGMENT_CHANNEL = 'threadsearch:segments';

export type SegmentChannelMessage =
  | { readonly op: 'add'; readonly id: string; readonly sab: SharedArrayBuffer }
  | { readonly op: 'drop'; readonly id: string }
  /** Asks every worker for its V8 heap figures, answered on WORKER_MEMORY_CHANNEL. */
  | { readonly op: 'memory' }
  /** The node went idle after writes: collect the garbage they left (cluster/idle-collector.ts), then report as for `memory`. */
  | { readonly op: 'gc' };

/** Where workers report their memory (`_nodes/stats`). */
export const WORKER_MEMORY_CHANNEL = 'threadsearch:worker-memory';

/**
 * One V8 isolate's heap by generation, in the shape of ES's `jvm.mem.pools` (young / old): how much
 * of a thread's heap is its young generation (the semi-spaces, which a load grows to their limit)
 * and how much old space. Workers report theirs in WorkerMemory; the coordinator reports its own the
 * same way (`_nodes/stats`; issue 22: what a bulk load's RSS peak is made of).
 */
export interface HeapPool {
  /** Bytes of live and not yet collected objects in the pool's spaces. */
  readonly used: number;
  /** Bytes the pool's spaces have committed (V8's `space_size`): what the pool costs in RSS. */
  readonly committed: number;
}

export interface HeapPools {
  readonly young: HeapPool;
  readonly old: HeapPool;
}

/** V8's young-generation spaces; every other space (old, code, map, large objects) is the old pool. */
const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/** This isolate's young and old pools (a few µs: one V8 call per space). */
export function heapPools(): HeapPools {
  let youngUsed = 0;
  let youngCommitted = 0;
  let oldUsed = 0;
  let oldCommitted = 0;
  for (const s of getHeapSpaceStatistics()) {
    // The read-only space is shared by every isolate of the process and mapped from the binary.
    if (s.space_name === 'read_only_space') continue;
    if (YOUNG_SPACES.has(s.space_name)) {
      youngUsed += s.space_used_size;
      youngCommitted += s.space_size;
    } else {
      oldUsed += s.space_used_size;
      oldCommitted += s.space_size;
    }
  }
  return { young: { used: youngUsed, committed: youngCommitted }, old: { used: oldUsed, committed: oldCommitted } };
}

/** One worker thread's V8 heap, as `process.memoryUsage()` reports it there. */
export interface WorkerMemory {
  readonly threadId: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly arrayBuffers: number;
  /** The heap by generation (young: the semi-spaces; old: everything else). */
  readonly pools: HeapPools;
  /** The request this report answers: after a `gc` the worker has collected first. */
  readonly after: 'memory' | 'gc';
}

/** A segment as a task refers to it: its id and the id of its live-docs bitset (null = all live). */
export interface SegmentRef {
  readonly segment: string;
  readonly liveDocs: string | null;
}

/** Buffers for ids a worker reported missing. */
export type InlineBuffers = Readonly<Record<string, SharedArrayBuffer>>;

export interface SearchShardTask {
  readonly segments: readonly SegmentRef[];
  readonly request: ShardSearchRequest;
  readonly inline?: InlineBuffers;
}

/** Several shard searches in one task: under load the pool batches what is waiting (one round trip each). */
export interface SearchBatchTask {
  readonly searches: readonly SearchShardTask[];
}

/**
 * A search worker's own channel to the coordinator (workers/search.ts announces it at start-up on
 * its parent port, cluster/search-channel.ts uses it): shard searches go to a chosen thread as one
 * message per batch, without a pool task around each. `poolTask` is non-zero while the thread runs
 * a pool task (a segment build or merge), so the coordinator sends searches elsewhere meanwhile.
 */
export const SEARCH_PORT = 'threadsearch:search-port';

export interface SearchPortAnnouncement {
  readonly op: typeof SEARCH_PORT;
  readonly threadId: number;
  readonly port: MessagePort;
  readonly poolTask: Int32Array;
}

/**
 * One batch on a search channel; the channel carries one batch at a time, and one more queued
 * behind it under a deep queue (the worker answers them in order). A plan the coordinator
 * keeps in its plan cache (a load test's repeated query) crosses each channel once: the worker
 * keeps it by id (`plans`) until told to let go (`dropPlans`, the coordinator's bound on what it
 * holds), and later searches name it by `planId` with `request.query` null, so neither thread
 * clones the plan's tree again.
 */
export interface SearchChannelRequest {
  /**
   * The searches that go as objects: every one when `rows` is absent, else those whose row says
   * CHANNEL_FULL, in batch order.
   */
  readonly searches: readonly ChannelSearch[];
  /** Plans to keep from now on, as [id, plan] pairs (each sent once per channel). */
  readonly plans: ReadonlyArray<readonly [number, Exec]> | null;
  /** Ids of kept plans to let go of, before `plans` are added. */
  readonly dropPlans: readonly number[] | null;
  /**
   * The batch as rows of CHANNEL_ROW numbers, one per search in batch order (absent: `searches` is
   * the batch). A plain search with a kept plan (what a load test's `_search` and `_msearch` items
   * are) is a row: [planId, k, trackTotalHitsUpTo, trackScores, terminateAfter, deadline, index in
   * `refs`, index in `fetches` or −1]. Any other search has CHANNEL_FULL as its planId and goes in
   * `searches`. V8's structured clone writes every property name of every object it copies and the
   * receiver rebuilds each object key by key: 16 searches as objects cost the two threads ~5 µs
   * per search, as rows a fraction of it (docs/benchmarks/issue-19-request-hot-path.md `msearch-i19x`).
   */
  readonly rows?: Float64Array | null;
  /** The distinct segment lists the rows name (usually one: every search of one shard snapshot). */
  readonly refs?: ReadonlyArray<readonly SegmentRef[]> | null;
  /** The distinct fetches the rows name (usually one shared object: search-phase.ts shardFetch). */
  readonly fetches?: ReadonlyArray<NonNullable<ShardSearchRequest['fetch']>> | null;
  /** Page buffers of earlier replies whose pages have all been read out, sent back for reuse (transferred). */
  readonly spares?: ArrayBuffer[] | null;
}

/** Numbers per search in SearchChannelRequest.rows. */
export const CHANNEL_ROW = 8;
/** A row's planId when the search goes as an object (SearchChannelRequest.searches). */
export const CHANNEL_FULL = -2;

/** A shard search on a search channel: its plan inline (`planId` −1), or a plan the worker keeps. */
export interface ChannelSearch {
  readonly segments: readonly SegmentRef[];
  /** `query` is null when `planId` names a kept plan. */
  readonly request: Omit<ShardSearchRequest, 'query'> & { query: Exec | null };
  readonly planId: number;
}

/**
 * Whether a search with a kept plan can go as a row: nothing a row has no number for (sort,
 * search_after, min_score, aggregations, suggestions, rescorers, collapse, an absent deadline).
 */
export function rowSearch(request: Omit<ShardSearchRequest, 'query'>): boolean {
  return request.minScore === null && request.sort === null && request.searchAfter === null && request.deadline !== undefined
    && (request.aggs === undefined || request.aggs === null) && (request.suggest === undefined || request.suggest === null)
    && (request.rescore === undefined || request.rescore === null)
    && (request.collapse === undefined || request.collapse === null) && (request.knnCandidates === undefined || request.knnCandidates === null);
}

/** The worker's side of a row (rows[o…o + CHANNEL_ROW)): the request it stands for, with its plan. */
export function rowRequest(rows: Float64Array, o: number, plan: Exec, fetches: SearchChannelRequest['fetches']): ShardSearchRequest {
  const f = rows[o + 7];
  return {
    query: plan, k: rows[o + 1], trackTotalHitsUpTo: rows[o + 2], minScore: null, sort: null, trackScores: rows[o + 3] !== 0,
    searchAfter: null, terminateAfter: rows[o + 4], fetch: f < 0 ? null : fetches![f], deadline: rows[o + 5], aggs: null, suggest: null,
  };
}

export interface SearchChannelReply {
  /** The replies that go as objects: every one when `rows` is absent, else those whose row says so. */
  readonly replies: SearchBatchReply;
  /** Time the worker spent on the batch (the pool's run-time statistics). */
  readonly runMs: number;
  /**
   * The replies as rows of REPLY_ROW numbers in batch order (absent: `replies` is the batch). A
   * result with no sort values, aggregations or suggestions is a row: [0, totalHits, relation gte
   * (1) or eq (0), maxScore, terminatedEarly (1) + timedOut (2), its hits' length in `hits`, its
   * page's offset in `pages`, its page's length or −1 for none]; any other reply (an error, a
   * `missing`) has 1 first and goes in `replies`.
   */
  readonly rows?: Float64Array | null;
  /** The row results' hits, one after another. */
  readonly hits?: Float64Array | null;
  /** The batch's rendered pages (transferred). */
  readonly pages?: ArrayBuffer | null;
  /**
   * `pages` goes round: the coordinator sends it back (SearchChannelRequest.spares) once it has read
   * every page (common/page-leases.ts, workers/page-buffers.ts).
   */
  readonly returnable?: boolean;
}

/** Numbers per reply in SearchChannelReply.rows. */
export const REPLY_ROW = 8;

/**
 * A batch's replies as rows (the worker's side; `transfer`: what to move rather than copy). The page
 * buffer goes round (`returnable`, workers/page-buffers.ts) when it is no larger than `returnableUpTo`:
 * a larger one was written fresh for one large batch. 0: none goes round.
 */
export function encodeChannelReply(replies: SearchBatchReply, runMs: number, returnableUpTo = 0): { readonly answer: SearchChannelReply; readonly transfer: ArrayBuffer[] } {
  const n = replies.length;
  const rows = new Float64Array(n * REPLY_ROW);
  const objects: SearchShardReply[] = [];
  // The batch's one page buffer (workers/search.ts movePages), moved whatever goes as rows.
  let pages: ArrayBuffer | null = null;
  for (let i = 0; i < n && pages === null; i++) {
    const r = replies[i];
    if (r.ok && r.value.rendered !== undefined) pages = r.value.rendered.buffer as ArrayBuffer;
  }
  let hitCount = 0;
  for (let i = 0; i < n; i++) {
    const r = replies[i];
    if (r.ok && asRow(r.value, pages)) hitCount += r.value.hits.length;
  }
  const hits = new Float64Array(hitCount);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const r = replies[i];
    const o = i * REPLY_ROW;
    if (!r.ok || !asRow(r.value, pages)) {
      rows[o] = 1;
      objects.push(r);
      continue;
    }
    const v = r.value;
    rows[o + 1] = v.totalHits;
    rows[o + 2] = v.totalRelation === 'gte' ? 1 : 0;
    rows[o + 3] = v.maxScore;
    rows[o + 4] = (v.terminatedEarly ? 1 : 0) | (v.timedOut ? 2 : 0);
    rows[o + 5] = v.hits.length;
    hits.set(v.hits, at);
    at += v.hits.length;
    if (v.rendered === undefined) rows[o + 7] = -1;
    else {
      rows[o + 6] = v.rendered.byteOffset;
      rows[o + 7] = v.rendered.byteLength;
    }
  }
  const goesRound = pages !== null && pages.byteLength > 0 && pages.byteLength <= returnableUpTo;
  return { answer: { replies: objects, runMs, rows, hits, pages, returnable: goesRound }, transfer: pages === null ? [] : [pages] };
}

/** A result a reply row can carry: nothing but the numbers, the hits and a page in `pages`. */
function asRow(v: ShardSearchResult, pages: ArrayBuffer | null): boolean {
  return v.sortValues === null && v.aggs === undefined && v.suggest === undefined && v.rescoreScores === undefined && v.collapseValues === undefined
    && (v.rendered === undefined || v.rendered.buffer === pages);
}

/**
 * The coordinator's side: the replies, in batch order, as the worker's objects were. `spares`: where
 * a returnable page buffer goes once every page in it has been read out (its channel's list of
 * buffers to send back, at most `keep`); null: not sent back.
 */
export function decodeChannelReply(answer: SearchChannelReply, spares: ArrayBuffer[] | null = null, keep = 0): SearchBatchReply {
  const rows = answer.rows;
  const pages = answer.pages ?? null;
  // Every page in the buffer, rows' and objects' alike, is leased: it goes back when all are read.
  const leased: Uint8Array[] | null = answer.returnable === true && pages !== null && spares !== null ? [] : null;
  if (rows === undefined || rows === null) {
    if (leased !== null) lease(answer.replies, pages!, leased, spares!, keep);
    return answer.replies;
  }
  const n = rows.length / REPLY_ROW;
  const out = new Array<SearchShardReply>(n);
  const hits = answer.hits!;
  let at = 0;
  let next = 0;
  for (let i = 0; i < n; i++) {
    const o = i * REPLY_ROW;
    if (rows[o] !== 0) {
      out[i] = answer.replies[next++];
      continue;
    }
    const length = rows[o + 5];
    const page = rows[o + 7];
    const flags = rows[o + 4];
    out[i] = {
      ok: true,
      value: {
        totalHits: rows[o + 1], totalRelation: rows[o + 2] === 1 ? 'gte' : 'eq', maxScore: rows[o + 3], hits: hits.subarray(at, at + length), sortValues: null,
        terminatedEarly: (flags & 1) !== 0, timedOut: (flags & 2) !== 0, rendered: page < 0 ? undefined : new Uint8Array(pages!, rows[o + 6], page),
      },
    };
    at += length;
  }
  if (leased !== null) lease(out, pages!, leased, spares!, keep);
  return out;
}

/** Leases the pages of `replies` that are views of `pages` (common/page-leases.ts). */
function lease(replies: SearchBatchReply, pages: ArrayBuffer, leased: Uint8Array[], spares: ArrayBuffer[], keep: number): void {
  for (const r of replies) if (r.ok && r.value.rendered !== undefined && r.value.rendered.buffer === pages) leased.push(r.value.rendered);
  leasePages(pages, leased, spares, keep);
}

export type WorkerReply<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly missing: readonly string[] }
  | { readonly ok: false; readonly error: PlainError };

export interface BuildSegmentTask {
  readonly segmentId: string;
  readonly mapping: RootMapping;
  readonly limits: DocumentParseLimits;
  /** The index's analysis and similarity settings, as plain data (text-analysis.ts). */
  readonly text: IndexTextSettings;
  /** `index.codec`: how the segment's stored `_source` is compressed. */
  readonly codec: IndexCodec;
  /**
   * The documents as columns (ShardSegments.build: buildColumns): their ids and sources, and their
   * numbers in one array — seqNo of every doc, then version, then indexOrder. A task of 5–10k
   * documents as objects made the structured clone write (and the worker rebuild) an object with
   * five named fields per document, 6–10% of the coordinator's CPU in a bulk load (issue 19).
   */
  readonly ids: readonly string[];
  /**
   * Where the sources' UTF-8 bytes are: the coordinator's indexing-buffer chunks (shared, not
   * copied; cluster/indices/indexing-buffer.ts buildColumns), and runs of documents that follow one
   * another in a chunk — `sourceRuns` holds (chunk, first byte, end byte) per run, `runFirstDoc` the
   * task's doc each run starts at (then the doc count). `sourceOffsets` / `sourceCharOffsets` are
   * each doc's offset in all the task's bytes / their text (UTF-16): a run is decoded at once and
   * each document sliced from it.
   */
  readonly sourceChunks: readonly SharedArrayBuffer[];
  readonly sourceRuns: Uint32Array;
  readonly runFirstDoc: Uint32Array;
  readonly sourceOffsets: Uint32Array;
  readonly sourceCharOffsets: Uint32Array;
  readonly numbers: Float64Array;
}

export interface MergeSegmentsTask {
  readonly segmentId: string;
  readonly sources: readonly SegmentRef[];
  readonly codec: IndexCodec;
  readonly inline?: InlineBuffers;
}

export interface SegmentBuilt {
  readonly sab: SharedArrayBuffer;
  readonly maxDoc: number;
}

export type SearchShardReply = WorkerReply<ShardSearchResult>;
export type SearchBatchReply = readonly SearchShardReply[];
export type MergeSegmentsReply = WorkerReply<SegmentBuilt>;

/**
 * ML inference (workers/encode.ts): one allocation's thread encodes its share of a request's texts.
 * Replies carry plain arrays (tokens) and a Float32Array per text.
 */
export interface EncodeTask {
  readonly texts: readonly string[];
  /** `query`: an idf-mode user model weights the texts from its idf.json without a model pass. */
  readonly purpose?: 'document' | 'query';
}

export interface EncodedText {
  readonly tokens: readonly string[];
  readonly weights: Float32Array;
  readonly isTruncated: boolean;
}

export type EncodeReply = { readonly ok: true; readonly value: readonly EncodedText[] } | { readonly ok: false; readonly error: PlainError };

/** Sent once to a fresh encode thread: it loads the model and reports what it measured. */
export interface DescribeModelTask {
  readonly sample: string;
}

export interface ModelDescription {
  /** The artifact's size in bytes (SparseModel.sizeBytes). */
  readonly sizeBytes: number;
  /** This thread's V8 heap + external memory after loading the model and encoding a sample, after a GC. */
  readonly threadFootprintBytes: number;
}

export type DescribeModelReply = { readonly ok: true; readonly value: ModelDescription } | { readonly ok: false; readonly error: PlainError };

/** `workerData` of encode threads: probe threads load the model lazily, to measure it. */
export interface EncodeWorkerData {
  readonly probe: boolean;
  /** Which model the thread loads (built-in, ONNX folder, simulation) and its runtime threads. */
  readonly model: ModelSpec;
}

/** A `Content-Encoding` a request body may arrive in (`identity` is none). */
export type ContentCoding = 'gzip' | 'deflate' | 'br';

/**
 * A large (or compressed) request body to decode and parse as JSON off the main thread
 * (cluster/body-pool.ts). A compressed body travels as sent, so the main thread never holds its
 * decoded text.
 */
export interface ReadBodyTask {
  /** The body's bytes as sent (UTF-8, or compressed with `coding`), transferred. */
  readonly bytes: Uint8Array;
  readonly coding: ContentCoding | null;
  /**
   * The most decoded bytes the body may have: `http.max_content_length`, or for a query DSL body
   * the least of it and `http.max_query_content_length`.
   */
  readonly maxContentLength: number;
  /**
   * A query DSL body's `http.max_query_token_count`, checked with its nesting on the bytes before
   * they are decoded (dsl/json-limits.ts); null for any other body (only its nesting is checked).
   */
  readonly maxTokenCount: number | null;
}

/**
 * The body's decoded bytes (transferred back, so its text is decoded on the main thread only if a
 * route asks for it) and its JSON value or the ES error parsing it gave; or why it could not be
 * decoded: `tooLong` past `maxContentLength`, `corrupt` with zlib's message.
 */
export type ReadBodyReply =
  | { readonly bytes: Uint8Array; readonly value: unknown }
  | { readonly bytes: Uint8Array; readonly error: PlainError }
  | { readonly tooLong: true }
  | { readonly corrupt: string };

/** Piscina task names (named exports of the worker modules). */
export const TASK = {
  search: 'search', searchBatch: 'searchBatch', build: 'build', merge: 'merge', encode: 'encode', describe: 'describe', ready: 'ready', readBody: 'readBody', prepare: 'prepare',
} as const;
