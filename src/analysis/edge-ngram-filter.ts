/**
 * Lucene's EdgeNGramTokenFilter: each token becomes its prefixes of `minGram`..`maxGram` code
 * points, all at the token's position and with the token's offsets. With `preserveOriginal`, a
 * token shorter than `minGram` or longer than `maxGram` is also kept whole (after its prefixes).
 * ES's search_as_you_type indexes `._index_prefix` this way (1..20, preserving originals), which is
 * what lets a prefix query there be a single term lookup.
 *
 * One token in, many out, so it wraps an analyzer rather than being a one-to-one `TokenFilter`.
 */
import type { Analyzer, TokenSink } from './analyzers.js';

export interface EdgeNGramOptions {
  readonly minGram: number;
  readonly maxGram: number;
  readonly preserveOriginal: boolean;
}

export function edgeNGramAnalyzer(name: string, inner: Analyzer, o: EdgeNGramOptions): Analyzer {
  if (o.minGram < 1) throw new Error('minGram must be greater than zero');
  if (o.minGram > o.maxGram) throw new Error('minGram must not be greater than maxGram');
  return {
    name,
    analyze(text: string, sink: TokenSink, firstPosition = 0): number {
      return inner.analyze(text, (term, position, start, end) => {
        // Walk code points (a surrogate pair is one), emitting each prefix length in range.
        let grams = 0;
        let i = 0;
        while (i < term.length && grams < o.maxGram) {
          const c = term.charCodeAt(i);
          i += c >= 0xd800 && c <= 0xdbff && i + 1 < term.length ? 2 : 1;
          grams++;
          if (grams >= o.minGram) sink(term.slice(0, i), position, start, end);
        }
        // Shorter than minGram (nothing emitted) or longer than maxGram (cut short): keep it whole.
        if (o.preserveOriginal && (grams < o.minGram || i < term.length)) sink(term, position, start, end);
      }, firstPosition);
    },
  };
}
