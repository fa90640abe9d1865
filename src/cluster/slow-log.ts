/**
 * ES's search and indexing slow logs (SearchSlowLog, IndexingSlowLog): a shard's query or fetch
 * phase, or one document's indexing, that took longer than an index's threshold is logged at the
 * most severe level whose threshold it exceeds (warn, info, debug, trace; -1 disables a level), on
 * the loggers `index.search.slowlog.query`, `index.search.slowlog.fetch` and
 * `index.indexing.slowlog.index`, with ES's fields. Thresholds are index settings, read at each
 * event, so `PUT /{index}/_settings` applies to the next search; with every threshold off (the
 * default) the cost is one null check.
 */
import type { SlowLogSettings, SlowLogThresholds } from '../index/index.js';
import type { Logger } from '../logging/index.js';

type Level = 'warn' | 'info' | 'debug' | 'trace';

/** ES: the most severe level whose threshold (≥ 0) the time exceeds; null when none is. */
export function slowLogLevel(t: SlowLogThresholds, tookMs: number): Level | null {
  if (t.warn >= 0 && tookMs > t.warn) return 'warn';
  if (t.info >= 0 && tookMs > t.info) return 'info';
  if (t.debug >= 0 && tookMs > t.debug) return 'debug';
  if (t.trace >= 0 && tookMs > t.trace) return 'trace';
  return null;
}

const UNITS: ReadonlyArray<[string, number]> = [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1], ['micros', 1e-3], ['nanos', 1e-6]];

/** ES TimeValue.toString: the largest unit with a value of at least 1, one decimal at most (`12.3ms`, `1.5s`). */
export function formatTook(ms: number): string {
  for (const [unit, size] of UNITS) {
    if (ms >= size || unit === 'nanos') return `${Math.round((ms / size) * 10) / 10}${unit}`;
  }
  return `${ms}ms`;
}

/** ES Strings.cleanTruncate: at most `chars` characters, never half a surrogate pair. */
export function truncateSource(text: string, chars: number): string {
  if (text.length <= chars) return text;
  let end = chars;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}

/** JSON text as one compact line (what ES logs); text that is not JSON is kept as sent. */
function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** The shard of a search phase, as the slow log names it (`[index][shard]`). */
export interface SlowLogShard {
  readonly index: { readonly name: string; readonly resolvedSettings: { readonly slowLog: SlowLogSettings } };
  readonly shardId: number;
}

/**
 * The request body as sent (null: none), or how to get it: a large body's text is decoded from its
 * bytes only when a line is written.
 */
export type SlowLogSource = string | null | (() => string | null);

/** What a search line says about the request: its body and how many shards it ran on. */
export interface SearchSlowLogRequest {
  readonly source: SlowLogSource;
  readonly totalShards: number;
}

export class SlowLog {
  private readonly query: Logger;
  private readonly fetch: Logger;
  private readonly indexing: Logger;

  constructor(logger: Logger) {
    this.query = logger.child({ logger: 'index.search.slowlog.query' });
    this.fetch = logger.child({ logger: 'index.search.slowlog.fetch' });
    this.indexing = logger.child({ logger: 'index.indexing.slowlog.index' });
  }

  /** A shard's query phase ended after `tookMs` with `totalHits` (-1: not counted). */
  onQueryPhase(shard: SlowLogShard, tookMs: number, totalHits: number, request: SearchSlowLogRequest): void {
    const t = shard.index.resolvedSettings.slowLog.query;
    if (t !== null) this.searchLine(this.query, t, shard, tookMs, totalHits, request);
  }

  onFetchPhase(shard: SlowLogShard, tookMs: number, totalHits: number, request: SearchSlowLogRequest): void {
    const t = shard.index.resolvedSettings.slowLog.fetch;
    if (t !== null) this.searchLine(this.fetch, t, shard, tookMs, totalHits, request);
  }

  private searchLine(log: Logger, t: SlowLogThresholds, shard: SlowLogShard, tookMs: number, totalHits: number, request: SearchSlowLogRequest): void {
    const level = slowLogLevel(t, tookMs);
    if (level === null || !log.isLevelEnabled(level)) return;
    const chars = shard.index.resolvedSettings.slowLog.searchSourceChars;
    const source = chars === 0 ? null : typeof request.source === 'function' ? request.source() : request.source;
    log[level]({
      index: shard.index.name,
      shard: shard.shardId,
      took: formatTook(tookMs),
      took_millis: Math.floor(tookMs),
      total_hits: totalHits < 0 ? '-1' : `${totalHits} hits`,
      search_type: 'QUERY_THEN_FETCH',
      total_shards: request.totalShards,
      source: chars === 0 ? undefined : truncateSource(source === null ? '{}' : compactJson(source), chars),
    }, `[${shard.index.name}][${shard.shardId}]`);
  }

  /** One document indexed into `index` (ES logs `[index/uuid]`, the id, the routing and the source). */
  onIndex(
    index: { readonly name: string; readonly uuid: string; readonly resolvedSettings: { readonly slowLog: SlowLogSettings } },
    shard: number, tookMs: number, id: string, routing: string | null, source: string,
  ): void {
    const s = index.resolvedSettings.slowLog;
    if (s.index === null) return;
    const level = slowLogLevel(s.index, tookMs);
    if (level === null || !this.indexing.isLevelEnabled(level)) return;
    const text = s.indexingReformat ? compactJson(source) : source;
    this.indexing[level]({
      index: index.name,
      shard,
      took: formatTook(tookMs),
      took_millis: String(Math.floor(tookMs)),
      id,
      ...(routing !== null ? { routing } : {}),
      ...(s.indexingSourceChars > 0 && source.length > 0 ? { source: truncateSource(text, s.indexingSourceChars).trim() } : {}),
    }, `[${index.name}/${index.uuid}]`);
  }
}
