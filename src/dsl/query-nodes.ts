/**
 * The query DSL as typed, immutable data: one variant per clause, discriminated by `kind`.
 * Produced once from request JSON by the parsers in `queries/`, consumed by planning in search/.
 * Nothing after parsing reads raw JSON. Option names are camelCase; JSON stays snake_case at the edge.
 */
import type { ScriptSpec } from './script/script-spec.js';

export type MinimumShouldMatch = string | number | null;
export type Operator = 'or' | 'and';
export type ZeroTermsQuery = 'none' | 'all';
/** `fuzziness`: "AUTO", "AUTO:3,6", 0, 1, 2 (ES Fuzziness), kept as the raw spec, resolved per term. */
export type Fuzziness = string | null;

interface Common {
  /** Score multiplier; 1 when absent. */
  readonly boost: number;
  /** `_name`, for `matched_queries`. */
  readonly name: string | null;
}

export interface MatchAllQuery extends Common { readonly kind: 'match_all' }
export interface MatchNoneQuery extends Common { readonly kind: 'match_none' }

export interface TextQueryOptions {
  readonly analyzer: string | null;
  readonly lenient: boolean;
  readonly zeroTermsQuery: ZeroTermsQuery;
}

export interface MatchQuery extends Common, TextQueryOptions {
  readonly kind: 'match';
  readonly field: string;
  readonly query: string | number | boolean;
  readonly operator: Operator;
  readonly minimumShouldMatch: MinimumShouldMatch;
  readonly fuzziness: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly fuzzyTranspositions: boolean;
  /**
   * ES `auto_generate_synonyms_phrase_query` (default true): a multi-word synonym path of the query's
   * token graph is a phrase; false makes it a conjunction of its terms (Lucene QueryBuilder).
   */
  readonly autoGenerateSynonymsPhraseQuery: boolean;
}

export interface MatchPhraseQuery extends Common, TextQueryOptions {
  readonly kind: 'match_phrase';
  readonly field: string;
  readonly query: string;
  readonly slop: number;
}

export interface MatchPhrasePrefixQuery extends Common, TextQueryOptions {
  readonly kind: 'match_phrase_prefix';
  readonly field: string;
  readonly query: string;
  readonly slop: number;
  readonly maxExpansions: number;
}

export interface MatchBoolPrefixQuery extends Common, TextQueryOptions {
  readonly kind: 'match_bool_prefix';
  readonly field: string;
  readonly query: string;
  readonly operator: Operator;
  readonly minimumShouldMatch: MinimumShouldMatch;
  readonly fuzziness: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly fuzzyTranspositions: boolean;
}

export type MultiMatchType = 'best_fields' | 'most_fields' | 'cross_fields' | 'phrase' | 'phrase_prefix' | 'bool_prefix';

/** A field name with its `^boost` (from "title^3"); the name may contain `*` wildcards. */
export interface BoostedField {
  readonly field: string;
  readonly boost: number;
}

export interface MultiMatchQuery extends Common, TextQueryOptions {
  readonly kind: 'multi_match';
  readonly query: string | number | boolean;
  /** null = `index.query.default_field` (all eligible fields). */
  readonly fields: readonly BoostedField[] | null;
  readonly type: MultiMatchType;
  readonly operator: Operator;
  readonly minimumShouldMatch: MinimumShouldMatch;
  /** null = the type's default (0 for best_fields; ES ignores it for most_fields). */
  readonly tieBreaker: number | null;
  readonly fuzziness: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly fuzzyTranspositions: boolean;
  /** As on MatchQuery. */
  readonly autoGenerateSynonymsPhraseQuery: boolean;
  readonly slop: number;
}

export interface QueryStringQuery extends Common {
  readonly kind: 'query_string';
  /** The syntax is parsed when the query is planned on each index, as ES does (a shard failure). */
  readonly query: string;
  readonly defaultField: string | null;
  readonly fields: readonly BoostedField[] | null;
  readonly defaultOperator: Operator;
  readonly analyzer: string | null;
  readonly lenient: boolean | null;
  readonly minimumShouldMatch: MinimumShouldMatch;
  readonly fuzziness: Fuzziness;
  readonly phraseSlop: number;
  readonly tieBreaker: number | null;
  readonly type: MultiMatchType;
  readonly analyzeWildcard: boolean;
  readonly allowLeadingWildcard: boolean;
}

/** `simple_query_string` (ES SimpleQueryStringBuilder); the syntax is parsed when planned, per index. */
export interface SimpleQueryStringQuery extends Common {
  readonly kind: 'simple_query_string';
  readonly query: string;
  /** null = `index.query.default_field`. */
  readonly fields: readonly BoostedField[] | null;
  readonly defaultOperator: Operator;
  readonly analyzer: string | null;
  /** SimpleQueryParser's operator bits (-1: all). */
  readonly flags: number;
  /** null = unset: lenient only when the fields are `*`. */
  readonly lenient: boolean | null;
  readonly minimumShouldMatch: MinimumShouldMatch;
  readonly quoteFieldSuffix: string | null;
  readonly analyzeWildcard: boolean;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
  readonly fuzzyPrefixLength: number;
  readonly fuzzyMaxExpansions: number;
  readonly fuzzyTranspositions: boolean;
}

export interface BoolQuery extends Common {
  readonly kind: 'bool';
  readonly must: readonly QueryNode[];
  readonly should: readonly QueryNode[];
  readonly filter: readonly QueryNode[];
  readonly mustNot: readonly QueryNode[];
  readonly minimumShouldMatch: MinimumShouldMatch;
}

/** A term value as sent: strings, numbers and booleans are all legal for `term`/`terms`. */
export type TermValue = string | number | boolean;

export interface TermQuery extends Common {
  readonly kind: 'term';
  readonly field: string;
  readonly value: TermValue;
  readonly caseInsensitive: boolean;
}

export interface TermsQuery extends Common {
  readonly kind: 'terms';
  readonly field: string;
  readonly values: readonly TermValue[];
}

export interface RangeQuery extends Common {
  readonly kind: 'range';
  readonly field: string;
  readonly gt: TermValue | null;
  readonly gte: TermValue | null;
  readonly lt: TermValue | null;
  readonly lte: TermValue | null;
  readonly format: string | null;
  readonly timeZone: string | null;
  readonly relation: 'intersects' | 'contains' | 'within';
}

export interface ExistsQuery extends Common {
  readonly kind: 'exists';
  readonly field: string;
}

export interface IdsQuery extends Common {
  readonly kind: 'ids';
  readonly values: readonly string[];
}

export interface PrefixQuery extends Common {
  readonly kind: 'prefix';
  readonly field: string;
  readonly value: string;
  readonly caseInsensitive: boolean;
}

export interface WildcardQuery extends Common {
  readonly kind: 'wildcard';
  readonly field: string;
  readonly value: string;
  readonly caseInsensitive: boolean;
}

/**
 * ES `fuzzy` (FuzzyQueryBuilder): the terms within `fuzziness` edits of the value (not analyzed; a
 * keyword field's normalizer applies), rewritten as Lucene's `top_terms_blended_freqs_<max_expansions>`.
 */
export interface FuzzyQuery extends Common {
  readonly kind: 'fuzzy';
  readonly field: string;
  readonly value: string;
  readonly fuzziness: string;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly transpositions: boolean;
}

/** ES `regexp` (RegexpQueryBuilder): a Lucene regexp over the field's terms. */
export interface RegexpQuery extends Common {
  readonly kind: 'regexp';
  readonly field: string;
  readonly value: string;
  /** Lucene RegExp syntax flags (`flags` names or `flags_value`), default ALL. */
  readonly flags: number;
  readonly caseInsensitive: boolean;
  readonly maxDeterminizedStates: number;
}

/**
 * ES `boosting` (BoostingQueryBuilder, Lucene FunctionScoreQuery.boostByQuery): the `positive`
 * query's matches, their scores multiplied by `negativeBoost` where `negative` matches too.
 */
export interface BoostingQuery extends Common {
  readonly kind: 'boosting';
  readonly positive: QueryNode;
  readonly negative: QueryNode;
  readonly negativeBoost: number;
}

/** A `function_score` function (see dsl/queries/function-score.ts). */
export type ScoreFunction =
  | { readonly kind: 'weight' }
  | {
    readonly kind: 'field_value_factor'; readonly field: string; readonly factor: number;
    readonly modifier: 'none' | 'log' | 'log1p' | 'log2p' | 'ln' | 'ln1p' | 'ln2p' | 'square' | 'sqrt' | 'reciprocal'; readonly missing: number | null;
  }
  | DecayFunction
  /** `script_score`: the script's value (ES ScriptScoreFunction). */
  | { readonly kind: 'script_score'; readonly script: ScriptSpec }
  /** `random_score`: a hash of `field`'s value (`_seq_no` by default) and `seed`; no seed: of the document and the clock. */
  | { readonly kind: 'random_score'; readonly seed: number | null; readonly field: string | null };

/** `gauss`, `exp` or `linear` decay by the distance of a numeric or date field's value from `origin`. */
export interface DecayFunction {
  readonly kind: 'decay';
  readonly type: 'gauss' | 'exp' | 'linear';
  readonly field: string;
  /** Numbers, or dates (date math; dates default to now). */
  readonly origin: string | number | null;
  readonly scale: string | number;
  readonly offset: string | number;
  readonly decay: number;
  readonly multiValueMode: 'min' | 'max' | 'avg' | 'sum';
}

export interface FunctionScoreFunction {
  readonly filter: QueryNode | null;
  readonly weight: number;
  readonly fn: ScoreFunction;
}

/** ES `function_score`: `query`'s scores combined with the functions that apply to each document. */
export interface FunctionScoreQuery extends Common {
  readonly kind: 'function_score';
  readonly query: QueryNode;
  readonly functions: readonly FunctionScoreFunction[];
  readonly scoreMode: 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
  readonly boostMode: 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';
  readonly maxBoost: number;
  readonly minScore: number | null;
}

/** ES `script_score`: `query`'s documents scored by `script` (see dsl/queries/script-score.ts). */
export interface ScriptScoreQuery extends Common {
  readonly kind: 'script_score';
  readonly query: QueryNode;
  readonly script: ScriptSpec;
  readonly minScore: number | null;
}

/** ES `script`: the documents a boolean filter script accepts (see dsl/queries/script-query.ts). */
export interface ScriptQuery extends Common {
  readonly kind: 'script';
  readonly script: ScriptSpec;
}

export interface ConstantScoreQuery extends Common {
  readonly kind: 'constant_score';
  readonly filter: QueryNode;
}

export interface DisMaxQuery extends Common {
  readonly kind: 'dis_max';
  readonly queries: readonly QueryNode[];
  readonly tieBreaker: number;
}

/** `pruning_config` (ES TokenPruningConfig), defaults 5 / 0.4 / false. */
export interface TokenPruningConfig {
  readonly tokensFreqRatioThreshold: number;
  readonly tokensWeightThreshold: number;
  readonly onlyScorePrunedTokens: boolean;
}

/** One query token and its weight (ES WeightedToken), float32. */
export interface WeightedToken {
  readonly token: string;
  readonly weight: number;
}

/**
 * `text_expansion` (8.8+, deprecated 8.15): the model encodes `modelText` on the coordinator, which
 * fills `tokens` once before planning (ES's rewrite to weighted tokens); null until then.
 */
export interface TextExpansionQuery extends Common {
  readonly kind: 'text_expansion';
  readonly field: string;
  readonly modelId: string;
  readonly modelText: string;
  readonly pruningConfig: TokenPruningConfig | null;
  readonly tokens: readonly WeightedToken[] | null;
}

/**
 * `sparse_vector` (8.15+): `queryVector` given, or computed by the coordinator from `query` with
 * `inferenceId` before planning. Pruning applies only when `prune` is true (`pruningConfig` or the
 * defaults).
 */
export interface SparseVectorQuery extends Common {
  readonly kind: 'sparse_vector';
  readonly field: string;
  readonly inferenceId: string | null;
  readonly query: string | null;
  readonly queryVector: readonly WeightedToken[] | null;
  readonly prune: boolean;
  readonly pruningConfig: TokenPruningConfig | null;
}

/** `weighted_tokens` (8.13+): a precomputed query vector; pruned when `pruning_config` is given. */
export interface WeightedTokensQuery extends Common {
  readonly kind: 'weighted_tokens';
  readonly field: string;
  readonly tokens: readonly WeightedToken[];
  readonly pruningConfig: TokenPruningConfig | null;
}

/**
 * How `rank_feature` turns a stored feature value S into a score (Lucene FeatureField's functions):
 * saturation S / (S + pivot) (pivot null: from index statistics), log(scaling_factor + S),
 * sigmoid S^a / (S^a + pivot^a), linear S.
 */
export type RankFeatureFunction =
  | { readonly kind: 'saturation'; readonly pivot: number | null }
  | { readonly kind: 'log'; readonly scalingFactor: number }
  | { readonly kind: 'sigmoid'; readonly pivot: number; readonly exponent: number }
  | { readonly kind: 'linear' };

/** `rank_feature` (ES RankFeatureQueryBuilder): one feature of a `rank_features` field, `<field>.<feature>`. */
export interface RankFeatureQuery extends Common {
  readonly kind: 'rank_feature';
  readonly field: string;
  readonly fn: RankFeatureFunction;
}

/**
 * One kNN search's global top k, per index (its uuid): each document's index-wide write order
 * (ascending) and raw vector similarity (float32), found by the coordinator's kNN pre-phase
 * (cluster/search/knn-phase.ts) before the query phase, as ES's DFS phase finds its ScoreDocs.
 */
export interface KnnIndexMatches {
  readonly orders: Float64Array;
  readonly scores: Float32Array;
}

/**
 * `knn` (ES KnnVectorQueryBuilder, the query form of 8.12+, and each top-level `knn` search and
 * `knn` retriever, which become one of these). Search is exact (brute force): the k documents of
 * best similarity among those with a vector that match every `filter` (and reach `similarity`,
 * when given), over every shard of the search. `matches` says where planning stands: null — not
 * resolved (refused: a kNN query outside a search's query); 'candidates' — the pre-phase's
 * per-shard search for candidates; an object — the global top k per index uuid.
 */
export interface KnnQuery extends Common {
  readonly kind: 'knn';
  readonly field: string;
  /** Float32-rounded query vector (a hex `query_vector` is its signed bytes). */
  readonly queryVector: readonly number[];
  /** null: the request's `size` (capped by `num_candidates`), resolved by the coordinator. */
  readonly k: number | null;
  readonly numCandidates: number | null;
  readonly filter: readonly QueryNode[];
  /** Minimum raw similarity (a distance for l2_norm), float32; null = none. */
  readonly similarity: number | null;
  readonly matches: ReadonlyMap<string, KnnIndexMatches> | 'candidates' | null;
}

export type QueryNode =
  | MatchAllQuery
  | MatchNoneQuery
  | MatchQuery
  | MatchPhraseQuery
  | MatchPhrasePrefixQuery
  | MatchBoolPrefixQuery
  | MultiMatchQuery
  | QueryStringQuery
  | SimpleQueryStringQuery
  | BoolQuery
  | TermQuery
  | TermsQuery
  | RangeQuery
  | ExistsQuery
  | IdsQuery
  | PrefixQuery
  | WildcardQuery
  | RegexpQuery
  | FuzzyQuery
  | ConstantScoreQuery
  | BoostingQuery
  | FunctionScoreQuery
  | ScriptScoreQuery
  | ScriptQuery
  | DisMaxQuery
  | TextExpansionQuery
  | SparseVectorQuery
  | WeightedTokensQuery
  | RankFeatureQuery
  | KnnQuery;

export type QueryKind = QueryNode['kind'];

/** Compile-time exhaustiveness check for `switch (node.kind)`. */
export function assertNever(x: never): never {
  throw new Error(`unhandled variant: ${JSON.stringify(x)}`);
}
