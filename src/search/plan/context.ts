/**
 * What planning needs to know about the indices being searched: their mapping, default fields,
 * the clock, and index-wide term statistics. Statistics are summed over every shard and segment of
 * the request (ES's dfs phase), which keeps scores independent of how documents are sharded.
 */
import type { ResolvedMapping } from '../../index/index.js';

export interface FieldStatistics {
  /** Documents with a value for the field (Lucene `Terms.getDocCount`). */
  readonly docCount: number;
  readonly sumTotalTermFreq: number;
  /** Postings of the field (Lucene `Terms.getSumDocFreq`), summed over segments. */
  readonly sumDocFreq: number;
  /** The most distinct terms any one segment has (what ES's token pruning divides by). */
  readonly maxSegmentTermCount: number;
}

export interface StatsSource {
  fieldStats(field: string): FieldStatistics;
  docFreq(field: string, term: string): number;
  /**
   * The sum of the term's postings frequencies over all segments (Lucene's totalTermFreq), summed
   * exactly: feature fields keep weights in the frequencies, whose sums outgrow 32 bits.
   */
  totalTermFreq(field: string, term: string): number;
  /** Distinct terms of the field, in code-point order, over all segments; stop early by returning false. */
  forEachTerm(field: string, fromPrefix: string, visit: (term: string) => boolean): void;
}

export interface PlanContext {
  readonly mapping: ResolvedMapping;
  /** `index.query.default_field`. */
  readonly defaultFields: readonly string[];
  /** `index.max_regex_length`. */
  readonly maxRegexLength: number;
  readonly stats: StatsSource;
  /** Epoch millis for `now` in date math: one value for the whole request. */
  readonly now: number;
  readonly index: { readonly name: string; readonly uuid: string };
  /** `indices.query.bool.max_clause_count` (default 4096); query text analysis stops past it. */
  readonly maxClauseCount?: number;
  /** `index.max_inner_result_window` (default 100): bounds a `top_hits` aggregation's from + size. */
  readonly maxInnerResultWindow?: number;
  /** `index.top_metrics_max_size` (default 10): bounds a `top_metrics` aggregation's size. */
  readonly topMetricsMaxSize?: number;
  /** Called by planning that folds in one search's own data (a kNN search's matches): the plan is not cached. */
  readonly uncacheable?: () => void;
}
