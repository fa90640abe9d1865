/**
 * Analyzers: a tokenizer plus a chain of token filters, and the registry of Elasticsearch's
 * built-in analyzers (https://www.elastic.co/guide/en/elasticsearch/reference/current/analysis-analyzers.html).
 *
 * Positions follow Lucene's indexing chain (IndexingChain / FieldInvertState): each token advances
 * the position by its increment, which is 1 plus the number of tokens removed just before it (by a
 * stop filter), so `the quick` analysed by `english` puts `quick` at position 1. The value returned
 * by {@link Analyzer.analyze} is where the next value of a multi-valued field starts counting from
 * (before the caller adds `position_increment_gap`); it includes removed trailing tokens the way
 * Lucene's `TokenStream.end()` reports them.
 */
import { letterTokenizer, whitespaceTokenizer } from './char-tokenizer.js';
import { englishPossessiveFilter } from './english-possessive-filter.js';
import { keywordTokenizer } from './keyword-tokenizer.js';
import { lowercaseFilter } from './lowercase-filter.js';
import { porterStemFilter } from './porter-stemmer.js';
import { standardTokenizer } from './standard-tokenizer.js';
import { englishStopFilter } from './stop-filter.js';
import { SPAN_END, SPAN_LENGTH, SPAN_START, type TokenFilter, type Tokenizer } from './token-stream.js';

/** Receives each token; called in position order. Offsets are UTF-16 code units, end exclusive. */
export type TokenSink = (term: string, position: number, startOffset: number, endOffset: number) => void;

export interface Analyzer {
  readonly name: string;
  /** Emits the tokens of `text`, first position = firstPosition (default 0). Returns the position
   *  one past the last emitted token's position accounting for trailing removed tokens the way
   *  Lucene does for multi-valued fields (so the caller can add position_increment_gap). If no token is emitted, return firstPosition. */
  analyze(text: string, sink: TokenSink, firstPosition?: number): number;
}

/**
 * Span buffer shared by every analyzer, so analysing a value allocates nothing but the terms.
 * Re-entrant use (a sink that analyses another text) is safe: the span is read only right after
 * `Tokenizer.next` fills it, and tokenizers keep no state between calls.
 */
const SPAN = new Int32Array(SPAN_LENGTH);

/** Entries a memoized filter chain keeps before it starts over (~a few MB of short strings). */
const MEMO_LIMIT = 1 << 16;

/**
 * Composes filters into one, memoizing its results by input term. Worth it for chains with a
 * stemmer: natural-language text repeats a small vocabulary (Zipf), so most tokens become one
 * hash lookup instead of lowercasing, a stop-set lookup and a Porter run. The cache only saves
 * work: the filters are pure, so results do not depend on what it holds. It is emptied when full.
 */
export function memoizedFilterChain(filters: readonly TokenFilter[]): TokenFilter {
  const chain = filters.slice();
  const memo = new Map<string, string | null>();
  return (term) => {
    let out = memo.get(term);
    if (out === undefined) {
      const key = detach(term);
      out = key;
      for (let f = 0; f < chain.length && out !== null; f++) out = chain[f](out);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(key, out);
    }
    return out;
  };
}

/**
 * A copy of `s` sharing no storage with it. V8 represents a `slice()` of 13+ chars as a view that
 * keeps the whole sliced text alive, and filters often return their input unchanged; a cache
 * holding such views would pin every document it has seen. Joining an array builds a new string.
 */
function detach(s: string): string {
  return s.split('').join('');
}

/** An analyzer assembled from a tokenizer and filters (Lucene `Analyzer.TokenStreamComponents`). */
export function chainAnalyzer(name: string, tokenizer: Tokenizer, filters: readonly TokenFilter[]): Analyzer {
  const chain = filters.slice();
  const filterCount = chain.length;
  return {
    name,
    analyze(text: string, sink: TokenSink, firstPosition = 0): number {
      const span = SPAN;
      let position = firstPosition - 1;
      let removed = 0; // positions skipped since the last emitted token
      let emitted = false;
      let previousEnd = -1;
      while (tokenizer.next(text, previousEnd, span)) {
        const start = span[SPAN_START];
        const end = span[SPAN_END];
        previousEnd = end;
        let term: string | null = text.slice(start, end);
        for (let f = 0; f < filterCount && term !== null; f++) term = chain[f](term);
        if (term === null) {
          removed++;
          continue;
        }
        position += 1 + removed;
        removed = 0;
        emitted = true;
        sink(term, position, start, end);
      }
      return emitted ? position + removed + 1 : firstPosition;
    },
  };
}

/** `standard`: StandardTokenizer + LowerCaseFilter; Elasticsearch's default has no stop words. */
const standard = chainAnalyzer('standard', standardTokenizer, [lowercaseFilter]);

/**
 * `english` (Lucene EnglishAnalyzer): StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter
 * → StopFilter(English) → PorterStemFilter. The SetKeywordMarkerFilter Lucene inserts before the
 * stemmer only exists when `stem_exclusion` is set, which the built-in analyzer does not do.
 */
const english = chainAnalyzer('english', standardTokenizer, [
  memoizedFilterChain([englishPossessiveFilter, lowercaseFilter, englishStopFilter, porterStemFilter]),
]);

/** `simple` (Lucene SimpleAnalyzer): LetterTokenizer + LowerCaseFilter. */
const simple = chainAnalyzer('simple', letterTokenizer, [lowercaseFilter]);

/** `whitespace` (Lucene WhitespaceAnalyzer): WhitespaceTokenizer, case kept. */
const whitespace = chainAnalyzer('whitespace', whitespaceTokenizer, []);

/** `keyword` (Lucene KeywordAnalyzer): the whole input as one token. */
const keyword = chainAnalyzer('keyword', keywordTokenizer, []);

/** `stop` (Lucene StopAnalyzer with `_english_`): LetterTokenizer + LowerCaseFilter + StopFilter. */
const stop = chainAnalyzer('stop', letterTokenizer, [lowercaseFilter, englishStopFilter]);

const REGISTRY: ReadonlyMap<string, Analyzer> = new Map(
  [standard, english, simple, whitespace, keyword, stop].map((a) => [a.name, a]),
);

/** Names of the built-in analyzers, in registry order. */
export const BUILT_IN_ANALYZERS: readonly string[] = Object.freeze([...REGISTRY.keys()]);

/** The built-in analyzer called `name`, or undefined. */
export function getAnalyzer(name: string): Analyzer | undefined {
  return REGISTRY.get(name);
}

/** Convenience for query-time use and tests. */
export function analyzeToTokens(
  analyzer: Analyzer,
  text: string,
): Array<{ term: string; position: number; startOffset: number; endOffset: number }> {
  const tokens: Array<{ term: string; position: number; startOffset: number; endOffset: number }> = [];
  analyzer.analyze(text, (term, position, startOffset, endOffset) => {
    tokens.push({ term, position, startOffset, endOffset });
  });
  return tokens;
}
