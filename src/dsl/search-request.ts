/**
 * The `_search` / `_count` request bodies → typed requests (ES SearchSourceBuilder.parseXContent).
 * Unknown top-level keys fail as in ES; keys ES knows but this server does not implement yet fail
 * with a clear `illegal_argument_exception` rather than being silently ignored.
 */
import { parseTimeValue } from '../common/time-value.js';
import { IllegalArgumentError, ParsingError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { booleanValue, doubleValue, forEachEntry, intValue, isObject, parseBody, readString } from './parse-helpers.js';
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
  /** `timeout` in milliseconds (-1: none); null when the request gives none (the server default applies). */
  readonly timeoutMs: number | null;
  /** `stored_fields: "_none_"` drops `_source` and `_id`-only hits are returned. */
  readonly storedFieldsNone: boolean;
}

/** The token kinds SearchSourceBuilder.parseXContent takes per key: it checks the token before the name. */
const VALUE = 1;
const OBJECT = 2;
const ARRAY = 4;
const KEY_TOKENS: Record<string, number> = {
  from: VALUE, size: VALUE, timeout: VALUE, terminate_after: VALUE, min_score: VALUE, version: VALUE,
  seq_no_primary_term: VALUE, explain: VALUE, track_scores: VALUE, track_total_hits: VALUE, profile: VALUE,
  _source: VALUE | OBJECT | ARRAY, stored_fields: VALUE | ARRAY, sort: VALUE | OBJECT | ARRAY,
  query: OBJECT, post_filter: OBJECT, knn: OBJECT | ARRAY, script_fields: OBJECT, indices_boost: OBJECT | ARRAY,
  aggregations: OBJECT, aggs: OBJECT, highlight: OBJECT, suggest: OBJECT, rescore: OBJECT | ARRAY, ext: OBJECT,
  slice: OBJECT, collapse: OBJECT, pit: OBJECT, runtime_mappings: OBJECT, rank: OBJECT, retriever: OBJECT,
  docvalue_fields: ARRAY, stats: ARRAY, search_after: ARRAY, fields: ARRAY, sub_searches: ARRAY,
};

function tokenKind(v: unknown): number {
  if (Array.isArray(v)) return ARRAY;
  if (isObject(v)) return OBJECT;
  // VALUE_NULL is not a value token for XContentParser (Token.isValue() is false).
  return v === null ? 0 : VALUE;
}

/** Members ES accepts that are not implemented here yet; requests using them fail clearly. */
const NOT_YET = new Set([
  'aggs', 'aggregations', 'highlight', 'post_filter', 'suggest', 'collapse', 'rescore', 'knn', 'sub_searches', 'rank',
  'retriever', 'pit', 'runtime_mappings', 'script_fields', 'indices_boost', 'slice',
]);

/** Defaults the REST layer fills in before the body is read (e.g. `rest_total_hits_as_int` counts exactly). */
export interface SearchRequestDefaults {
  readonly trackTotalHitsUpTo: number;
}

export function parseSearchRequest(
  body: unknown, defaults: SearchRequestDefaults = { trackTotalHitsUpTo: DEFAULT_TRACK_TOTAL_HITS_UP_TO },
): SearchRequest {
  const r = {
    query: null as QueryNode | null, from: 0, size: DEFAULT_SIZE, sort: null as SortSpec[] | null, source: FETCH_ALL,
    minScore: null as number | null, trackTotalHitsUpTo: defaults.trackTotalHitsUpTo, trackScores: false,
    explain: false, version: false, seqNoPrimaryTerm: false, searchAfter: null as unknown[] | null, terminateAfter: 0,
    timeoutMs: null as number | null, storedFieldsNone: false,
  };
  if (body === null) return r;
  parseBody(() => {
    if (!isObject(body)) throw new ParsingError(`Expected [START_OBJECT] but found [${tokenName(body)}]`);
    forEachEntry(body, (k, v) => {
      if ((KEY_TOKENS[k] ?? 0) & tokenKind(v)) parseMember(r, k, v);
      else throw new ParsingError(`Unknown key for a ${tokenName(v)} in [${k}].`);
    });
  });
  validatePaging(r.from, r.size);
  if (r.searchAfter && r.from > 0) {
    throw new IllegalArgumentError(`[from] parameter must be set to 0 when [search_after] is used`);
  }
  return r;
}

/** One top-level member whose token kind ES accepts for its key. */
function parseMember(r: { -readonly [K in keyof SearchRequest]: SearchRequest[K] }, k: string, v: unknown): void {
  switch (k) {
    case 'query': r.query = parseQuery(v); break;
    case 'from': r.from = intValue(v); break;
    case 'size': r.size = intValue(v); break;
    case 'sort': r.sort = parseSort(v); break;
    case '_source': r.source = parseSourceFilter(v); break;
    case 'min_score': r.minScore = doubleValue(v); break;
    case 'track_total_hits': r.trackTotalHitsUpTo = parseTrackTotalHits(v); break;
    case 'track_scores': r.trackScores = booleanValue(v); break;
    case 'explain': r.explain = booleanValue(v); break;
    case 'version': r.version = booleanValue(v); break;
    case 'seq_no_primary_term': r.seqNoPrimaryTerm = booleanValue(v); break;
    case 'search_after': r.searchAfter = v as unknown[]; break;
    case 'terminate_after': r.terminateAfter = intValue(v); break;
    case 'timeout': r.timeoutMs = parseSearchTimeout(readString('search', k, v)); break;
    case 'stored_fields': {
      const fields = Array.isArray(v) ? v : [v];
      r.storedFieldsNone = fields.length === 1 && fields[0] === '_none_';
      break;
    }
    // Accepted and harmless: they only shape optional response sections ES adds on request.
    case 'stats': case 'profile': case 'docvalue_fields': case 'fields': case 'ext':
      break;
    default:
      throw new IllegalArgumentError(`[${k}] is not supported by this server yet`);
  }
}

/**
 * A search `timeout` (body member or URL parameter) as ES's TimeValue.parseTimeValue reads it:
 * a whole number with a unit, "0", or "-1" (no timeout). Bad values are ES's
 * illegal_argument_exception (8.x TimeValue throws IllegalArgumentException, not wrapped).
 */
export function parseSearchTimeout(value: string): number {
  const withUnit = /^(.*?)\s*(?:nanos|micros|ms|s|m|h|d)$/.exec(value.trim().toLowerCase());
  if (withUnit && /^-?(\d+\.\d*|\.\d+)$/.test(withUnit[1])) {
    throw new IllegalArgumentError(`failed to parse [${value}], fractional time values are not supported`);
  }
  try {
    return parseTimeValue(value, 'timeout');
  } catch (e) {
    throw new IllegalArgumentError(e instanceof Error ? e.message : String(e));
  }
}

/** `track_total_hits`: a boolean (or "true"/"false"), else XContentParser.intValue(). */
export function parseTrackTotalHits(v: unknown): number {
  if (typeof v === 'boolean' || v === 'true' || v === 'false') {
    return v === true || v === 'true' ? TRACK_TOTAL_HITS_ACCURATE : TRACK_TOTAL_HITS_DISABLED;
  }
  return trackTotalHitsUpTo(intValue(v));
}

/** SearchSourceBuilder.trackTotalHitsUpTo's check. */
export function trackTotalHitsUpTo(n: number): number {
  if (n < TRACK_TOTAL_HITS_DISABLED) throw new IllegalArgumentError(`[track_total_hits] parameter must be positive or equals to -1, got ${n}`);
  return n;
}

export function validatePaging(from: number, size: number): void {
  if (size < 0) throw new IllegalArgumentError(`[size] parameter cannot be negative, found [${size}]`);
  if (from < 0) throw new IllegalArgumentError(`[from] parameter cannot be negative, found [${from}]`);
}

/** `_count` body: only `query` (ES RestActions.getQueryContent). */
export function parseCountRequest(body: unknown): { query: QueryNode | null } {
  if (body === null) return { query: null };
  let query: QueryNode | null = null;
  parseBody(() => {
    if (!isObject(body)) throw new ParsingError(`Expected [START_OBJECT] but found [${tokenName(body)}]`);
    forEachEntry(body, (k, v) => {
      if (k === 'query') query = parseQuery(v);
      else throw new ParsingError(`request does not support [${k}]`, undefined, 'key');
    });
  });
  return { query };
}

export { isObject };
