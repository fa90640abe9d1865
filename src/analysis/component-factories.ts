/**
 * ES's analysis component types, by the `type` names of index settings, and the pre-configured
 * components usable by name without settings (ES's `PreConfiguredTokenizer`/`TokenFilter`/
 * `CharFilter`): each factory reads its settings (analysis-params.ts) once, when the index is
 * created, and returns the component.
 *
 * A filter factory returns a builder of the chain it sits in, because synonym filters analyse
 * their rules with the tokenizer and filters before them (ES's chain-aware factories).
 */
import { AnalysisConfigError, Params } from './analysis-params.js';
import { runStages, spanTokenizer, streamFilter, termFilter, type AnalyzerComponents, type FilterComponent, type TokenizerComponent } from './analysis-components.js';
import { asciiFold, asciiFoldingFilter } from './ascii-folding.js';
import { classicFilter, classicTokenize } from './classic-tokenizer.js';
import { charTokenizer, isJavaWhitespace, letterTokenizer, whitespaceTokenizer, DEFAULT_MAX_WORD_LEN } from './char-tokenizer.js';
import { mappingCharFilter, type CharFilter } from './char-filter.js';
import { englishPossessiveFilter } from './english-possessive-filter.js';
import { englishSnowballStem } from './english-snowball-stemmer.js';
import { htmlStripCharFilter } from './html-strip-char-filter.js';
import { keywordTokenizer } from './keyword-tokenizer.js';
import { FRENCH_STOP_WORDS, GERMAN_STOP_WORDS, SPANISH_STOP_WORDS } from './language-stop-words.js';
import { frenchLightStem, germanLightStem, germanNormalize, spanishLightStem } from './light-stemmers.js';
import { lowercaseFilter } from './lowercase-filter.js';
import { ngramFilter, ngramTokenize, tokenCharMatcher, TOKEN_CHAR_CLASSES, type TokenCharClass } from './ngram.js';
import { porterStem } from './porter-stemmer.js';
import { NON_WORD_PATTERN, compilePattern, patternGroup, patternReplaceCharFilter, patternReplaceTermFilter, patternTokenize, replacementOf, requiredPattern } from './pattern-analysis.js';
import { shingleFilter } from './shingle-filter.js';
import {
  FRENCH_ARTICLES, elisionFilter, englishMinimalStem, keywordMarkerFilter, lengthFilter, trimFilter, truncateFilter,
  uniqueFilter, uppercaseFilter,
} from './simple-token-filters.js';
import { DEFAULT_MAX_TOKEN_LENGTH, MAX_TOKEN_LENGTH_LIMIT, TOKEN_TYPES, standardTokenizer, standardTokenizerWithMaxLength } from './standard-tokenizer.js';
import { ENGLISH_STOP_WORDS, stopFilter } from './stop-filter.js';
import { SynonymRuleError, parseSolrSynonyms, parseWordnetSynonyms } from './synonym-map.js';
import { synonymFilter, synonymGraphFilter } from './synonym-filter.js';
import { UAX_TOKEN_TYPES, uaxUrlEmailTokenizer } from './uax-url-email-tokenizer.js';
import { wordDelimiterGraphFilter } from './word-delimiter-graph.js';
import { kstem } from './kstem.js';
import type { TokenFilter } from './token-stream.js';

/** Index-level limits some factories check (ES `index.max_ngram_diff`, `index.max_shingle_diff`). */
export interface IndexLimits {
  readonly maxNgramDiff: number;
  readonly maxShingleDiff: number;
}

export type TokenizerFactory = (p: Params, limits: IndexLimits) => TokenizerComponent;
export type ChainBuilder = (chain: Omit<AnalyzerComponents, 'filters'> & { readonly filters: readonly FilterComponent[] }) => FilterComponent;
export type FilterFactory = (p: Params, limits: IndexLimits) => ChainBuilder;
export type CharFilterFactory = (p: Params) => CharFilter;

const fixed = (c: FilterComponent): ChainBuilder => () => c;

// ---- tokenizers --------------------------------------------------------------------------------

function maxTokenLength(p: Params, fallback: number): number {
  const n = p.int('max_token_length', fallback);
  if (n < 1 || n > MAX_TOKEN_LENGTH_LIMIT) {
    throw new AnalysisConfigError(`maxTokenLen must be greater than 0 and less than ${MAX_TOKEN_LENGTH_LIMIT} passed: ${n}`);
  }
  return n;
}

/** `max_token_length` of the tokenizers built on Lucene's StandardTokenizer scanner (Lucene's bounds and messages). */
function scannerMaxTokenLength(p: Params, limit: number | null): number {
  const n = p.int('max_token_length', DEFAULT_MAX_TOKEN_LENGTH);
  if (n < 1) throw new AnalysisConfigError('maxTokenLength must be greater than zero');
  if (limit !== null && n > limit) throw new AnalysisConfigError(`maxTokenLength may not exceed ${limit}`);
  return n;
}

function tokenChars(p: Params): { classes: TokenCharClass[]; custom: string } {
  const classes = (p.list('token_chars') ?? []).map((c) => c.trim().toLowerCase()).filter((c) => c !== '');
  for (const c of classes) {
    if (!(TOKEN_CHAR_CLASSES as readonly string[]).includes(c)) {
      throw new AnalysisConfigError(`Unknown token type: '${c.slice(0, 50)}', must be one of [${TOKEN_CHAR_CLASSES.join(', ')}]`);
    }
  }
  const custom = p.string('custom_token_chars', '');
  if (classes.includes('custom') && custom === '') throw new AnalysisConfigError('Token type: \'custom\' requires setting `custom_token_chars`');
  return { classes: classes as TokenCharClass[], custom };
}

/** `min_gram` and `max_gram` (defaults 1 and 2), checked as ES and Lucene do; n-grams within `index.max_ngram_diff`. */
function gramSizes(p: Params, limits: IndexLimits, edges: boolean): { min: number; max: number } {
  const min = p.int('min_gram', 1);
  const max = p.int('max_gram', 2);
  if (!edges && max - min > limits.maxNgramDiff) {
    throw new AnalysisConfigError(`The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [${limits.maxNgramDiff}] but was [${max - min}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.`);
  }
  if (min < 1) throw new AnalysisConfigError('minGram must be greater than zero');
  if (min > max) throw new AnalysisConfigError('minGram must not be greater than maxGram');
  return { min, max };
}

function ngramTokenizerFactory(edges: boolean): TokenizerFactory {
  return (p, limits) => {
    const { min, max } = gramSizes(p, limits, edges);
    const { classes, custom } = tokenChars(p);
    const isTokenChar = tokenCharMatcher(classes, custom);
    return { name: p.name, span: null, tokenize: (text) => ngramTokenize(text, min, max, edges, isTokenChar) };
  };
}

const lowercaseTokenizer: TokenizerComponent = {
  name: 'lowercase',
  span: null,
  tokenize: (text) => spanTokenizer(letterTokenizer, null).tokenize(text).map((t) => ({ ...t, term: lowercaseFilter(t.term)! })),
};

export const TOKENIZER_TYPES: ReadonlyMap<string, TokenizerFactory> = new Map<string, TokenizerFactory>([
  ['standard', (p) => {
    const n = maxTokenLength(p, DEFAULT_MAX_TOKEN_LENGTH);
    return spanTokenizer(n === DEFAULT_MAX_TOKEN_LENGTH ? standardTokenizer : standardTokenizerWithMaxLength(n), TOKEN_TYPES, p.name);
  }],
  ['whitespace', (p) => {
    const n = maxTokenLength(p, DEFAULT_MAX_WORD_LEN);
    return spanTokenizer(n === DEFAULT_MAX_WORD_LEN ? whitespaceTokenizer : charTokenizer('whitespace', (cp) => !isJavaWhitespace(cp), n), null, p.name);
  }],
  ['uax_url_email', (p) => spanTokenizer(uaxUrlEmailTokenizer(scannerMaxTokenLength(p, MAX_TOKEN_LENGTH_LIMIT)), UAX_TOKEN_TYPES, p.name)],
  ['classic', (p) => {
    const n = scannerMaxTokenLength(p, null); // ClassicTokenizer has no upper bound
    return { name: p.name, span: null, tokenize: (text) => classicTokenize(text, n) };
  }],
  ['letter', (p) => spanTokenizer(letterTokenizer, null, p.name)],
  ['lowercase', (p) => ({ ...lowercaseTokenizer, name: p.name })],
  ['keyword', (p) => spanTokenizer(keywordTokenizer, null, p.name)],
  ['ngram', ngramTokenizerFactory(false)],
  ['nGram', ngramTokenizerFactory(false)],
  ['edge_ngram', ngramTokenizerFactory(true)],
  ['edgeNGram', ngramTokenizerFactory(true)],
  ['pattern', (p) => {
    const pattern = compilePattern(p, p.string('pattern', NON_WORD_PATTERN));
    const group = patternGroup(p, pattern);
    return { name: p.name, span: null, tokenize: (text) => patternTokenize(pattern, group, text) };
  }],
]);

/** Tokenizer types ES has that this server does not: refused by name rather than as unknown. */
export const UNSUPPORTED_TOKENIZERS = new Set([
  'simple_pattern', 'simple_pattern_split', 'char_group', 'path_hierarchy', 'PathHierarchy', 'thai',
]);

// ---- token filters -----------------------------------------------------------------------------

/** ES's named stop word lists this server knows (Lucene's sets). */
const NAMED_STOP_WORDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['_english_', ENGLISH_STOP_WORDS], ['_french_', FRENCH_STOP_WORDS], ['_german_', GERMAN_STOP_WORDS], ['_spanish_', SPANISH_STOP_WORDS],
]);

/** A stop word setting: a list of words and named lists; `_none_` is the empty list. */
export function stopWordSet(p: Params, key: string, fallback: ReadonlySet<string>, ignoreCase: boolean): ReadonlySet<string> {
  p.refusePath(`${key}_path`);
  const list = p.list(key);
  if (list === null) return fallback;
  const words = new Set<string>();
  for (const w of list) {
    const named = NAMED_STOP_WORDS.get(w);
    if (named !== undefined) for (const e of named) words.add(e);
    else if (w === '_none_') continue;
    else if (/^_[a-z]+_$/.test(w)) throw new AnalysisConfigError(`stop word list [${w}] is not supported by this server yet (supported: ${[...NAMED_STOP_WORDS.keys()].join(', ')}, _none_)`);
    else words.add(ignoreCase ? w.toLowerCase() : w);
  }
  return words;
}

function stopFilterFactory(p: Params): ChainBuilder {
  const ignoreCase = p.bool('ignore_case', false);
  const words = stopWordSet(p, 'stopwords', ENGLISH_STOP_WORDS, ignoreCase);
  if (!p.bool('remove_trailing', true)) throw new AnalysisConfigError(`[remove_trailing] false is not supported by this server yet (filter [${p.name}])`);
  const stop = stopFilter(words);
  return fixed(termFilter(p.name, ignoreCase ? (t) => stop(t.toLowerCase()) === null ? null : t : stop));
}

const stem = (name: string, fn: TokenFilter) => termFilter(name, fn, { costly: true, respectKeyword: true });

/** ES StemmerTokenFilterFactory's English languages. */
function stemmerFor(name: string, language: string): FilterComponent {
  switch (language) {
    case 'english': case 'porter': return stem(name, porterStem);
    case 'porter2': return stem(name, englishSnowballStem);
    case 'minimal_english': case 'minimalEnglish': return stem(name, englishMinimalStem);
    case 'possessive_english': case 'possessiveEnglish': return termFilter(name, englishPossessiveFilter, { respectKeyword: true });
    case 'light_french': case 'lightFrench': return stem(name, frenchLightStem);
    case 'light_german': case 'lightGerman': return stem(name, germanLightStem);
    case 'light_spanish': case 'lightSpanish': return stem(name, spanishLightStem);
    case 'light_english': case 'lightEnglish': case 'kstem': return stem(name, kstem);
    default:
      throw new AnalysisConfigError(`stemmer language [${language.slice(0, 50)}] is not supported by this server yet (supported: english, porter, porter2, light_english, kstem, minimal_english, possessive_english, light_french, light_german, light_spanish)`);
  }
}

function synonymFactory(graph: boolean): FilterFactory {
  return (p) => {
    p.refusePath('synonyms_path');
    if (p.has('synonyms_set')) throw new AnalysisConfigError(`[synonyms_set] is not supported by this server: give [synonyms] inline (filter [${p.name}])`);
    const rules = p.list('synonyms');
    if (rules === null) throw new AnalysisConfigError('synonym requires either `synonyms`, `synonyms_set` or `synonyms_path` to be configured');
    const expand = p.bool('expand', true);
    const lenient = p.bool('lenient', false);
    const ignoreCase = p.bool('ignore_case', false);
    const format = p.string('format', 'solr');
    if (format !== 'solr' && format !== 'wordnet') throw new AnalysisConfigError(`Unknown synonym format [${format.slice(0, 50)}]`);
    return (chain) => {
      // Rules are analysed by the chain before this filter (ES: tokenizer, char filters, previous filters).
      const analyze = (text: string): string[] => {
        const { streams } = runStages({ charFilters: chain.charFilters, tokenizer: chain.tokenizer, filters: chain.filters }, text, false);
        const tokens = streams[streams.length - 1].tokens;
        for (const t of tokens.slice(1)) {
          if (t.posInc !== 1) throw new SynonymRuleError(`term: ${text.slice(0, 100)} analyzed to a token (${t.term.slice(0, 100)}) with position increment != 1 (got: ${t.posInc})`);
        }
        return tokens.map((t) => (ignoreCase ? t.term.toLowerCase() : t.term));
      };
      try {
        const map = format === 'wordnet' ? parseWordnetSynonyms(rules, expand, lenient, analyze) : parseSolrSynonyms(rules, expand, lenient, analyze);
        return streamFilter(p.name, graph ? synonymGraphFilter(map, ignoreCase) : synonymFilter(map, ignoreCase));
      } catch (e) {
        if (e instanceof SynonymRuleError) throw new AnalysisConfigError(`failed to build synonyms: ${e.message}`);
        throw e;
      }
    };
  };
}

function ngramFilterFactory(edges: boolean): FilterFactory {
  return (p, limits) => {
    const { min, max } = gramSizes(p, limits, edges);
    if (edges && p.has('side') && p.string('side') !== 'front') throw new AnalysisConfigError('side=back is not supported anymore. Please fix your analysis chain');
    return fixed(streamFilter(p.name, ngramFilter(min, max, p.bool('preserve_original', false), edges)));
  };
}

function shingleFactory(p: Params, limits: IndexLimits): ChainBuilder {
  const max = p.int('max_shingle_size', 2);
  const min = p.int('min_shingle_size', 2);
  if (max < 2) throw new AnalysisConfigError(`Invalid maxShingleSize (${max}) - must be at least 2`);
  if (min < 2) throw new AnalysisConfigError(`Invalid minShingleSize (${min}) - must be at least 2`);
  if (min > max) throw new AnalysisConfigError(`Invalid minShingleSize (${min}) - must be no greater than maxShingleSize (${max})`);
  if (max - min > limits.maxShingleDiff) {
    throw new AnalysisConfigError(`In Shingle TokenFilter the difference between max_shingle_size and min_shingle_size (and +1 if outputting unigrams) must be less than or equal to: [${limits.maxShingleDiff}] but was [${max - min}]. This limit can be set by changing the [index.max_shingle_diff] index level setting.`);
  }
  return fixed(streamFilter(p.name, shingleFilter({
    minSize: min, maxSize: max, outputUnigrams: p.bool('output_unigrams', true),
    outputUnigramsIfNoShingles: p.bool('output_unigrams_if_no_shingles', false),
    separator: p.string('token_separator', ' '), filler: p.string('filler_token', '_'),
  })));
}

function wordDelimiterGraphFactory(p: Params): ChainBuilder {
  p.refusePath('protected_words_path');
  p.refusePath('type_table_path');
  if (p.has('type_table')) throw new AnalysisConfigError(`[type_table] is not supported by this server yet (filter [${p.name}])`);
  return fixed(streamFilter(p.name, wordDelimiterGraphFilter({
    generateWordParts: p.bool('generate_word_parts', true),
    generateNumberParts: p.bool('generate_number_parts', true),
    catenateWords: p.bool('catenate_words', false),
    catenateNumbers: p.bool('catenate_numbers', false),
    catenateAll: p.bool('catenate_all', false),
    splitOnCaseChange: p.bool('split_on_case_change', true),
    splitOnNumerics: p.bool('split_on_numerics', true),
    preserveOriginal: p.bool('preserve_original', false),
    stemEnglishPossessive: p.bool('stem_english_possessive', true),
    adjustOffsets: p.bool('adjust_offsets', true),
    ignoreKeywords: p.bool('ignore_keywords', false),
    protectedWords: new Set(p.list('protected_words') ?? []),
  })));
}

function keywordMarkerFactory(p: Params): ChainBuilder {
  p.refusePath('keywords_path');
  if (p.has('keywords_pattern')) throw new AnalysisConfigError(`[keywords_pattern] is not supported by this server yet (filter [${p.name}])`);
  const ignoreCase = p.bool('ignore_case', false);
  const keywords = p.list('keywords');
  if (keywords === null) throw new AnalysisConfigError('keyword filter requires either `keywords`, `keywords_path`, or `keywords_pattern` to be configured');
  const set = new Set(keywords.map((k) => (ignoreCase ? k.toLowerCase() : k)));
  return fixed(streamFilter(p.name, keywordMarkerFilter((t) => set.has(ignoreCase ? t.toLowerCase() : t)), false, true));
}

/** Code points reversed (Lucene ReverseStringFilter). */
const reverse = (t: string): string => [...t].reverse().join('');

export const FILTER_TYPES: ReadonlyMap<string, FilterFactory> = new Map<string, FilterFactory>([
  ['lowercase', (p) => {
    const language = p.string('language');
    if (language !== null) throw new AnalysisConfigError(`lowercase [language] [${language.slice(0, 50)}] is not supported by this server yet`);
    return fixed(termFilter(p.name, lowercaseFilter, { normalizing: true }));
  }],
  ['uppercase', (p) => fixed(termFilter(p.name, uppercaseFilter, { normalizing: true }))],
  ['asciifolding', (p) => {
    const preserve = p.bool('preserve_original', false);
    return fixed(preserve ? streamFilter(p.name, asciiFoldingFilter(true), true) : termFilter(p.name, asciiFold, { normalizing: true }));
  }],
  ['stop', stopFilterFactory],
  ['stemmer', (p) => fixed(stemmerFor(p.name, p.string('language') ?? p.string('name') ?? 'english'))],
  ['porter_stem', (p) => fixed(stem(p.name, porterStem))],
  ['snowball', (p) => {
    const language = p.string('language', 'English');
    if (language !== 'English' && language !== 'english' && language !== 'Porter') {
      throw new AnalysisConfigError(`snowball language [${language.slice(0, 50)}] is not supported by this server yet (supported: English, Porter)`);
    }
    return fixed(language === 'Porter' ? stem(p.name, porterStem) : stem(p.name, englishSnowballStem));
  }],
  ['kstem', (p) => fixed(stem(p.name, kstem))],
  ['classic', (p) => fixed(streamFilter(p.name, classicFilter))],
  ['synonym', synonymFactory(false)],
  ['synonym_graph', synonymFactory(true)],
  ['word_delimiter_graph', wordDelimiterGraphFactory],
  ['shingle', shingleFactory],
  ['ngram', ngramFilterFactory(false)],
  ['nGram', ngramFilterFactory(false)],
  ['edge_ngram', ngramFilterFactory(true)],
  ['edgeNGram', ngramFilterFactory(true)],
  ['length', (p) => fixed(termFilter(p.name, lengthFilter(p.int('min', 0), p.int('max', 2147483647))))],
  ['unique', (p) => fixed(streamFilter(p.name, uniqueFilter(p.bool('only_on_same_position', false))))],
  ['trim', (p) => fixed(termFilter(p.name, trimFilter, { normalizing: true }))],
  ['truncate', (p) => {
    const length = p.int('length', 10);
    if (length < 1) throw new AnalysisConfigError(`length parameter must be provided`);
    return fixed(termFilter(p.name, truncateFilter(length)));
  }],
  ['elision', (p) => {
    p.refusePath('articles_path');
    const ignoreCase = p.bool('articles_case', false);
    const articles = p.list('articles');
    if (articles === null) throw new AnalysisConfigError('elision filter requires [articles] or [articles_path] setting');
    return fixed(termFilter(p.name, elisionFilter(new Set(articles.map((a) => (ignoreCase ? a.toLowerCase() : a))), ignoreCase), { normalizing: true }));
  }],
  ['keyword_marker', keywordMarkerFactory],
  ['german_normalization', (p) => fixed(termFilter(p.name, germanNormalize, { normalizing: true }))],
  ['reverse', (p) => fixed(termFilter(p.name, reverse))],
  ['pattern_replace', (p) => {
    const pattern = requiredPattern(p, 'token filter');
    const replacement = replacementOf(pattern, p);
    return fixed(termFilter(p.name, patternReplaceTermFilter(pattern, replacement, p.bool('all', true)), { normalizing: true }));
  }],
]);

export const UNSUPPORTED_FILTERS = new Set([
  'word_delimiter', 'pattern_capture', 'hunspell', 'dictionary_decompounder', 'hyphenation_decompounder',
  'common_grams', 'condition', 'predicate_token_filter', 'script', 'fingerprint', 'min_hash', 'multiplexer', 'keep', 'keep_types',
  'limit', 'flatten_graph', 'cjk_width', 'cjk_bigram', 'decimal_digit', 'delimited_payload', 'stemmer_override',
  'apostrophe', 'remove_duplicates', 'synonym_set',
]);

/** Filters usable by name without settings. */
export const PRECONFIGURED_FILTERS: ReadonlyMap<string, ChainBuilder> = new Map<string, ChainBuilder>([
  ['lowercase', fixed(termFilter('lowercase', lowercaseFilter, { normalizing: true }))],
  ['uppercase', fixed(termFilter('uppercase', uppercaseFilter, { normalizing: true }))],
  ['asciifolding', fixed(termFilter('asciifolding', asciiFold, { normalizing: true }))],
  ['stop', fixed(termFilter('stop', stopFilter(ENGLISH_STOP_WORDS)))],
  ['stemmer', fixed(stem('stemmer', porterStem))],
  ['porter_stem', fixed(stem('porter_stem', porterStem))],
  ['snowball', fixed(stem('snowball', englishSnowballStem))],
  ['kstem', fixed(stem('kstem', kstem))],
  ['classic', fixed(streamFilter('classic', classicFilter))],
  ['trim', fixed(termFilter('trim', trimFilter, { normalizing: true }))],
  ['unique', fixed(streamFilter('unique', uniqueFilter(false)))],
  ['length', fixed(termFilter('length', lengthFilter(0, 2147483647)))],
  ['truncate', fixed(termFilter('truncate', truncateFilter(10)))],
  ['elision', fixed(termFilter('elision', elisionFilter(new Set(FRENCH_ARTICLES), true), { normalizing: true }))],
  ['reverse', fixed(termFilter('reverse', reverse))],
  ['german_normalization', fixed(termFilter('german_normalization', germanNormalize, { normalizing: true }))],
  ['shingle', fixed(streamFilter('shingle', shingleFilter({ minSize: 2, maxSize: 2, outputUnigrams: true, outputUnigramsIfNoShingles: false, separator: ' ', filler: '_' })))],
  ['ngram', fixed(streamFilter('ngram', ngramFilter(1, 2, false, false)))],
  ['edge_ngram', fixed(streamFilter('edge_ngram', ngramFilter(1, 1, false, true)))],
  ['word_delimiter_graph', wordDelimiterGraphFactory(new Params('filter', 'word_delimiter_graph', {}))],
]);

// ---- char filters -------------------------------------------------------------------------------

const RE_MAPPING_RULE = /^(.+?)\s*=>\s*(.*)$/s;

/** ES MappingCharFilterFactory's rule syntax: `key => value`, with \\, \t, \n, \uXXXX escapes. */
function parseMappingRule(rule: string): [string, string] {
  const m = RE_MAPPING_RULE.exec(rule.trim());
  if (!m) throw new AnalysisConfigError(`Invalid mapping rule : [${rule.slice(0, 100)}]`);
  const unescape = (s: string) => s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
    if (e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    return e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e === 'b' ? '\b' : e === 'f' ? '\f' : e;
  });
  const key = unescape(m[1]);
  if (key === '') throw new AnalysisConfigError(`Invalid mapping rule : [${rule.slice(0, 100)}]`);
  return [key, unescape(m[2])];
}

export const CHAR_FILTER_TYPES: ReadonlyMap<string, CharFilterFactory> = new Map<string, CharFilterFactory>([
  ['html_strip', (p) => htmlStripCharFilter(p.name, new Set(p.list('escaped_tags') ?? []))],
  ['mapping', (p) => {
    p.refusePath('mappings_path');
    const rules = p.list('mappings');
    if (rules === null) throw new AnalysisConfigError('mapping requires either `mappings` or `mappings_path` to be configured');
    const map = new Map<string, string>();
    for (const r of rules) {
      const [k, v] = parseMappingRule(r);
      map.set(k, v);
    }
    return mappingCharFilter(p.name, map);
  }],
  ['pattern_replace', (p) => {
    const pattern = requiredPattern(p, 'char filter');
    return patternReplaceCharFilter(p.name, pattern, replacementOf(pattern, p));
  }],
]);

export const UNSUPPORTED_CHAR_FILTERS = new Set(['icu_normalizer', 'kuromoji_iteration_mark']);

export const PRECONFIGURED_CHAR_FILTERS: ReadonlyMap<string, CharFilter> = new Map([
  ['html_strip', htmlStripCharFilter('html_strip', new Set())],
]);

/** Tokenizers usable by name without settings. */
export const PRECONFIGURED_TOKENIZERS: ReadonlyMap<string, TokenizerComponent> = new Map<string, TokenizerComponent>([
  ['standard', spanTokenizer(standardTokenizer, TOKEN_TYPES)],
  ['whitespace', spanTokenizer(whitespaceTokenizer, null)],
  ['letter', spanTokenizer(letterTokenizer, null)],
  ['uax_url_email', spanTokenizer(uaxUrlEmailTokenizer(DEFAULT_MAX_TOKEN_LENGTH), UAX_TOKEN_TYPES)],
  ['classic', { name: 'classic', span: null, tokenize: (text) => classicTokenize(text, DEFAULT_MAX_TOKEN_LENGTH) }],
  ['lowercase', lowercaseTokenizer],
  ['keyword', spanTokenizer(keywordTokenizer, null)],
  ['ngram', ngramTokenizerFactory(false)(new Params('tokenizer', 'ngram', {}), { maxNgramDiff: 1, maxShingleDiff: 3 })],
  ['edge_ngram', ngramTokenizerFactory(true)(new Params('tokenizer', 'edge_ngram', {}), { maxNgramDiff: 1, maxShingleDiff: 3 })],
  ['pattern', TOKENIZER_TYPES.get('pattern')!(new Params('tokenizer', 'pattern', {}), { maxNgramDiff: 1, maxShingleDiff: 3 })],
]);

