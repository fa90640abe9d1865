/**
 * The `_search` / `_count` request bodies → typed requests (ES SearchSourceBuilder.parseXContent).
 * Unknown top-level keys fail as in ES; keys ES knows but this server does not implement yet fail
 * with a clear `illegal_argument_exception` rather than being silently ignored.
 */
import { IllegalArgumentError, ParsingError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { isObject, readBoolean, readInt, readNumber, readString } from './parse-helpers.js';
import type { QueryNode } from './query-nodes.js';
import { parseQuery } from './queries/registry.js';
import { parseSort, type SortSpec } from './sort.js';
import { FETCH_ALL, parseSourceFilter, type SourceFilter } from './source-filter.js';

export const DEFAULT_SIZE = 10;
export const DEFAULT_TRACK_TOTAL_HITS_UP_TO = 10_000;
/** `track_total_hits: true` counts every hit. */
export const TRACK_TOTAL_HITS_ACCURATE = Number.MAX_SAFE_INTEGER;
/** `track_total_hits: false` omits `hits.total`. */
export const TRACK_TOTAL_HITS_DISABLED = -1;

export interface SearchRequest {
  readonly query: QueryNode | null;
  readonly from: number;
  readonly size: number;
  readonly sort: readonly SortSpec[] | null;
  readonly source: SourceFilter;
  readonly minScore: number | null;
  readonly trackTotalHitsUpTo: number;
  readonly trackScores: boolean;
  readonly explain: boolean;
  readonly version: boolean;
  readonly seqNoPrimaryTerm: boolean;
  readonly searchAfter: readonly unknown[] | null;
  readonly terminateAfter: number;
  readonly timeout: string | null;
  /** `stored_fields: "_none_"` drops `_source` and `_id`-only hits are returned. */
  readonly storedFieldsNone: boolean;
}

/** Members ES accepts that are not implemented here yet; requests using them fail clearly. */
const NOT_YET = new Set([
  'aggs', 'aggregations', 'highlight', 'post_filter', 'suggest', 'collapse', 'rescore', 'knn', 'sub_searches', 'rank',
  'retriever', 'pit', 'runtime_mappings', 'script_fields', 'indices_boost', 'slice', 'point_in_time',
]);

export function parseSearchRequest(body: Record<string, unknown> | null): SearchRequest {
  const r = {
    query: null as QueryNode | null, from: 0, size: DEFAULT_SIZE, sort: null as SortSpec[] | null, source: FETCH_ALL,
    minScore: null as number | null, trackTotalHitsUpTo: DEFAULT_TRACK_TOTAL_HITS_UP_TO, trackScores: false,
    explain: false, version: false, seqNoPrimaryTerm: false, searchAfter: null as unknown[] | null, terminateAfter: 0,
    timeout: null as string | null, storedFieldsNone: false,
  };
  if (body === null) return r;
  const owner = 'search';
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'query':
        r.query = parseQuery(v);
        break;
      case 'from':
        r.from = readInt(owner, k, v);
        break;
      case 'size':
        r.size = readInt(owner, k, v);
        break;
      case 'sort':
        r.sort = parseSort(v);
        break;
      case '_source':
        r.source = parseSourceFilter(v);
        break;
      case 'min_score':
        r.minScore = readNumber(owner, k, v);
        break;
      case 'track_total_hits':
        r.trackTotalHitsUpTo = parseTrackTotalHits(v);
        break;
      case 'track_scores':
        r.trackScores = readBoolean(owner, k, v);
        break;
      case 'explain':
        r.explain = readBoolean(owner, k, v);
        break;
      case 'version':
        r.version = readBoolean(owner, k, v);
        break;
      case 'seq_no_primary_term':
        r.seqNoPrimaryTerm = readBoolean(owner, k, v);
        break;
      case 'search_after':
        if (!Array.isArray(v)) throw new ParsingError(`[search_after] must be an array`);
        r.searchAfter = v;
        break;
      case 'terminate_after':
        r.terminateAfter = readInt(owner, k, v);
        break;
      case 'timeout':
        r.timeout = readString(owner, k, v);
        break;
      case 'stored_fields': {
        const fields = Array.isArray(v) ? v : [v];
        r.storedFieldsNone = fields.length === 1 && fields[0] === '_none_';
        break;
      }
      // Accepted and harmless: they only shape optional response sections ES adds on request.
      case 'stats': case 'profile': case 'docvalue_fields': case 'fields': case 'ext': case 'track_scores_': case 'allow_partial_search_results':
        break;
      default:
        if (NOT_YET.has(k)) throw new IllegalArgumentError(`[${k}] is not supported by this server yet`);
        throw new ParsingError(`Unknown key for a ${tokenName(v)} in [${k}].`);
    }
  }
  validatePaging(r.from, r.size);
  if (r.searchAfter && r.from > 0) {
    throw new IllegalArgumentError(`[from] parameter must be set to 0 when [search_after] is used`);
  }
  return r;
}

export function parseTrackTotalHits(v: unknown): number {
  if (typeof v === 'boolean' || v === 'true' || v === 'false') {
    return v === true || v === 'true' ? TRACK_TOTAL_HITS_ACCURATE : TRACK_TOTAL_HITS_DISABLED;
  }
  const n = readInt('search', 'track_total_hits', v);
  if (n < -1) throw new IllegalArgumentError(`[track_total_hits] parameter must be positive or equals to -1, got ${n}`);
  return n;
}

export function validatePaging(from: number, size: number): void {
  if (size < 0) throw new IllegalArgumentError(`[size] parameter cannot be negative, found [${size}]`);
  if (from < 0) throw new IllegalArgumentError(`[from] parameter cannot be negative, found [${from}]`);
}

/** `_count` body: only `query` (ES RestCountAction). */
export function parseCountRequest(body: Record<string, unknown> | null): { query: QueryNode | null } {
  if (body === null) return { query: null };
  let query: QueryNode | null = null;
  for (const [k, v] of Object.entries(body)) {
    if (k === 'query') query = parseQuery(v);
    else throw new ParsingError(`request does not support [${k}]`);
  }
  return { query };
}

export { isObject };
