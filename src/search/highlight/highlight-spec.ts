/**
 * What the fetch phase needs to highlight hits of one index: plain, structured-clonable data built
 * once per index on the coordinator (build-spec.ts) and carried in the FetchSpec, so a worker
 * rendering a single-shard page highlights without a mapping. Every option is final here (field
 * options over the top level's over ES's defaults).
 */
import type { PlainError } from '../../errors/index.js';
import type { ResolvedField } from '../../index/index.js';
import type { Exec } from '../plan/exec-nodes.js';
import type { PassageMode } from './passage-bounds.js';

export interface HighlightFieldSpec {
  /** The key in the hit's `highlight` object. */
  readonly name: string;
  readonly field: ResolvedField;
  /** Where the values are in `_source` (a multi-field reads its parent's). */
  readonly sourcePath: string;
  /** A search_as_you_type root's `._index_prefix` subfield: its terms highlight this field's words they begin. */
  readonly prefixField: string | null;
  /** Analysed text (one token per word) rather than one token per value. */
  readonly tokenized: boolean;
  /** Index into HighlightSpec.queries: the search query, or this field's `highlight_query`. */
  readonly query: number;
  /**
   * Lucene's WEIGHT_MATCHES mode (ES 8.10+ when require_field_match is true): only the matches of
   * query clauses that match the document, a phrase as one span. Otherwise every query term is
   * highlighted on its own (term mode).
   */
  readonly weightMatches: boolean;
  readonly requireFieldMatch: boolean;
  readonly preTag: string;
  readonly postTag: string;
  readonly passageMode: PassageMode;
  readonly fragmentSize: number;
  /** Passages kept; 0 = every value with a match, whole and untrimmed. */
  readonly numberOfFragments: number;
  readonly noMatchSize: number;
  readonly scoreOrder: boolean;
  readonly maxAnalyzedOffset: number | null;
  /** An error ES raises when it highlights this field in a hit (e.g. an unusable boundary_scanner). */
  readonly error: PlainError | null;
}

export interface HighlightSpec {
  /** `encoder: html`: the text (never the tags) is HTML-escaped. */
  readonly html: boolean;
  /** The planned queries the fields highlight the terms of. */
  readonly queries: readonly Exec[];
  /** Concrete fields in ES's order (wildcards expanded; a name listed twice keeps its first place). */
  readonly fields: readonly HighlightFieldSpec[];
  /** An error ES raises as soon as it highlights a hit of this index (an unknown highlighter type). */
  readonly error: PlainError | null;
}
