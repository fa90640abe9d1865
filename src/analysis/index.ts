/**
 * analysis/ — text analysis compatible with Elasticsearch and Lucene: tokenizers (standard,
 * letter, whitespace, keyword, n-grams), token filters (lowercase, stop, stemmers, synonyms,
 * shingles, word delimiters, pattern_replace …), char filters (html_strip, mapping,
 * pattern_replace), the `pattern` tokenizer and analyzer, analyzer wrappers for
 * search_as_you_type, the built-in analyzers (`standard`, `english`, `simple`, `whitespace`,
 * `keyword`, `stop`) and an index's configured analysis (`index.analysis.*`: custom analyzers
 * and normalizers, index-analysis.ts), with the per-stage runs `_analyze` shows.
 * Index-time and query-time analysis both come from here, so terms always agree.
 *
 * Invariants:
 * - Pure and deterministic: the same text always yields the same tokens, positions and offsets;
 *   the only module state is caches (code point classes, DFA states, the stemmer's buffer).
 * - Offsets are UTF-16 code units (Java char offsets), end exclusive; positions follow Lucene's
 *   position increments (removed stop words leave gaps).
 * - No Node APIs (`node:*`), no I/O: it runs in workers and could run in a browser.
 * - Must not import any other project folder but the leaves (docs/ARCHITECTURE.md §5): errors/,
 *   and common/pattern, whose matcher VM runs the `pattern` components' java.util.regex patterns
 *   without backtracking.
 */
export {
  BUILT_IN_ANALYZERS,
  analyzeToTokens,
  chainAnalyzer,
  getAnalyzer,
  type Analyzer,
  type ChainOptions,
  type TermIdSink,
  type TokenInterner,
  type TokenSink,
} from './analyzers.js';
export {
  DEFAULT_MAX_TOKEN_LENGTH,
  TOKEN_TYPES,
  nextStandardToken,
  standardTokenizer,
  standardTokenizerWithMaxLength,
  standardTokens,
} from './standard-tokenizer.js';
export { charTokenizer, letterTokenizer, whitespaceTokenizer } from './char-tokenizer.js';
export { keywordTokenizer } from './keyword-tokenizer.js';
export { lowercaseFilter } from './lowercase-filter.js';
export { englishPossessiveFilter } from './english-possessive-filter.js';
export { ENGLISH_STOP_WORDS, englishStopFilter, stopFilter } from './stop-filter.js';
export { porterStem, porterStemFilter } from './porter-stemmer.js';
export { MAX_FIXED_SHINGLE_SIZE, fixedShingleAnalyzer, type FixedShingleOptions } from './fixed-shingle-filter.js';
export { edgeNGramAnalyzer, type EdgeNGramOptions } from './edge-ngram-filter.js';
export type { TokenFilter, Tokenizer } from './token-stream.js';
export {
  buildIndexAnalysis, DEFAULT_INDEX_ANALYSIS, DEFAULT_INDEX_LIMITS, type AnalysisSettings, type IndexAnalysis,
} from './index-analysis.js';
export type { IndexLimits } from './component-factories.js';
export { AnalysisConfigError } from './analysis-params.js';
export {
  runStages, type AnalysisStages, type AnalyzerComponents, type ConfiguredAnalyzer, type FilterComponent, type Normalizer,
  type TokenizerComponent,
} from './analysis-components.js';
export type { Token, TokenStream } from './token-graph.js';
