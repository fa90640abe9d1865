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
import { createTermCache, detach, findTerm, hashRange, storeTerm, type TermCache } from './term-cache.js';
import { SPAN_END, SPAN_LENGTH, SPAN_START, type TokenFilter, type Tokenizer } from './token-stream.js';

/**
 * Receives each token; called in position order. Offsets are UTF-16 code units, end exclusive.
 * `positionLength` (when given; 1 otherwise) is how many positions the token spans: a multi-word
 * synonym of synonym_graph (`ny` over `new york`) spans 2, which makes query text a token graph.
 */
export type TokenSink = (term: string, position: number, startOffset: number, endOffset: number, positionLength?: number) => void;

export interface Analyzer {
  readonly name: string;
  /** Emits the tokens of `text`, first position = firstPosition (default 0). Returns the position
   *  one past the last emitted token's position accounting for trailing removed tokens the way
   *  Lucene does for multi-valued fields (so the caller can add position_increment_gap); removed
   *  tokens advance it even when nothing is emitted, as in Lucene. */
  analyze(text: string, sink: TokenSink, firstPosition?: number): number;
  /**
   * `analyze` for indexing, on analyzers whose filters each map one token to one term (or remove
   * it) without context: a token's term depends only on its text, so `interner` can map the raw
   * token text straight to a term id and run the filters once per distinct token instead of once
   * per occurrence (what Lucene's BytesRefHash does for the token bytes). Same positions and
   * return value as `analyze`. Absent on analyzers with graph or multi-token filters.
   */
  analyzeInterned?(text: string, interner: TokenInterner, sink: TermIdSink, firstPosition?: number): number;
}

/**
 * Maps the raw text of a token — `text[start, end)`, before any filter — to a term id, calling
 * `filter(raw)` when it meets that raw text for the first time; null when the filters remove it.
 */
export interface TokenInterner {
  intern(text: string, start: number, end: number, filter: TokenFilter): number | null;
}

/** Receives each indexed token's term id and position (`analyzeInterned`). */
export type TermIdSink = (termId: number, position: number) => void;

/**
 * Span buffer shared by every analyzer, so analysing a value allocates nothing but the terms.
 * Re-entrant use (a sink that analyses another text) is safe: the span is read only right after
 * `Tokenizer.next` fills it, and tokenizers keep no state between calls.
 */
const SPAN = new Int32Array(SPAN_LENGTH);

/** Slots of an analyzer's term cache: 2^17, so up to 65,536 distinct tokens (a few MB). */
const TERM_CACHE_BITS = 17;

export interface ChainOptions {
  /**
   * Cache the filter chain's output per distinct token text (see term-cache.ts). Only for chains
   * of pure filters; worth it when the chain is costly (a stemmer).
   */
  readonly cacheTerms?: boolean;
}

/** An analyzer assembled from a tokenizer and filters (Lucene `Analyzer.TokenStreamComponents`). */
export function chainAnalyzer(
  name: string,
  tokenizer: Tokenizer,
  filters: readonly TokenFilter[],
  options: ChainOptions = {},
): Analyzer {
  const chain = filters.slice();
  const filterCount = chain.length;
  const cached = options.cacheTerms === true;
  // Made on first use: every thread loads the built-in and language analyzers, few use them all,
  // and each cache is ~2.5 MB of arrays (four at module load: 6 MB of every thread's heap).
  let cache: TermCache | null = null;
  const filter = (input: string): string | null => {
    let term: string | null = input;
    for (let f = 0; f < filterCount && term !== null; f++) term = chain[f](term);
    return term;
  };
  /** The chain's term for text[start, end), through the cache when there is one. */
  const termOf = (text: string, start: number, end: number): string | null => {
    if (!cached) return filter(text.slice(start, end));
    cache ??= createTermCache(TERM_CACHE_BITS);
    const hash = hashRange(text, start, end);
    const slot = findTerm(cache, text, start, end, hash);
    if (slot >= 0) return cache.values[slot];
    const key = detach(text.slice(start, end));
    const term = filter(key);
    storeTerm(cache, slot, key, hash, term);
    return term;
  };
  const filterRaw: TokenFilter = cached ? (raw) => termOf(raw, 0, raw.length) : filter;
  return {
    name,
    analyze(text: string, sink: TokenSink, firstPosition = 0): number {
      return scanTokens(tokenizer, text, firstPosition, termOf, sink);
    },
    analyzeInterned(text: string, interner: TokenInterner, sink: TermIdSink, firstPosition = 0): number {
      return scanTokens(tokenizer, text, firstPosition, (t, start, end) => interner.intern(t, start, end, filterRaw), sink);
    },
  };
}

/**
 * The token loop of a chain: `resolve` turns each token into what `emit` receives (a term, or a
 * term id), null when the filters remove it; positions as described on {@link Analyzer.analyze}.
 */
function scanTokens<T>(
  tokenizer: Tokenizer,
  text: string,
  firstPosition: number,
  resolve: (text: string, start: number, end: number) => T | null,
  emit: (value: T, position: number, startOffset: number, endOffset: number) => void,
): number {
  const span = SPAN;
  let position = firstPosition - 1;
  let removed = 0; // positions skipped since the last emitted token
  let emitted = false;
  let previousEnd = -1;
  while (tokenizer.next(text, previousEnd, span)) {
    const start = span[SPAN_START];
    const end = span[SPAN_END];
    previousEnd = end;
    const value = resolve(text, start, end);
    if (value === null) {
      removed++;
      continue;
    }
    position += 1 + removed;
    removed = 0;
    emitted = true;
    emit(value, position, start, end);
  }
  // Removed tokens still advance the position (Lucene applies their increment in end()).
  return emitted ? position + removed + 1 : firstPosition + removed;
}

/** `standard`: StandardTokenizer + LowerCaseFilter; Elasticsearch's default has no stop words. */
const standard = chainAnalyzer('standard', standardTokenizer, [lowercaseFilter]);

/**
 * `english` (Lucene EnglishAnalyzer): StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter
 * → StopFilter(English) → PorterStemFilter. The SetKeywordMarkerFilter Lucene inserts before the
 * stemmer only exists when `stem_exclusion` is set, which the built-in analyzer does not do.
 */
const english = chainAnalyzer(
  'english',
  standardTokenizer,
  [englishPossessiveFilter, lowercaseFilter, englishStopFilter, porterStemFilter],
  { cacheTerms: true },
);

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
