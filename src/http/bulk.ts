/**
 * `_bulk` (ES RestBulkAction + TransportBulkAction): the NDJSON body is parsed by
 * `dsl/bulk-request.ts` (structural errors fail the whole request, 400); everything about one item
 * fails only that item, reported in place with its status, and never affects the others.
 */
import { ActionRequestValidationError, EsError, IllegalArgumentError, InternalError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import {
  parseBulkBody, parseDocumentLine, parseJson, parseSourceFilter, parseUpdateRequest, withBodyPositions, type BulkItem, type SourceFilter,
} from '../dsl/index.js';
import { TouchedShards, type WriteFlow, type WriteOptions } from '../cluster/index.js';
import { authorizeOf, droppedBody, ids, writeOptions } from './documents.js';
import type { WriteDocumentOutcome } from '../ingest/index.js';
import { longParam, refreshParam } from './params.js';
import type { RestRequest, RestResponse, RouteDef } from './rest.js';
import { updateGetSection, writeStatus } from './write-responses.js';
import { BulkItemObjects, RenderedBulkItems, type BulkItems } from './bulk-items.js';

/** Metadata keys that make an item's write options differ from the request's own. */
const OPTION_KEYS = ['routing', 'if_seq_no', 'if_primary_term', 'version', 'version_type', 'pipeline'] as const;

/**
 * The write options of every item, computed once per request and action for the items whose
 * metadata carries none of OPTION_KEYS (the usual `{"index":{"_index":…,"_id":…}}`), per item otherwise.
 */
function itemOptionsOf(query: RestRequest['query']): (item: BulkItem) => WriteOptions {
  const shared = new Map<BulkItem['action'], WriteOptions>();
  return (item) => {
    if (OPTION_KEYS.some((k) => item.meta[k] !== undefined)) return itemOptions(item, query);
    let opts = shared.get(item.action);
    if (opts === undefined) shared.set(item.action, (opts = itemOptions(item, query)));
    return opts;
  };
}

function itemOptions(item: BulkItem, query: RestRequest['query']): WriteOptions {
  const meta = item.meta;
  const merged = {
    ...query,
    ...(meta.routing !== undefined ? { routing: String(meta.routing) } : {}),
    ...(meta.if_seq_no !== undefined ? { if_seq_no: String(meta.if_seq_no) } : {}),
    ...(meta.if_primary_term !== undefined ? { if_primary_term: String(meta.if_primary_term) } : {}),
    ...(meta.version !== undefined ? { version: String(meta.version) } : {}),
    ...(meta.version_type !== undefined ? { version_type: String(meta.version_type) } : {}),
    ...(meta.pipeline !== undefined ? { pipeline: String(meta.pipeline) } : {}),
  };
  const opts = writeOptions({ ...merged, refresh: undefined }, item.action === 'create');
  return { ...opts, ifSeqNo: longParam(merged, 'if_seq_no'), ifPrimaryTerm: longParam(merged, 'if_primary_term') };
}

function itemError(item: BulkItem, id: string | null, e: unknown): Record<string, unknown> {
  let err = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
  // Parse errors in an update body are located in its own line, as ES parses each line separately.
  if (item.source !== null) err = withBodyPositions(err, item.source);
  return { [item.action]: { _index: item.index, _id: id, status: err.status, error: err.toObject() } };
}

/** A bulk item once its options, authorization and source line are checked (before pipelines). */
interface PreparedItem {
  readonly item: BulkItem;
  readonly id: string | null;
  readonly opts: WriteOptions | null;
  readonly error: unknown;
  /**
   * The parsed source line of an index/create item that runs pipelines (they need it before any
   * write); undefined for one that runs none, whose line writeItem parses with `parser` (see
   * prepareItem); null for the other actions.
   */
  readonly parsed: unknown;
  /** How an index/create item without pipelines parses its source line when it is written. */
  readonly parser: SourceParser;
  /** The item's pipeline (`pipeline` or `?pipeline=`); null = the index's default. */
  readonly requestPipeline: string | null;
  readonly piped: boolean;
  outcome?: WriteDocumentOutcome;
}

/** How a target index parses its sources (WriteFlow.sourceParserFor). */
type SourceParser = ReturnType<WriteFlow['sourceParserFor']>;

/** `ingest_took`'s absence when no pipeline ran, as ES renders it. */
const NO_INGEST = -1;

/**
 * ES authorizes bulk items per index (the shard-level `bulk[s]` action), then the item's own
 * action; a refused item fails alone with 403, as ES reports it.
 */
function prepareItem(
  writes: WriteFlow, req: RestRequest, item: BulkItem, optionsOf: (item: BulkItem) => WriteOptions, hasPipelines: (index: string, pipeline: string | null) => boolean,
  sourceParserOf: (index: string, pipeline: string | null) => SourceParser,
): PreparedItem {
  const id = item.id ?? (item.action === 'index' || item.action === 'create' ? ids.next() : null);
  try {
    const opts = optionsOf(item);
    writes.authorizeLanding(authorizeOf(req), item.action, item.index!, true);
    if (item.action !== 'index' && item.action !== 'create') return { item, id, opts, error: null, parsed: null, parser: null, requestPipeline: null, piped: false };
    const requestPipeline = item.meta.pipeline !== undefined ? String(item.meta.pipeline) : req.query.pipeline ?? null;
    const parser = sourceParserOf(item.index!, requestPipeline);
    // Without pipelines the source line is parsed when the item is written, not here: the parsed
    // objects of a whole request (~0.5 KB a document) then die one by one as their items are
    // written, instead of all living until the last one is — through the young generation's
    // scavenges, which copy them (issue 22). Same parser, same errors, same item order; a line that
    // fails to parse still fails only its item, before its index is auto-created.
    if (!hasPipelines(item.index!, requestPipeline)) return { item, id, opts, error: null, parsed: undefined, parser, requestPipeline, piped: false };
    const parsed = parseDocumentLine(item.source!, parser);
    return { item, id, opts, error: null, parsed, parser, requestPipeline, piped: isPlainObject(parsed) };
  } catch (e) {
    return { item, id, opts: null, error: e, parsed: null, parser: null, requestPipeline: null, piped: false };
  }
}

/**
 * One item's write, its result appended to `results`; true when it failed. A function per item,
 * not the body of executeBulk's loop: V8 then optimizes it as a function after a few hundred items
 * instead of compiling the whole async executeBulk on the fly (OSR) and again after each deopt in
 * the code around the loop, which a fresh server's first requests did ~8 times (issue 19).
 */
function writeItem(writes: WriteFlow, req: RestRequest, p: PreparedItem, touched: TouchedShards, results: BulkItems): boolean {
  const item = p.item;
  let id = p.id;
  try {
    if (p.error !== null) throw p.error;
    let opts = p.opts!;
    let indexName = item.index!;
    let text = item.source;
    let parsed = p.parsed;
    if (parsed === undefined) parsed = parseDocumentLine(text!, p.parser);
    let autoGeneratedId = item.id === null;
    if (p.outcome) {
      if (p.outcome.kind === 'failed') throw p.outcome.error;
      if (p.outcome.kind === 'dropped') {
        results.other({ [item.action]: droppedBody(indexName, id!) });
        return false;
      }
      // The pipeline may have rerouted the document (`_index`, `_id`, `_routing`).
      if (p.outcome.index !== indexName) writes.authorizeLanding(authorizeOf(req), item.action, p.outcome.index, true);
      indexName = p.outcome.index;
      autoGeneratedId = p.outcome.id === null || (autoGeneratedId && p.outcome.id === p.id);
      id = p.outcome.id ?? ids.next();
      opts = { ...opts, routing: p.outcome.routing };
      parsed = p.outcome.source;
      text = JSON.stringify(parsed);
    }
    // ES auto-creates missing indices for every bulk action except delete.
    const index = writes.target(item.action, indexName);
    let result;
    let getSource: SourceFilter | null = null;
    if (item.action === 'delete') {
      result = index.delete(id!, opts);
    } else if (item.action === 'update') {
      const body = parseJson(item.source!);
      if (!isPlainObject(body)) throw new IllegalArgumentError('Failed to parse update request body');
      const update = parseUpdateRequest(body);
      // The update line's `_source` wins over the action line's (ES BulkRequestParser).
      getSource = update.source ?? (item.meta._source !== undefined ? parseSourceFilter(item.meta._source) : null);
      result = index.update(id!, update, opts);
    } else {
      result = index.index(id!, text!, parsed, opts, autoGeneratedId);
    }
    touched.touch(index, result.shard);
    const status = item.action === 'update' && result.result === 'noop' ? 200 : writeStatus(result.result);
    results.written(item.action, index, result, status, updateGetSection(index, result.id, opts.routing, getSource));
    return false;
  } catch (e) {
    results.other(itemError(item, id, e));
    return true;
  }
}

export async function executeBulk(writes: WriteFlow, req: RestRequest, defaultIndex: string | null): Promise<RestResponse> {
  const start = performance.now();
  const policy = refreshParam(req.query);
  // Only `refresh=true` can mark items `forced_refresh`, known once the request is complete; any
  // other request's items are rendered as they are written (bulk-items.ts).
  const results: BulkItems = policy === 'immediate' ? new BulkItemObjects() : new RenderedBulkItems();
  const { touched, errors, ingestTook } = await applyBulk(writes, req, defaultIndex, results);
  // Durable before acknowledged: every touched shard's translog synced together (one fsync each,
  // shared with concurrent requests), indices created by items that then failed saved too.
  const forced = await writes.complete(policy, touched);
  const took = Math.round(performance.now() - start);
  const head = ingestTook === NO_INGEST ? `{"took":${took},"errors":${errors},"items":[` : `{"took":${took},"ingest_took":${ingestTook},"errors":${errors},"items":[`;
  return { body: results.finish(head, forced) };
}

/**
 * Parses the body, runs the pipelines and applies every item; returns their results. A function of
 * its own, so the items — each source line's string and parsed object, ~1 KB a document — are
 * garbage once it returns, not held by executeBulk's frame through the translog sync and a throttled
 * write's wait for a refresh (up to seconds): the young generation collects them, where before each
 * request's 5,000 survived its scavenges and were promoted to die in the old generation (issue 19).
 */
async function applyBulk(writes: WriteFlow, req: RestRequest, defaultIndex: string | null, results: BulkItems): Promise<{ touched: TouchedShards; errors: boolean; ingestTook: number }> {
  // The bytes when the body came over HTTP (split and decoded line by line), else the text.
  const body = req.bytes ?? req.body;
  if (body === null) throw new ActionRequestValidationError(['no requests added']);
  const items = parseBulkBody(body, defaultIndex);
  if (items.length === 0) throw new ActionRequestValidationError(['no requests added']);
  const optionsOf = itemOptionsOf(req.query);
  // Whether an index runs pipelines is the same for every item of a request that targets it.
  const piping = new Map<string, boolean>();
  const hasPipelines = (index: string, pipeline: string | null): boolean => {
    const key = pipeline === null ? index : `${index}\u0000${pipeline}`;
    let has = piping.get(key);
    if (has === undefined) piping.set(key, (has = writes.pipelinesFor(index, pipeline).length > 0));
    return has;
  };
  // Likewise how its sources parse (feature objects read from the text when it has feature fields).
  const sourceParsers = new Map<string, SourceParser>();
  const sourceParserOf = (index: string, pipeline: string | null): SourceParser => {
    const key = pipeline === null ? index : `${index}\u0000${pipeline}`;
    let parse = sourceParsers.get(key);
    if (parse === undefined) sourceParsers.set(key, (parse = writes.sourceParserFor(index, pipeline)));
    return parse;
  };
  const prepared = items.map((item) => prepareItem(writes, req, item, optionsOf, hasPipelines, sourceParserOf));
  // Every pipeline runs before anything is written (ES ingests the whole bulk first), batched so
  // an inference processor makes one model request for the bulk.
  let ingestTook = NO_INGEST;
  const piped = prepared.filter((p) => p.error === null && p.piped);
  if (piped.length > 0) {
    const t0 = performance.now();
    const outcomes = await writes.runPipelines(piped.map((p) => ({
      index: p.item.index!, id: p.id, routing: p.opts!.routing, source: p.parsed as Record<string, unknown>, requestPipeline: p.requestPipeline,
    })));
    outcomes.forEach((o, k) => (piped[k].outcome = o));
    ingestTook = Math.round(performance.now() - t0);
  }
  const touched = new TouchedShards();
  let errors = false;
  // Each item let go once written: its source line (and parsed object) are garbage from then on.
  const pending = prepared as Array<PreparedItem | null>;
  for (let i = 0; i < pending.length; i++) {
    if (writeItem(writes, req, pending[i]!, touched, results)) errors = true;
    pending[i] = null;
    (items as Array<BulkItem | null>)[i] = null;
  }
  return { touched, errors, ingestTook };
}

export function bulkRoutes(writes: WriteFlow): RouteDef[] {
  const params = ['refresh', 'routing', 'pipeline', 'timeout', 'wait_for_active_shards', 'require_alias', 'require_data_stream', '_source', '_source_includes', '_source_excludes', 'list_executed_pipelines'];
  return [
    { methods: ['POST', 'PUT'], paths: ['/_bulk'], authz: { action: 'indices:data/write/bulk', perItem: true }, params, ndjson: true, handler: (req) => executeBulk(writes, req, null) },
    { methods: ['POST', 'PUT'], paths: ['/:index/_bulk'], authz: { action: 'indices:data/write/bulk', perItem: true }, params, ndjson: true, handler: (req) => executeBulk(writes, req, req.params.index) },
  ];
}
