/**
 * The executable query: what a shard task carries to a worker. Plain, structured-clonable data,
 * fully resolved on the coordinator: fields and terms chosen, text analysed, index-wide statistics
 * folded into term weights, and every boost multiplied down into the leaves (as Lucene's
 * createWeight does), so compound nodes carry no boost and workers need no mapping or stats.
 */
import type { Dfa } from '../../common/pattern/index.js';
import type { CompiledScript, DocValueType } from '../../dsl/index.js';
import type { VectorElementType, VectorSimilarity } from '../../index/index.js';

/** A scoring term: BM25 with a precomputed weight (boost × idf) and the field's index-wide avgdl. */
export interface TermExec {
  readonly kind: 'term';
  readonly field: string;
  readonly term: string;
  readonly weight: number;
  readonly avgdl: number;
  /** The field's BM25 k1 and b when its similarity sets them (absent: Lucene's 1.2 and 0.75). */
  readonly k1?: number;
  readonly b?: number;
}

/**
 * One feature of a sparse_vector / rank_features field, scored linearly as Lucene's
 * `FeatureField.newLinearQuery` inside a `BoostQuery`: float32(weight × stored feature value), where
 * weight = boost × query token weight. A learned-sparse query is a bool `should` of these.
 * `rank_feature` sets `fn` to score weight × fn(stored value) instead (Lucene's other functions).
 */
export interface FeatureExec {
  readonly kind: 'feature';
  readonly field: string;
  readonly feature: string;
  readonly weight: number;
  readonly fn?: FeatureFunction;
}

/** A non-linear FeatureField function with every parameter resolved (the saturation pivot included). */
export type FeatureFunction =
  | { readonly kind: 'saturation'; readonly pivot: number }
  | { readonly kind: 'log'; readonly scalingFactor: number }
  | { readonly kind: 'sigmoid'; readonly pivot: number; readonly exponent: number };

/** Exact phrase / sloppy phrase over positions; scored by BM25 on the phrase frequency. */
export interface PhraseExec {
  readonly kind: 'phrase';
  readonly field: string;
  readonly terms: readonly string[];
  /** Relative positions of the terms (gaps from removed stop words kept). */
  readonly positions: readonly number[];
  readonly slop: number;
  readonly weight: number;
  readonly avgdl: number;
  readonly k1?: number;
  readonly b?: number;
  /** The last term is a prefix expanded to at most `maxExpansions` terms (match_phrase_prefix). */
  readonly prefixExpansions: readonly string[] | null;
  /**
   * Where `prefixExpansions` are looked up when not in `field`: an edge n-gram field indexed at the
   * same positions, holding the prefix as one term (ES's FieldMaskingSpanQuery over
   * search_as_you_type's `._index_prefix`). Norms and statistics stay those of `field`.
   */
  readonly prefixField: string | null;
}

export interface BoolExec {
  readonly kind: 'bool';
  readonly must: readonly Exec[];
  readonly should: readonly Exec[];
  readonly filter: readonly Exec[];
  readonly mustNot: readonly Exec[];
  readonly minimumShouldMatch: number;
}

export interface DisMaxExec {
  readonly kind: 'dis_max';
  readonly clauses: readonly Exec[];
  readonly tieBreaker: number;
}

/** ES `boosting`: `positive`'s scores times `negativeBoost` where `negative` matches, times `boost`. */
export interface BoostingExec {
  readonly kind: 'boosting';
  readonly positive: Exec;
  readonly negative: Exec;
  readonly negativeBoost: number;
  readonly boost: number;
}

/** A `function_score` function resolved for an index: numbers, dates as epoch millis, time values as millis. */
export type FunctionExec =
  | { readonly kind: 'weight' }
  | { readonly kind: 'field_value_factor'; readonly field: string; readonly factor: number; readonly modifier: string; readonly missing: number | null }
  | {
    readonly kind: 'decay'; readonly type: 'gauss' | 'exp' | 'linear'; readonly field: string; readonly origin: number; readonly scale: number;
    readonly offset: number; readonly decay: number; readonly multiValueMode: 'min' | 'max' | 'avg' | 'sum';
  }
  | { readonly kind: 'script_score'; readonly script: CompiledScript }
  /**
   * ES RandomScoreFunction with its salted seed: murmur3 of `field`'s first value as text (`vt`
   * says how it renders; `_seq_no`: the index-wide write order's), or without a seed (`field`
   * null) BitMixer.mix of the write order.
   */
  | { readonly kind: 'random_score'; readonly saltedSeed: number; readonly field: string | null; readonly vt: DocValueType | null };

/** ES `function_score` (Lucene/ES FunctionScoreQuery): see exec/function-score-scorer.ts. */
export interface FunctionScoreExec {
  readonly kind: 'function_score';
  readonly query: Exec;
  readonly functions: ReadonlyArray<{ readonly filter: Exec | null; readonly weight: number; readonly fn: FunctionExec }>;
  readonly scoreMode: 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
  readonly boostMode: 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';
  readonly maxBoost: number;
  readonly minScore: number | null;
  readonly boost: number;
}

/** ES `script_score` (ScriptScoreQuery): `query`'s documents scored by the script (exec/script-score-scorer.ts). */
export interface ScriptScoreExec {
  readonly kind: 'script_score';
  readonly query: Exec;
  readonly script: CompiledScript;
  readonly minScore: number | null;
  readonly boost: number;
}

/** ES `script` (ScriptQuery): every live doc the filter script accepts, scored `score` (exec/script-filter-scorer.ts). */
export interface ScriptFilterExec {
  readonly kind: 'script_filter';
  readonly script: CompiledScript;
  readonly score: number;
}

/** Any filter as a scorer with a constant score (0 in filter context). */
export interface ConstantExec {
  readonly kind: 'constant';
  readonly filter: Exec;
  readonly score: number;
}

export interface MatchAllExec {
  readonly kind: 'match_all';
  readonly score: number;
}

export interface MatchNoneExec {
  readonly kind: 'match_none';
}

/** Matching-only leaves, materialised per segment as doc id sets; scored `score` when scoring. */
export type DocSetExec =
  | { readonly kind: 'terms'; readonly field: string; readonly terms: readonly string[]; readonly score: number }
  | { readonly kind: 'term_range'; readonly field: string; readonly lower: string | null; readonly upper: string | null; readonly includeLower: boolean; readonly includeUpper: boolean; readonly score: number }
  | { readonly kind: 'prefix'; readonly field: string; readonly prefix: string; readonly caseInsensitive: boolean; readonly score: number }
  /** Terms a regexp/wildcard/case-insensitive automaton accepts (a DFA: plain typed arrays). */
  | { readonly kind: 'pattern'; readonly field: string; readonly automaton: Dfa; readonly score: number }
  | { readonly kind: 'numeric_range'; readonly field: string; readonly lower: number; readonly upper: number; readonly score: number }
  | { readonly kind: 'exists'; readonly fields: readonly string[]; readonly score: number }
  | { readonly kind: 'ids'; readonly ids: readonly string[]; readonly score: number }
  | SliceExec;

/**
 * One part of a sliced scroll or point in time (ES SliceQuery): the docs whose key, floor-mod
 * `max`, is `id` (exec/slice-docs.ts). `by`: the key — `id` the murmur3 hash of `_id` (ES
 * TermsSliceQuery), `index_order` the index-wide write order, `long`/`double`/`float` the mixed
 * bits of each numeric doc value of `field` (ES DocValuesSliceQuery).
 */
export interface SliceExec {
  readonly kind: 'slice';
  readonly by: 'id' | 'index_order' | 'long' | 'double' | 'float';
  readonly field: string | null;
  readonly id: number;
  readonly max: number;
  readonly score: number;
}

/**
 * The kNN pre-phase's per-shard search (exec/knn-scorers.ts): every document with a vector in
 * `field` that matches `filter` and scores at least `minScore`, scored by the raw similarity. Only
 * the pre-phase runs it (its own top-k collector, search/knn-candidates.ts).
 */
export interface KnnExactExec {
  readonly kind: 'knn_exact';
  readonly field: string;
  readonly vector: Float32Array;
  readonly similarity: VectorSimilarity;
  readonly elementType: VectorElementType;
  /** The `similarity` threshold as a score (-Infinity: none). */
  readonly minScore: number;
  readonly filter: Exec | null;
}

/**
 * One kNN search's global top k within one index (ES KnnScoreDocQuery): the documents named by
 * their index-wide write order (ascending), each scoring its similarity × `boost`.
 */
export interface KnnScoreDocExec {
  readonly kind: 'knn_score_doc';
  readonly field: string;
  readonly orders: Float64Array;
  readonly scores: Float32Array;
  readonly boost: number;
}

export type Exec = TermExec | FeatureExec | PhraseExec | BoolExec | DisMaxExec | BoostingExec | FunctionScoreExec | ScriptScoreExec | ScriptFilterExec | ConstantExec | MatchAllExec | MatchNoneExec | DocSetExec
  | KnnExactExec | KnnScoreDocExec;

export const MATCH_NONE: MatchNoneExec = { kind: 'match_none' };
