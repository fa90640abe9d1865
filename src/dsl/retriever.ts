/**
 * Hybrid search requests as one typed tree: the 8.14+ `retriever` member (ES StandardRetrieverBuilder,
 * RRFRetrieverBuilder, LinearRetrieverBuilder) and the 8.9–8.13 `sub_searches` + `rank: {rrf}` form
 * (rank.ts) all become a `Fusion` whose root is a compound node (rrf or linear) over standard leaves
 * and nested compound nodes. Children may carry weights: rrf's `{retriever, weight}` items (ES 9.2
 * RRFRetrieverComponent) and linear's `{retriever, weight, normalizer}` (LinearRetrieverComponent). Filters are pushed
 * down at parse time: a standard retriever's `filter` wraps its query in a `bool`
 * (`must: query, filter: …`, as StandardRetrieverBuilder.extractToSearchSourceBuilder does), and an rrf
 * retriever's `filter` is applied to every child (ES's pre-filters, propagated to each inner retriever).
 * A top-level `standard` retriever is folded into the plain request members by search-request.ts.
 */
import { ActionRequestValidationError, IllegalArgumentError, NamedObjectNotFoundError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { doubleValue, forEachEntry, isObject, mapItems, readInt, readString, readStringArray, within, type JsonObject } from './parse-helpers.js';
import type { KnnQuery, QueryNode } from './query-nodes.js';
import { parseKnnRetriever } from './knn.js';
import { parseQuery } from './queries/registry.js';
import { parseSort, type SortSpec } from './sort.js';
import { parseCollapse, type CollapseRequest } from './collapse.js';

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
  /** Per child (RRFRetrieverComponent's `weight`, default 1): the child's 1/(k + rank) is multiplied by it. */
  readonly weights: readonly number[];
  readonly rankWindowSize: number;
  readonly rankConstant: number;
}

/** ES's score normalizers for the linear retriever (ScoreNormalizer.valueOf). */
export type ScoreNormalizer = 'none' | 'minmax' | 'l2_norm';
export const SCORE_NORMALIZERS: readonly ScoreNormalizer[] = ['none', 'minmax', 'l2_norm'];

/** A weighted sum of the children's normalized scores (LinearRetrieverBuilder). */
export interface LinearNode {
  readonly kind: 'linear';
  readonly retrievers: readonly FusionNode[];
  /** Per child: its weight (default 1) and its normalizer (its own, else the top-level one, else none). */
  readonly weights: readonly number[];
  readonly normalizers: readonly ScoreNormalizer[];
  readonly rankWindowSize: number;
  /** Applied after the cut to the window, inclusive, as ES filters `topResults`. */
  readonly minScore: number | null;
  /** The multi-field query format (`query` + `fields`): ES refuses it over several indices. */
  readonly multiField: boolean;
}

/** A node that fuses ranked lists. */
export type CompoundNode = RrfNode | LinearNode;

export type FusionNode = StandardLeaf | CompoundNode;

export interface Fusion {
  readonly root: CompoundNode;
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
  /** `collapse`: a top-level standard retriever's is the search's (children of compound retrievers refuse it). */
  readonly collapse: CollapseRequest | null;
}

interface ParsedRrf {
  readonly kind: 'rrf';
  readonly retrievers: readonly ParsedRetriever[];
  readonly weights: readonly number[];
  readonly rankWindowSize: number;
  readonly rankConstant: number;
  readonly filter: readonly QueryNode[];
}

interface LinearComponent {
  readonly retriever: ParsedRetriever;
  readonly weight: number;
  readonly normalizer: ScoreNormalizer | null;
}

interface ParsedLinear {
  readonly kind: 'linear';
  readonly components: readonly LinearComponent[];
  readonly rankWindowSize: number;
  readonly minScore: number | null;
  readonly normalizer: ScoreNormalizer | null;
  readonly query: string | null;
  readonly fields: readonly string[] | null;
  readonly filter: readonly QueryNode[];
}

/** A `knn` retriever (KnnRetrieverBuilder): its kNN search, with `k` and `num_candidates` given. */
export interface KnnRetriever {
  readonly kind: 'knn';
  readonly knn: KnnQuery;
  readonly minScore: number | null;
}

export type ParsedRetriever = StandardRetriever | KnnRetriever | ParsedRrf | ParsedLinear;

/** Retrievers ES has that this server does not implement (rerankers, rules). */
const NOT_YET = new Set(['text_similarity_reranker', 'rule', 'rescorer', 'pinned']);

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
    if (name === 'standard' || name === 'rrf' || name === 'linear' || name === 'knn') {
      if (!isObject(body)) throw new ParsingError(`[${name}] retriever malformed, no [START_OBJECT] after retriever name`);
      if (name === 'standard') return parseStandard(body);
      if (name === 'knn') return { kind: 'knn', ...parseKnnRetriever(body, parseQuery) };
      return name === 'rrf' ? parseRrf(body, depth) : parseLinear(body, depth);
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
    sort: null as SortSpec[] | null, searchAfter: null as unknown[] | null, terminateAfter: 0, collapse: null as CollapseRequest | null,
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
      case 'collapse':
        if (!isObject(v)) throw wrongType(owner, k, v);
        r.collapse = parseCollapse(v);
        break;
      default: throw new XContentParseError(`[${owner}] unknown field [${k}]`, undefined, 'key');
    }
  });
  return r;
}

function parseRrf(body: JsonObject, depth: number): ParsedRrf {
  const owner = 'rrf';
  const r = {
    kind: owner as typeof owner, retrievers: [] as ParsedRetriever[], weights: [] as number[], rankWindowSize: DEFAULT_RANK_WINDOW_SIZE,
    rankConstant: DEFAULT_RANK_CONSTANT, filter: [] as QueryNode[],
  };
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'retrievers': {
        if (!isObject(v) && !Array.isArray(v)) throw wrongType(owner, k, v);
        const items = mapItems(v, (item) => parseRrfComponent(item, depth + 1));
        r.retrievers = items.map((c) => c.retriever);
        r.weights = items.map((c) => c.weight);
        break;
      }
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

/** RetrieverComponent.DEFAULT_WEIGHT. */
const DEFAULT_WEIGHT = 1;

/**
 * One item of an rrf retriever's `retrievers` (RRFRetrieverComponent.fromXContent): a retriever as
 * it is (`{"standard": {…}}`), or `{"retriever": {…}, "weight": w}`.
 */
function parseRrfComponent(item: unknown, depth: number): { retriever: ParsedRetriever; weight: number } {
  if (!isObject(item) || (!('retriever' in item) && !('weight' in item))) return { retriever: parseRetriever(item, depth), weight: DEFAULT_WEIGHT };
  let retriever: ParsedRetriever | null = null;
  let weight = DEFAULT_WEIGHT;
  forEachEntry(item, (k, v) => {
    if (k === 'retriever') retriever = parseRetriever(v, depth);
    else if (k === 'weight') {
      if (typeof v !== 'number') throw new ParsingError(`[${tokenName(v)}] expected number`);
      weight = Math.fround(v);
    } else throw new ParsingError(`unknown field [${k}] in an [rrf] component`);
  });
  if (retriever === null) throw new IllegalArgumentError('[rrf_component] retriever is required');
  checkWeight('rrf_component', weight);
  return { retriever, weight };
}

/** The components' constructor check, reported as ConstructingObjectParser reports a failed build. */
function checkWeight(owner: string, weight: number): void {
  if (weight < 0) {
    throw new XContentParseError(`Failed to build [${owner}] after last required field arrived`, new IllegalArgumentError('[weight] must be non-negative'), null);
  }
}

function readNormalizer(owner: string, v: unknown): ScoreNormalizer {
  const name = readString(owner, 'normalizer', v);
  const found = SCORE_NORMALIZERS.find((n) => n === name.toLowerCase());
  if (found === undefined) {
    throw new XContentParseError(`[${owner}] failed to parse field [normalizer]`, new IllegalArgumentError(`Unknown normalizer [${name}]`));
  }
  return found;
}

/** LinearRetrieverComponent: `{retriever, weight, normalizer}`. */
function parseLinearComponent(item: unknown, depth: number): LinearComponent {
  const owner = 'retriever-component';
  if (!isObject(item)) throw new XContentParseError(`[${owner}] Expected START_OBJECT but was: ${tokenName(item)}`);
  let retriever: ParsedRetriever | null = null;
  let weight = DEFAULT_WEIGHT;
  let normalizer: ScoreNormalizer | null = null;
  forEachEntry(item, (k, v) => {
    switch (k) {
      case 'retriever': retriever = parseRetriever(v, depth); break;
      case 'weight':
        if (typeof v !== 'number' && typeof v !== 'string') throw wrongType(owner, k, v);
        weight = Math.fround(doubleValue(v));
        break;
      case 'normalizer': normalizer = readNormalizer(owner, v); break;
      default: throw new XContentParseError(`[${owner}] unknown field [${k}]`, undefined, 'key');
    }
  });
  if (retriever === null) throw new IllegalArgumentError(`Required [retriever]`);
  checkWeight(owner, weight);
  return { retriever, weight, normalizer };
}

function parseLinear(body: JsonObject, depth: number): ParsedLinear {
  const owner = 'linear';
  const r = {
    kind: owner as typeof owner, components: [] as LinearComponent[], rankWindowSize: DEFAULT_RANK_WINDOW_SIZE, minScore: null as number | null,
    normalizer: null as ScoreNormalizer | null, query: null as string | null, fields: null as string[] | null, filter: [] as QueryNode[],
  };
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'retrievers':
        if (!Array.isArray(v)) throw wrongType(owner, k, v);
        r.components = mapItems(v, (item) => parseLinearComponent(item, depth + 1));
        break;
      case 'fields': r.fields = readStringArray(owner, k, v); break;
      case 'query': r.query = readString(owner, k, v); break;
      case 'normalizer': r.normalizer = readNormalizer(owner, v); break;
      case 'rank_window_size': r.rankWindowSize = readInt(owner, k, v); break;
      case 'min_score': r.minScore = Math.fround(readMinScore(owner, v)); break;
      case 'filter': r.filter = readFilters(owner, v); break;
      case '_name': readString(owner, k, v); break;
      default: throw new XContentParseError(`[${owner}] unknown field [${k}]`, undefined, 'key');
    }
  });
  if (r.minScore !== null && r.minScore < 0) {
    throw new XContentParseError(
      `Failed to build [${owner}] after last required field arrived`,
      new IllegalArgumentError(`[min_score] must be greater than or equal to 0, was: [${r.minScore}]`),
      null,
    );
  }
  return r;
}

/**
 * LinearRetrieverBuilder.validate with MultiFieldsInnerRetrieverUtils.validateParams: the request
 * validation errors of one linear retriever, in ES's order.
 */
function linearValidationErrors(r: ParsedLinear): string[] {
  const errors: string[] = [];
  if (r.fields !== null || r.query !== null) {
    if (r.query === null) return ['[linear] [query] must be provided when [fields] is specified'];
    if (r.query === '') errors.push('[linear] [query] cannot be empty');
    if (r.fields !== null && r.fields.length === 0) errors.push('[linear] [fields] cannot be empty');
    if (r.components.length > 0) errors.push('[linear] cannot combine [retrievers] and [query]');
    if (r.normalizer === null) errors.push('[linear] [normalizer] must be provided when [query] is specified');
  } else if (r.components.length === 0) {
    errors.push('[linear] must provide [retrievers] or [query]');
  }
  return errors;
}

/** `field^weight` → the weight, as QueryParserHelper.parseFieldsAndWeights reads it (default 1). */
function fieldWeight(field: string): number {
  const caret = field.lastIndexOf('^');
  return caret < 0 ? 1 : doubleValue(field.slice(caret + 1));
}

/**
 * The multi-field query format without semantic_text fields (this server has none): every field is
 * lexical, so ES's rewrite yields one standard retriever, a `multi_match` of type `most_fields` over
 * the fields (`*`, the default of `index.query.default_field`, when none are given), normalized by
 * the top-level normalizer with weight 1.
 */
function multiFieldLeaf(r: ParsedLinear, filters: readonly QueryNode[]): StandardLeaf {
  const fields = r.fields ?? ['*'];
  for (const f of fields) {
    if (fieldWeight(f) < 0) throw new IllegalArgumentError('[linear] per-field weights must be non-negative');
  }
  const query = parseQuery({ multi_match: { query: r.query, type: 'most_fields', fields } });
  return { kind: 'standard', query: filteredQuery(query, filters), minScore: null };
}

/** The query a standard retriever contributes: its query, filtered (ES wraps it in a bool). */
export function filteredQuery(query: QueryNode | null, filters: readonly QueryNode[]): QueryNode {
  if (filters.length === 0) return query ?? { kind: 'match_all', boost: 1, name: null };
  return {
    kind: 'bool', must: query ? [query] : [], should: [], filter: filters, mustNot: [], minimumShouldMatch: null, boost: 1, name: null,
  };
}

/**
 * A compound retriever as a fusion tree: pre-filters pushed into every child, leaves made searchable.
 * Options a compound retriever's children cannot take fail as in ES.
 */
export function toFusionNode(r: ParsedRrf | ParsedLinear, inherited: readonly QueryNode[] = []): CompoundNode {
  const filters = [...inherited, ...r.filter];
  const child = (c: ParsedRetriever): FusionNode => {
    // A knn retriever's list is its top k; the parent's pre-filters join its own filter (ES's preFilterQueryBuilder).
    if (c.kind === 'knn') return { kind: 'standard', query: { ...c.knn, filter: [...c.knn.filter, ...filters] }, minScore: c.minScore };
    if (c.kind !== 'standard') return toFusionNode(c, filters);
    if (c.searchAfter !== null) throw new IllegalArgumentError('[search_after] cannot be used in children of compound retrievers');
    if (c.terminateAfter !== 0) throw new IllegalArgumentError('[terminate_after] cannot be used in children of compound retrievers');
    if (c.sort !== null) throw new IllegalArgumentError('[sort] in children of compound retrievers is not supported by this server yet');
    if (c.collapse !== null) throw new IllegalArgumentError('[collapse] in children of compound retrievers is not supported by this server yet');
    return { kind: 'standard', query: filteredQuery(c.query, [...c.filter, ...filters]), minScore: c.minScore };
  };
  if (r.kind === 'rrf') {
    return { kind: 'rrf', rankWindowSize: r.rankWindowSize, rankConstant: r.rankConstant, weights: r.weights, retrievers: r.retrievers.map(child) };
  }
  const errors = linearValidationErrors(r);
  if (errors.length > 0) throw new ActionRequestValidationError(errors);
  const base = { kind: 'linear' as const, rankWindowSize: r.rankWindowSize, minScore: r.minScore };
  if (r.query !== null) {
    return { ...base, retrievers: [multiFieldLeaf(r, filters)], weights: [DEFAULT_WEIGHT], normalizers: [r.normalizer!], multiField: true };
  }
  return {
    ...base,
    retrievers: r.components.map((c) => child(c.retriever)),
    weights: r.components.map((c) => c.weight),
    // A component's own normalizer wins; the top-level one is the default (ES 9.1+); else none.
    normalizers: r.components.map((c) => c.normalizer ?? r.normalizer ?? 'none'),
    multiField: false,
  };
}

/** The standard leaves of a fusion tree, depth first (the order their lists are scattered in). */
export function fusionLeaves(node: CompoundNode): StandardLeaf[] {
  const out: StandardLeaf[] = [];
  const walk = (n: FusionNode) => {
    if (n.kind === 'standard') out.push(n);
    else n.retrievers.forEach(walk);
  };
  walk(node);
  return out;
}

/** The same tree with each leaf's query replaced, in `fusionLeaves` order (after model inference). */
export function withLeafQueries(node: CompoundNode, queries: readonly QueryNode[]): CompoundNode {
  let i = 0;
  const map = (n: FusionNode): FusionNode => (n.kind === 'standard' ? { ...n, query: queries[i++] } : { ...n, retrievers: n.retrievers.map(map) });
  return map(node) as CompoundNode;
}
