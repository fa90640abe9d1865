/**
 * The analyzers a field is indexed and searched with. For most fields these are the named
 * analyzers of the mapping; search_as_you_type subfields wrap them as ES's SearchAsYouTypeAnalyzer
 * does: `._<n>gram` adds shingles of n tokens (index, search and quote analysis alike, the quote
 * one built on the *search* analyzer), `._index_prefix` indexes edge n-grams of max_shingle_size
 * shingles padded at the end of the value, and searches with plain shingles (its quote analyzer is
 * the unwrapped search analyzer: the field takes no phrase queries).
 *
 * Index-time and query-time code both come here, so a field's terms always agree. Wrappers are
 * built once per distinct configuration.
 */
import { edgeNGramAnalyzer, fixedShingleAnalyzer, type Analyzer, type IndexAnalysis, type Normalizer } from '../../analysis/index.js';
import { resolveTextContext } from '../text-analysis.js';
import { INDEX_PREFIX_MAX_CHARS, INDEX_PREFIX_MIN_CHARS } from './search-as-you-type.js';
import type { ResolvedField } from './types.js';

/** ES SearchAsYouTypeAnalyzer's FixedShingleFilter arguments: a gap leaves an empty token. */
const SEPARATOR = ' ';
const FILLER = '';

/** Wrapped analyzers per index analysis (weakly held: an index's analysis goes when the index does). */
const caches = new WeakMap<IndexAnalysis, Map<string, Analyzer>>();

function named(analysis: IndexAnalysis, name: string): Analyzer {
  const a = analysis.analyzer(name);
  // Mapping resolution only admits configured analyzers, so this is a broken invariant, not a user error.
  if (!a) throw new Error(`unknown analyzer [${name}]`);
  return a;
}

function cached(analysis: IndexAnalysis, key: string, build: () => Analyzer): Analyzer {
  let cache = caches.get(analysis);
  if (!cache) caches.set(analysis, (cache = new Map()));
  let a = cache.get(key);
  if (!a) cache.set(key, (a = build()));
  return a;
}

function withShingles(analysis: IndexAnalysis, name: string, size: number): Analyzer {
  return cached(analysis, `${name}|shingle:${size}`, () =>
    fixedShingleAnalyzer(name, named(analysis, name), { size, separator: SEPARATOR, filler: FILLER, trailingPositions: null }));
}

/** Shingles padded with size − 1 trailing positions (TrailingShingleTokenFilter), then edge n-grams. */
function withShinglesAndPrefixes(analysis: IndexAnalysis, name: string, size: number): Analyzer {
  return cached(analysis, `${name}|prefix:${size}`, () => {
    const shingles = fixedShingleAnalyzer(name, named(analysis, name), { size, separator: SEPARATOR, filler: FILLER, trailingPositions: size - 1 });
    return edgeNGramAnalyzer(name, shingles, { minGram: INDEX_PREFIX_MIN_CHARS, maxGram: INDEX_PREFIX_MAX_CHARS, preserveOriginal: true });
  });
}

/** The analysis of the field's index (memoised per settings object and content). */
export function analysisOf(field: ResolvedField): IndexAnalysis {
  return resolveTextContext(field.text).analysis;
}

/** A keyword field's normalizer, or null. */
export function normalizerOf(field: ResolvedField): Normalizer | null {
  return field.normalizer === null ? null : analysisOf(field).normalizer(field.normalizer) ?? null;
}

export function indexAnalyzerFor(field: ResolvedField): Analyzer {
  const s = field.searchAsYouType;
  const a = analysisOf(field);
  if (s === null || s.role === 'root') return named(a, field.analyzer);
  return s.role === 'shingle' ? withShingles(a, field.analyzer, s.shingleSize) : withShinglesAndPrefixes(a, field.analyzer, s.shingleSize);
}

/** The analyzer for query text: `quoted` for phrase queries (the search quote analyzer). */
export function searchAnalyzerFor(field: ResolvedField, quoted: boolean): Analyzer {
  const s = field.searchAsYouType;
  const a = analysisOf(field);
  if (s === null || s.role === 'root') return named(a, quoted ? field.searchQuoteAnalyzer : field.searchAnalyzer);
  if (s.role === 'index_prefix' && quoted) return named(a, field.searchAnalyzer);
  return withShingles(a, field.searchAnalyzer, s.shingleSize);
}

/**
 * Identifies the query-time analysis of a field: fields with equal keys analyse text identically
 * (cross_fields groups by it). Each wrapped analyzer is its own object in ES, so a subfield's key
 * names the subfield.
 */
export function searchAnalysisKey(field: ResolvedField): string {
  const s = field.searchAsYouType;
  // The analyzer object, not its name: `default_search` and `standard` may be the same analyzer.
  const name = named(analysisOf(field), field.searchAnalyzer).name;
  return s === null || s.role === 'root' ? name : `${name}|${field.path}`;
}
