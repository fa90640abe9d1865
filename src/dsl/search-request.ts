/**
 * The `_search` / `_count` request bodies → typed requests (ES SearchSourceBuilder.parseXContent).
 * Unknown top-level keys fail as in ES; keys ES knows but this server does not implement yet fail
 * with a clear `illegal_argument_exception` rather than being silently ignored.
 */
import { parseScriptFields, type ScriptFieldRequest } from './script-fields.js';
import { parseTimeValue } from '../common/time-value.js';
import { ActionRequestValidationError, IllegalArgumentError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { booleanValue, doubleValue, forEachEntry, intValue, isObject, mapItems, parseBody, readString } from './parse-helpers.js';
import type { KnnQuery, QueryNode } from './query-nodes.js';
import { buildKnnSearch, readKnnSections, type KnnBuilder } from './knn.js';
import { parseQuery } from './queries/registry.js';
import { legacyFusion, parseRank, parseSubSearches, type RrfRank } from './rank.js';
import { filteredQuery, parseRetriever, toFusionNode, type Fusion, type ParsedRetriever } from './retriever.js';
import { parseRescore, type RescoreNode } from './rescore.js';
import { parseSort, type SortSpec } from './sort.js';
import type { AggNode } from './aggs/agg-nodes.js';
import { parseAggregations } from './aggs/registry.js';
import { FETCH_ALL, parseSourceFilter, type SourceFilter } from './source-filter.js';
import { parseCollapse, type CollapseRequest } from './collapse.js';
import { parseSlice, type SliceRequest } from './slice.js';
import { parseIndicesBoost, type IndexBoost } from './indices-boost.js';
import { parseHighlight, type HighlightRequest } from './highlight.js';
import { parseSuggest, type SuggestNode } from './suggest/index.js';

export const DEFAULT_SIZE = 10;
export const DEFAULT_TRACK_TOTAL_HITS_UP_TO = 10_000;
/** `track_total_hits: true` counts every hit. */
export const TRACK_TOTAL_HITS_ACCURATE = Number.MAX_SAFE_INTEGER;
/** `track_total_hits: false` omits `hits.total`. */
export const TRACK_TOTAL_HITS_DISABLED = -1;

/** A search's `pit` member: the point in time and, optionally, a new keep-alive for it. */
export interface PitReference {
  readonly id: string;
  readonly keepAlive: string | null;
}

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
  /**
   * Hybrid search (an `rrf` retriever, or `sub_searches` + `rank`): ranked lists fused at the
   * coordinator; `query` is then null. A top-level `standard` retriever is folded into the plain members.
   */
  readonly fusion: Fusion | null;
  /** `aggs` / `aggregations`: computed over every hit of `query`, before `post_filter`; null = none. */
  readonly aggs: readonly AggNode[] | null;
  /** `post_filter`: narrows the hits (and their total) after aggregations were computed. */
  readonly postFilter: QueryNode | null;
  /** `highlight`: fragments of the returned hits' fields around the query's matches; null = none. */
  readonly highlight: HighlightRequest | null;
  /** `suggest`: suggestions computed next to the hits (the completion suggester); null = none. */
  readonly suggest: SuggestNode | null;
  /** `pit`: search the point in time `id` (opened by `POST /{index}/_pit`) instead of indices; absent = none. */
  readonly pit?: PitReference | null;
  /** `fields`: values read from `_source` by the mapping, in each hit's `fields`; absent/null = none. */
  readonly fields?: readonly FieldAndFormat[] | null;
  /** `docvalue_fields`: values read from doc values, in each hit's `fields`; absent/null = none. */
  readonly docvalueFields?: readonly FieldAndFormat[] | null;
  /** `script_fields`: scripts evaluated per returned hit, shown in its `fields`; absent/null = none. */
  readonly scriptFields?: readonly ScriptFieldRequest[] | null;
  /** `rescore`: query rescorers applied in order to the top hits; absent/null = none. */
  readonly rescore?: readonly RescoreNode[] | null;
  /** `collapse`: the top hit of each distinct value of a field; absent/null = none. */
  readonly collapse?: CollapseRequest | null;
  /**
   * A member the shards refuse next to `collapse` (ES SearchService.parseSource's SearchException:
   * "cannot use `collapse` in conjunction with `rescore`"); absent/null = none.
   */
  readonly collapseConflict?: string | null;
  /** `slice` of a scroll or point-in-time search: one of `max` disjoint parts of its hits; absent/null = none. */
  readonly slice?: SliceRequest | null;
  /** `indices_boost`: each hit's score times its index's boost (the first entry naming it); absent/null = none. */
  readonly indicesBoost?: readonly IndexBoost[] | null;
  /**
   * The top-level `knn` searches (or a top-level `knn` retriever), unresolved: the coordinator's kNN
   * pre-phase finds each one's global top k and ORs them with `query` (ES's DFS kNN); absent/null = none.
   * With `rank`, each is instead one ranked list of `fusion`.
   */
  readonly knn?: readonly KnnQuery[] | null;
}

export { parseFieldsAndFormats, type FieldAndFormat } from './fields-and-formats.js';
import { parseFieldsAndFormats, type FieldAndFormat } from './fields-and-formats.js';

/** The token kinds SearchSourceBuilder.parseXContent takes per key: it checks the token before the name. */
const VALUE = 1;
const OBJECT = 2;
const ARRAY = 4;
const KEY_TOKENS: Record<string, number> = {
  from: VALUE, size: VALUE, timeout: VALUE, terminate_after: VALUE, min_score: VALUE, version: VALUE,
  seq_no_primary_term: VALUE, explain: VALUE, track_scores: VALUE, track_total_hits: VALUE, profile: VALUE,
  _source: VALUE | OBJECT | ARRAY, stored_fields: VALUE | ARRAY, sort: VALUE | OBJECT | ARRAY,
  query: OBJECT, post_filter: OBJECT, knn: OBJECT | ARRAY, script_fields: OBJECT, indices_boost: ARRAY,
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
  'runtime_mappings',
]);

/** Members ES's `rank` validation names, by their names in its messages (SearchRequest.validate). */
const RANK_CONFLICTS: Record<string, string> = {
  rescore: 'rescore', collapse: 'collapse', suggest: 'suggest', highlight: 'highlighter', pit: 'point in time',
};

/** What parsing collects besides the request members: the hybrid forms, before they are put together. */
interface HybridParts {
  rank: RrfRank | null;
  subSearches: QueryNode[] | null;
  retriever: ParsedRetriever | null;
  /** The top-level `knn` sections as written (built with the body's `size` once it is read). */
  knn: KnnBuilder[] | null;
  /** `rescore` was given (even as an empty array): the members it excludes name it. */
  rescoreGiven: boolean;
  /** Members recognised but not implemented, in body order; reported once the whole body parsed. */
  notYet: string[];
  /** Members hybrid searches do not take yet (`post_filter`, `suggest`), as given. */
  fusionUnsupported: string[];
  sizeGiven: boolean;
  profile: boolean;
}

/** Defaults the REST layer fills in before the body is read (e.g. `rest_total_hits_as_int` counts exactly). */
export interface SearchRequestDefaults {
  readonly trackTotalHitsUpTo: number;
}

/** `pit: {id, keep_alive}` (ES PointInTimeBuilder): `id` is required. */
function parsePit(v: Record<string, unknown>): PitReference {
  let id: string | null = null;
  let keepAlive: string | null = null;
  forEachEntry(v, (k, value) => {
    if (k === 'id') id = readString('pit', k, value);
    else if (k === 'keep_alive') keepAlive = readString('pit', k, value);
    else throw new XContentParseError(`[pit] unknown field [${k}]`, undefined, 'key');
  });
  if (id === null) throw new IllegalArgumentError('Required [id]');
  return { id, keepAlive };
}

export function parseSearchRequest(
  body: unknown, defaults: SearchRequestDefaults = { trackTotalHitsUpTo: DEFAULT_TRACK_TOTAL_HITS_UP_TO },
): SearchRequest {
  const r = {
    query: null as QueryNode | null, from: 0, size: DEFAULT_SIZE, sort: null as SortSpec[] | null, source: FETCH_ALL,
    minScore: null as number | null, trackTotalHitsUpTo: defaults.trackTotalHitsUpTo, trackScores: false,
    explain: false, version: false, seqNoPrimaryTerm: false, searchAfter: null as unknown[] | null, terminateAfter: 0,
    timeoutMs: null as number | null, storedFieldsNone: false, fusion: null as Fusion | null,
    aggs: null as AggNode[] | null, postFilter: null as QueryNode | null, suggest: null as SuggestNode | null,
    highlight: null as HighlightRequest | null, pit: null as PitReference | null,
    fields: null as FieldAndFormat[] | null, docvalueFields: null as FieldAndFormat[] | null,
    scriptFields: null as ScriptFieldRequest[] | null,
    rescore: null as RescoreNode[] | null,
    collapse: null as CollapseRequest | null, collapseConflict: null as string | null,
    slice: null as SliceRequest | null, indicesBoost: null as IndexBoost[] | null, knn: null as KnnQuery[] | null,
  };
  if (body === null) return r;
  const parts: HybridParts = { rank: null, subSearches: null, retriever: null, knn: null, rescoreGiven: false, notYet: [], fusionUnsupported: [], sizeGiven: false, profile: false };
  parseBody(() => {
    if (!isObject(body)) throw new ParsingError(`Expected [START_OBJECT] but found [${tokenName(body)}]`);
    forEachEntry(body, (k, v) => {
      if ((KEY_TOKENS[k] ?? 0) & tokenKind(v)) parseMember(r, parts, k, v);
      else throw new ParsingError(`Unknown key for a ${tokenName(v)} in [${k}].`);
    });
  });
  // The shards refuse a rescorer next to `collapse` (SearchService.parseSource; an empty `rescore` list is none).
  if (r.collapse !== null && parts.rank === null && parts.retriever === null && r.rescore !== null) {
    r.collapseConflict = 'cannot use `collapse` in conjunction with `rescore`';
  }
  assembleHybrid(r, parts);
  // Hybrid (RRF) searches aggregate over the union of their lists' matches; post_filter is not built for them yet.
  if (r.fusion !== null) parts.notYet.unshift(...parts.fusionUnsupported);
  if (parts.notYet.length > 0) throw new IllegalArgumentError(`[${parts.notYet[0]}] is not supported by this server yet`);
  validatePaging(r.from, r.size);
  if (r.searchAfter && r.from > 0) {
    throw new IllegalArgumentError(`[from] parameter must be set to 0 when [search_after] is used`);
  }
  return r;
}

type MutableRequest = { -readonly [K in keyof SearchRequest]: SearchRequest[K] };

/** One top-level member whose token kind ES accepts for its key. */
function parseMember(r: MutableRequest, parts: HybridParts, k: string, v: unknown): void {
  if (NOT_YET.has(k)) {
    parts.notYet.push(k);
    return;
  }
  switch (k) {
    case 'query':
      // ES keeps `query` as the first sub-search, so the two members exclude each other.
      if (parts.subSearches !== null) throw new IllegalArgumentError('cannot specify field [query] and field [sub_searches]');
      r.query = parseQuery(v);
      break;
    case 'sub_searches':
      if (r.query !== null) throw new IllegalArgumentError('cannot specify field [sub_searches] and field [query]');
      parts.subSearches = parseSubSearches(v);
      break;
    case 'rank': parts.rank = parseRank(v); break;
    case 'knn': parts.knn = readKnnSections(v, parseQuery); break;
    case 'aggs': case 'aggregations':
      r.aggs = parseAggregations(v);
      break;
    case 'post_filter':
      r.postFilter = parseQuery(v);
      parts.fusionUnsupported.push(k);
      break;
    case 'suggest': {
      // Without suggestions ES reduces no suggest result, so the response has no `suggest`.
      const suggest = parseSuggest(v);
      r.suggest = suggest.suggestions.length > 0 ? suggest : null;
      parts.fusionUnsupported.push(k);
      break;
    }
    case 'highlight': r.highlight = parseHighlight(v); break;
    case 'rescore': {
      parts.rescoreGiven = true;
      const rescore = parseRescore(v);
      r.rescore = rescore.length > 0 ? rescore : null;
      // `rank` names it among its conflicts (assembleHybrid) when it has a rescorer.
      if (r.rescore !== null) parts.fusionUnsupported.push(k);
      break;
    }
    case 'collapse':
      r.collapse = parseCollapse(v as Record<string, unknown>);
      // Fused (hybrid) lists are not collapsed; `rank` names it among its conflicts.
      parts.fusionUnsupported.push(k);
      break;
    case 'retriever': parts.retriever = parseRetriever(v); break;
    case 'slice':
      r.slice = parseSlice(v as Record<string, unknown>);
      // Fused (hybrid) lists are not sliced yet.
      parts.fusionUnsupported.push(k);
      break;
    case 'indices_boost': {
      const boosts = parseIndicesBoost(v as unknown[]);
      r.indicesBoost = boosts.length > 0 ? boosts : null;
      // Fused (hybrid) lists are not boosted per index yet.
      if (r.indicesBoost !== null) parts.fusionUnsupported.push(k);
      break;
    }
    case 'from': r.from = intValue(v); break;
    case 'size':
      r.size = intValue(v);
      parts.sizeGiven = true;
      break;
    case 'sort': r.sort = parseSort(v); break;
    case '_source': r.source = parseSourceFilter(v); break;
    case 'min_score': r.minScore = doubleValue(v); break;
    case 'track_total_hits': r.trackTotalHitsUpTo = parseTrackTotalHits(v); break;
    case 'track_scores': r.trackScores = booleanValue(v); break;
    case 'explain': r.explain = booleanValue(v); break;
    case 'version': r.version = booleanValue(v); break;
    case 'seq_no_primary_term': r.seqNoPrimaryTerm = booleanValue(v); break;
    case 'search_after': r.searchAfter = v as unknown[]; break;
    case 'pit': r.pit = parsePit(v as Record<string, unknown>); break;
    case 'terminate_after': r.terminateAfter = intValue(v); break;
    case 'timeout': r.timeoutMs = parseSearchTimeout(readString('search', k, v)); break;
    case 'stored_fields': {
      const fields = Array.isArray(v) ? v : [v];
      r.storedFieldsNone = fields.length === 1 && fields[0] === '_none_';
      break;
    }
    case 'profile':
      parts.profile = booleanValue(v);
      // No query profiler here: refused rather than answered without the `profile` section asked for.
      if (parts.profile) parts.notYet.push('profile');
      break;
    case 'fields': r.fields = parseFieldsAndFormats(v); break;
    case 'docvalue_fields': r.docvalueFields = parseFieldsAndFormats(v); break;
    case 'script_fields': r.scriptFields = parseScriptFields(v); break;
    // Accepted and harmless: `stats` groups only tag statistics, `ext` is for plugins.
    case 'stats': case 'ext':
      break;
    default:
      throw new IllegalArgumentError(`[${k}] is not supported by this server yet`);
  }
}

/**
 * Puts the hybrid members together as SearchSourceBuilder does after parsing: a `retriever` excludes
 * the members it would set itself (one illegal_argument_exception listing them all); a top-level
 * `standard` retriever is a plain query; `rank` fuses `sub_searches` (or the lone `query`).
 */
function assembleHybrid(r: MutableRequest, parts: HybridParts): void {
  const { retriever, rank, subSearches } = parts;
  // KnnSearchBuilder.Builder.build(size()): `k` defaults to the body's size (-1 when absent: 10).
  const knn = parts.knn === null || parts.knn.length === 0 ? null : parts.knn.map((b) => buildKnnSearch(b, parts.sizeGiven ? r.size : null));
  if (retriever !== null) {
    const specified: string[] = [];
    if (r.query !== null || subSearches !== null) specified.push('query');
    if (knn !== null) specified.push('knn');
    if (r.searchAfter !== null) specified.push('search_after');
    if (r.terminateAfter !== 0) specified.push('terminate_after');
    if (r.sort !== null) specified.push('sort');
    if (parts.rescoreGiven) specified.push('rescore');
    if (r.minScore !== null) specified.push('min_score');
    if (rank !== null) specified.push('rank');
    if (specified.length > 0) throw new IllegalArgumentError(`cannot specify [retriever] and [${specified.join(', ')}]`);
    if (retriever.kind === 'knn') {
      // A top-level knn retriever is a top-level knn search (KnnRetrieverBuilder → KnnSearchBuilder).
      r.knn = [retriever.knn];
      r.minScore = retriever.minScore;
    } else if (retriever.kind === 'standard') {
      r.query = filteredQuery(retriever.query, retriever.filter);
      r.minScore = retriever.minScore;
      r.sort = retriever.sort as SortSpec[] | null;
      r.searchAfter = retriever.searchAfter as unknown[] | null;
      r.terminateAfter = retriever.terminateAfter;
      if (retriever.collapse !== null) r.collapse = retriever.collapse;
    } else {
      r.fusion = { root: toFusionNode(retriever), legacy: false, windowSizeName: 'rank_window_size', conflicts: [], sizeGiven: parts.sizeGiven };
    }
    return;
  }
  if (rank !== null) {
    // Members `rank` cannot be combined with are ES validation errors (rank.ts), not "not yet".
    const conflicts = [...parts.notYet, ...parts.fusionUnsupported].filter((k) => k in RANK_CONFLICTS).map((k) => RANK_CONFLICTS[k]);
    parts.notYet = parts.notYet.filter((k) => !(k in RANK_CONFLICTS));
    parts.fusionUnsupported = parts.fusionUnsupported.filter((k) => !(k in RANK_CONFLICTS));
    // ES 8.16+ highlights fused retriever pages; the legacy `rank` form never took a highlighter.
    if (r.highlight !== null) conflicts.push(RANK_CONFLICTS.highlight);
    if (parts.profile) conflicts.push('profile');
    // Each knn search is one more ranked list, after the sub-searches (ES 8.8–8.13).
    const queries = [...(subSearches ?? (r.query !== null ? [r.query] : [])), ...(knn ?? [])];
    r.fusion = legacyFusion(queries, rank, r.minScore, conflicts, parts.sizeGiven);
    r.query = null;
    return;
  }
  if (subSearches !== null) {
    if (subSearches.length >= 2) throw new ActionRequestValidationError(['[sub_searches] requires [rank]']);
    r.query = subSearches.length === 1 ? subSearches[0] : null;
  }
  r.knn = knn;
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
