/**
 * Planned completion suggestions (what a shard runs) and a shard's answer. Plain data: both cross
 * threads by structured clone (workers/protocol.ts).
 *
 * Order. Lucene's NRTSuggester walks the FST best path first — score descending, then analyzed
 * form ascending — and keeps the first `size` documents it reaches; the options are then shown by
 * score descending, surface text ascending (TopSuggestDocs, Suggest.COMPARATOR). Here the same
 * *selection order* (score desc, analyzed form asc, then index and write order, independent of
 * sharding) picks the options and the coordinator shows them in *display order* (score desc, text
 * asc, index, write order). On one shard of one segment this is what ES returns.
 */
import type { CompletionFuzzyOptions } from '../../dsl/suggest/index.js';
import type { Dfa } from '../../common/pattern/index.js';

/** What the analyzed text of a suggestion matches: a prefix of the analyzed forms, fuzzily or not, or a regex. */
export type CompletionMatch =
  | { readonly kind: 'prefix'; readonly form: string }
  | { readonly kind: 'fuzzy'; readonly form: string; readonly options: CompletionFuzzyOptions }
  /** A Lucene regexp matching a prefix of the form, as a DFA of `regex.*` (Lucene's RegexCompletionQuery). */
  | { readonly kind: 'regex'; readonly automaton: Dfa }
  /** The text analyzed to no token: Lucene's automaton is empty and matches nothing. */
  | { readonly kind: 'none' };

export interface ExecCompletion {
  readonly field: string;
  readonly match: CompletionMatch;
  readonly size: number;
  readonly skipDuplicates: boolean;
}

/** Per candidate: score, segment ordinal, doc, index-wide write order. */
export const SUGGEST_STRIDE = 4;

/**
 * A shard's candidates in selection order: without skip_duplicates its first `size` documents;
 * with it, enough for the coordinator's walk over all shards to be exact (completion-suggester.ts).
 */
export interface CompletionShardResult {
  readonly candidates: Float64Array;
  /** Analyzed form of each candidate (the selection order's second key). */
  readonly forms: readonly string[];
  /** Surface text of each candidate: the option's `text`. */
  readonly texts: readonly string[];
}
