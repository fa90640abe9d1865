/**
 * Hybrid search requests as one typed tree: the 8.14+ `retriever` member (ES StandardRetrieverBuilder,
 * RRFRetrieverBuilder) and the 8.9–8.13 `sub_searches` + `rank: {rrf}` form (rank.ts) both become a
 * `Fusion` whose root is an rrf node over standard leaves (and nested rrf nodes). Filters are pushed
 * down at parse time: a standard retriever's `filter` wraps its query in a `bool`
 * (`must: query, filter: …`, as StandardRetrieverBuilder.extractToSearchSourceBuilder does), and an rrf
 * retriever's `filter` is applied to every child (ES's pre-filters, propagated to each inner retriever).
 * A top-level `standard` retriever is folded into the plain request members by search-request.ts.
 */
import { IllegalArgumentError, NamedObjectNotFoundError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { doubleValue, forEachEntry, isObject, mapItems, readInt, readString, within, type JsonObject } from './parse-helpers.js';
import type { QueryNode } from './query-nodes.js';
import { parseQuery } from './queries/registry.js';
import { parseSort, type SortSpec } from './sort.js';

/** RankBuilder.DEFAULT_RANK_WINDOW_SIZE = SearchService.DEFAULT_SIZE. */
export const DEFAULT_RANK_WINDOW_SIZE = 10;
/** RRFRetrieverBuilder.DEFAULT_RANK_CONSTANT. */
export const DEFAULT_RANK_CONSTANT = 60;

/** One ranked list: a query searched on its own, its top `rank_window_size` hits fused by the parent. */
export interface StandardLeaf {
  readonly kind: 'standard';
  /** The query with every applicable filter already folded in (match_all when none was given). */
  readonly query: QueryNode;
  /** This list's own `min_score` (or the request's, in the legacy form). */
  readonly minScore: number | null;
}

export interface RrfNode {
  readonly kind: 'rrf';
  readonly retrievers: readonly FusionNode[];
  readonly rankWindowSize: number;
  readonly rankConstant: number;
}

export type FusionNode = StandardLeaf | RrfNode;

export interface Fusion {
  readonly root: RrfNode;
  /** The 8.9–8.13 `rank` form: hits carry `_rank`, the fused list is not cut to the window. */
  readonly legacy: boolean;
  /** The name the window was given under (`window_size` before 8.14), for ES's messages. */
  readonly windowSizeName: 'window_size' | 'rank_window_size';
  /** Legacy form: request members ES's `rank` validation rejects, by its names (`highlighter`, …). */
  readonly conflicts: readonly string[];
  /** Whether the body gave `size` (the retriever check skips an absent size, as ES's -1 does). */
  readonly sizeGiven: boolean;
}

/** A standard retriever as written, before it becomes a leaf or is folded into the request. */
export interface StandardRetriever {
  readonly kind: 'standard';
  readonly query: QueryNode | null;
  readonly filter: readonly QueryNode[];
  readonly minScore: number | null;
  readonly sort: readonly SortSpec[] | null;
  readonly searchAfter: readonly unknown[] | null;
  readonly terminateAfter: number;
}

interface ParsedRrf {
  readonly kind: 'rrf';
  readonly retrievers: readonly ParsedRetriever[];
  readonly rankWindowSize: number;
  readonly rankConstant: number;
  readonly filter: readonly QueryNode[];
}

export type ParsedRetriever = StandardRetriever | ParsedRrf;

/** Retrievers ES has that this server does not implement (no dense vectors, rerankers or rules). */
const NOT_YET = new Set(['knn', 'text_similarity_reranker', 'rule', 'linear', 'rescorer', 'pinned']);

/** Nesting bound, so a hostile body cannot exhaust the stack (query clauses have their own). */
const MAX_RETRIEVER_DEPTH = 20;

/** RetrieverBuilder.parseInnerRetrieverBuilder: `{ "<name>": { … } }`, exactly one name. */
export function parseRetriever(json: unknown, depth = 0): ParsedRetriever {
  if (depth > MAX_RETRIEVER_DEPTH) {
    throw new IllegalArgumentError(`the nested depth of retrievers exceeds the maximum nested depth [${MAX_RETRIEVER_DEPTH}] for retrievers`);
  }
  if (!isObject(json)) throw new ParsingError('retriever malformed, must start with [START_OBJECT]');
  const keys = Object.keys(json);
  if (keys.length === 0) throw new ParsingError('retriever malformed, empty clause found');
  const name = keys[0];
  if (keys.length > 1) {
    return within(keys[1], () => {
      throw new ParsingError(`[${name}] malformed retriever, expected [END_OBJECT] but found [FIELD_NAME]`, undefined, 'key');
    });
  }
  return within(name, () => {
    const body = json[name];
    if (name === 'standard' || name === 'rrf') {
      if (!isObject(body)) throw new ParsingError(`[${name}] retriever malformed, no [START_OBJECT] after retriever name`);
      return name === 'standard' ? parseStandard(body) : parseRrf(body, depth);
    }
    if (NOT_YET.has(name)) throw new IllegalArgumentError(`[${name}] retriever is not supported by this server yet`);
    throw new ParsingError(`unknown retriever [${name}]`, new NamedObjectNotFoundError(`unknown field [${name}]`));
  });
}

/** ObjectParser's message for a value of the wrong token kind. */
function wrongType(owner: string, field: string, v: unknown): XContentParseError {
  return new XContentParseError(`[${owner}] ${field} doesn't support values of type: ${tokenName(v)}`);
}

function readFilters(owner: string, v: unknown): QueryNode[] {
  // 8.14 takes one query object; later versions also a list of them.
  if (!isObject(v) && !Array.isArray(v)) throw wrongType(owner, 'filter', v);
  return mapItems(v, parseQuery);
}

function readMinScore(owner: string, v: unknown): number {
  if (typeof v !== 'number' && typeof v !== 'string') throw wrongType(owner, 'min_score', v);
  return doubleValue(v);
}

function parseStandard(body: JsonObject): StandardRetriever {
  const owner = 'standard';
  const r = {
    kind: owner as typeof owner, query: null as QueryNode | null, filter: [] as QueryNode[], minScore: null as number | null,
    sort: null as SortSpec[] | null, searchAfter: null as unknown[] | null, terminateAfter: 0,
  };
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'query':
        if (!isObject(v)) throw wrongType(owner, k, v);
        r.query = parseQuery(v);
        break;
      case 'filter': r.filter = readFilters(owner, v); break;
      case 'min_score': r.minScore = readMinScore(owner, v); break;
      case 'sort': r.sort = parseSort(v); break;
      case 'search_after':
        if (!Array.isArray(v)) throw wrongType(owner, k, v);
        r.searchAfter = v;
        break;
      case 'terminate_after': r.terminateAfter = readInt(owner, k, v); break;
      case '_name': readString(owner, k, v); break;
      case 'collapse': throw new IllegalArgumentError(`[collapse] is not supported by this server yet`);
      default: throw new XContentParseError(`[${owner}] unknown field [${k}]`, undefined, 'key');
    }
  });
  return r;
}

function parseRrf(body: JsonObject, depth: number): ParsedRrf {
  const owner = 'rrf';
  const r = {
    kind: owner as typeof owner, retrievers: [] as ParsedRetriever[], rankWindowSize: DEFAULT_RANK_WINDOW_SIZE,
    rankConstant: DEFAULT_RANK_CONSTANT, filter: [] as QueryNode[],
  };
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'retrievers':
        if (!isObject(v) && !Array.isArray(v)) throw wrongType(owner, k, v);
        r.retrievers = mapItems(v, (item) => parseRetriever(item, depth + 1));
        break;
      case 'rank_window_size': r.rankWindowSize = readInt(owner, k, v); break;
      case 'rank_constant': r.rankConstant = readInt(owner, k, v); break;
      case 'filter': r.filter = readFilters(owner, v); break;
      case '_name': readString(owner, k, v); break;
      case 'min_score': throw new IllegalArgumentError(`[min_score] on an [rrf] retriever is not supported by this server yet`);
      default: throw new XContentParseError(`[${owner}] unknown field [${k}]`, undefined, 'key');
    }
  });
  checkRankConstant(r.rankConstant);
  if (r.retrievers.length === 0) throw new IllegalArgumentError(`[rrf] requires at least one retriever in [retrievers]`);
  return r;
}

/**
 * RRFRankBuilder's constructor check; thrown while its ConstructingObjectParser builds the object,
 * so ES reports it wrapped in "Failed to build [rrf] after last required field arrived".
 */
export function checkRankConstant(rankConstant: number): void {
  if (rankConstant < 1) {
    throw new XContentParseError(
      'Failed to build [rrf] after last required field arrived',
      new IllegalArgumentError('[rank_constant] must be greater or equal to [1] for [rrf]'),
      null,
    );
  }
}

/** The query a standard retriever contributes: its query, filtered (ES wraps it in a bool). */
export function filteredQuery(query: QueryNode | null, filters: readonly QueryNode[]): QueryNode {
  if (filters.length === 0) return query ?? { kind: 'match_all', boost: 1, name: null };
  return {
    kind: 'bool', must: query ? [query] : [], should: [], filter: filters, mustNot: [], minimumShouldMatch: null, boost: 1, name: null,
  };
}

/**
 * An rrf retriever as a fusion tree: pre-filters pushed into every child, leaves made searchable.
 * Options a compound retriever's children cannot take fail as in ES.
 */
export function toFusionNode(r: ParsedRrf, inherited: readonly QueryNode[] = []): RrfNode {
  const filters = [...inherited, ...r.filter];
  return {
    kind: 'rrf', rankWindowSize: r.rankWindowSize, rankConstant: r.rankConstant,
    retrievers: r.retrievers.map((c) => {
      if (c.kind === 'rrf') return toFusionNode(c, filters);
      if (c.searchAfter !== null) throw new IllegalArgumentError('[search_after] cannot be used in children of compound retrievers');
      if (c.terminateAfter !== 0) throw new IllegalArgumentError('[terminate_after] cannot be used in children of compound retrievers');
      if (c.sort !== null) throw new IllegalArgumentError('[sort] in children of compound retrievers is not supported by this server yet');
      return { kind: 'standard', query: filteredQuery(c.query, [...c.filter, ...filters]), minScore: c.minScore };
    }),
  };
}

/** The standard leaves of a fusion tree, depth first (the order their lists are scattered in). */
export function fusionLeaves(node: RrfNode): StandardLeaf[] {
  const out: StandardLeaf[] = [];
  const walk = (n: FusionNode) => {
    if (n.kind === 'standard') out.push(n);
    else n.retrievers.forEach(walk);
  };
  walk(node);
  return out;
}

/** The same tree with each leaf's query replaced, in `fusionLeaves` order (after model inference). */
export function withLeafQueries(node: RrfNode, queries: readonly QueryNode[]): RrfNode {
  let i = 0;
  const map = (n: FusionNode): FusionNode => (n.kind === 'standard' ? { ...n, query: queries[i++] } : { ...n, retrievers: n.retrievers.map(map) });
  return map(node) as RrfNode;
}
