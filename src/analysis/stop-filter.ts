/**
 * Lucene's StopFilter and the English stop-word set.
 *
 * Removing a token does not renumber the ones after it: the analyzer adds the removed token's
 * position to the next token's increment (FilteringTokenFilter), so phrase queries across a
 * removed word keep their gap, as in Elasticsearch.
 */
import type { TokenFilter } from './token-stream.js';

/**
 * Lucene `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET` (Elasticsearch `_english_`): 33 words, matched
 * case-sensitively (the set is applied after lowercasing).
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no',
  'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this',
  'to', 'was', 'will', 'with',
]);

/** A StopFilter removing the terms in `stopWords`. */
export function stopFilter(stopWords: ReadonlySet<string>): TokenFilter {
  return (term) => (stopWords.has(term) ? null : term);
}

/** StopFilter with {@link ENGLISH_STOP_WORDS}. */
export const englishStopFilter: TokenFilter = stopFilter(ENGLISH_STOP_WORDS);
