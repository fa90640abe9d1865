/**
 * The two kinds of analysis stage, reduced to what Lucene's TokenStream chain needs here.
 *
 * Tokenizers are pull-based and write into a caller-owned `Int32Array` so that scanning a document
 * allocates nothing but the emitted term strings (no token objects, no closures per document).
 * Token filters map one term to one term, or to `null` to remove it (Lucene's FilteringTokenFilter);
 * the analyzer turns removals into position increments.
 */

/** Slots of the span array a tokenizer writes. */
export const SPAN_START = 0;
export const SPAN_END = 1;
/** Tokenizer-specific type (StandardTokenizer's `<ALPHANUM>` etc. as an index); 0 otherwise. */
export const SPAN_TYPE = 2;
export const SPAN_LENGTH = 3;

export interface Tokenizer {
  readonly name: string;
  /**
   * Finds the token after the one that ended at `previousEnd` (-1 before the first token).
   * On success writes start offset, end offset (UTF-16 units, end exclusive) and type into `out`
   * and returns true; returns false when the input is exhausted.
   */
  next(text: string, previousEnd: number, out: Int32Array): boolean;
}

/** Returns the filtered term, or null to remove the token (its position is then skipped). */
export type TokenFilter = (term: string) => string | null;
