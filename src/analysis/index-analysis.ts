/**
 * An index's analysis (ES's IndexAnalyzers): the analyzers, normalizers, tokenizers, token filters
 * and char filters defined by its `index.analysis.*` settings, over the built-in ones, resolved
 * once from plain settings data — on the coordinator when the index is created (where a bad
 * definition is refused with ES's message) and again, identically, wherever text is analysed
 * (build workers receive the same settings and rebuild it; builds are memoised per settings).
 *
 * Name resolution follows ES: an index's own component shadows a built-in one of the same name;
 * `default` is the analyzer of text fields without one (else `standard`), `default_search` of
 * their queries (else `default`), `default_search_quoted` of their phrases (else `default_search`).
 */
import { BUILT_IN_ANALYZERS, getAnalyzer } from './analyzers.js';
import {
  componentAnalyzer, componentNormalizer, spanTokenizer, streamFilter, termFilter,
  type AnalyzerComponents, type ConfiguredAnalyzer, type FilterComponent, type Normalizer, type TokenizerComponent,
} from './analysis-components.js';
import { AnalysisConfigError, Params, type ComponentSettings } from './analysis-params.js';
import type { CharFilter } from './char-filter.js';
import { letterTokenizer, whitespaceTokenizer } from './char-tokenizer.js';
import {
  CHAR_FILTER_TYPES, FILTER_TYPES, PRECONFIGURED_CHAR_FILTERS, PRECONFIGURED_FILTERS, PRECONFIGURED_TOKENIZERS, TOKENIZER_TYPES,
  UNSUPPORTED_CHAR_FILTERS, UNSUPPORTED_FILTERS, UNSUPPORTED_TOKENIZERS, stopWordSet, type ChainBuilder, type IndexLimits,
} from './component-factories.js';
import { englishPossessiveFilter } from './english-possessive-filter.js';
import { keywordTokenizer } from './keyword-tokenizer.js';
import { lowercaseFilter } from './lowercase-filter.js';
import { FRENCH_STOP_WORDS, GERMAN_STOP_WORDS, SPANISH_STOP_WORDS } from './language-stop-words.js';
import { frenchLightStem, germanLightStem, germanNormalize, spanishLightStem } from './light-stemmers.js';
import { NON_WORD_PATTERN, compilePattern, patternTokenize } from './pattern-analysis.js';
import { porterStem } from './porter-stemmer.js';
import { FRENCH_ARTICLES, elisionFilter, keywordMarkerFilter } from './simple-token-filters.js';
import { DEFAULT_MAX_TOKEN_LENGTH, TOKEN_TYPES, standardTokenizer, standardTokenizerWithMaxLength } from './standard-tokenizer.js';
import { ENGLISH_STOP_WORDS, stopFilter } from './stop-filter.js';

/** `index.analysis` as a nested object: { analyzer: { name: {…} }, tokenizer, filter, char_filter, normalizer }. */
export type AnalysisSettings = Readonly<Record<string, unknown>>;

export const DEFAULT_INDEX_LIMITS: IndexLimits = { maxNgramDiff: 1, maxShingleDiff: 3 };

/** ES TextFieldMapper's default gap, which analyzers defined in settings report (prebuilt ones report 0). */
const CUSTOM_POSITION_INCREMENT_GAP = 100;

export interface IndexAnalysis {
  /** Identifies the settings this was built from (equal keys analyse identically). */
  readonly key: string;
  analyzer(name: string): ConfiguredAnalyzer | undefined;
  normalizer(name: string): Normalizer | undefined;
  tokenizer(name: string): TokenizerComponent | undefined;
  charFilter(name: string): CharFilter | undefined;
  /** A token filter in a chain (synonym filters analyse their rules with the chain before them). */
  filter(name: string, chain: AnalyzerComponents): FilterComponent | undefined;
  /** Components given inline or by name (`_analyze` with tokenizer/filter/char_filter). */
  components(tokenizer: unknown, filters: readonly unknown[], charFilters: readonly unknown[]): AnalyzerComponents;
  normalizerComponents(filters: readonly unknown[], charFilters: readonly unknown[]): AnalyzerComponents;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function section(settings: AnalysisSettings, kind: string): Map<string, ComponentSettings> {
  const s = settings[kind];
  const out = new Map<string, ComponentSettings>();
  if (s === undefined || s === null) return out;
  if (!isObject(s)) throw new AnalysisConfigError(`[index.analysis.${kind}] must be an object of named definitions`);
  for (const [name, def] of Object.entries(s)) {
    if (!isObject(def)) throw new AnalysisConfigError(`${kind} [${name}] must specify either an analyzer type, or a tokenizer`);
    out.set(name, def);
  }
  return out;
}

function typeOf(kind: string, name: string, def: ComponentSettings): string {
  const t = def.type;
  if (t === undefined || t === null) throw new AnalysisConfigError(`${kind} [${name}] must specify either an analyzer type, or a tokenizer`);
  return String(t);
}

// ---- the built-in analyzers, as components ----------------------------------------------------

const STANDARD = spanTokenizer(standardTokenizer, TOKEN_TYPES);
const LOWERCASE = termFilter('lowercase', lowercaseFilter, { normalizing: true });
const ENGLISH_STOP = termFilter('stop', stopFilter(ENGLISH_STOP_WORDS));
const POSSESSIVE = termFilter('english_possessive', englishPossessiveFilter, { respectKeyword: true });
const PORTER = termFilter('porter_stem', porterStem, { costly: true, respectKeyword: true });
const stemmer = (name: string, fn: (t: string) => string | null) => termFilter(name, fn, { costly: true, respectKeyword: true });
const FRENCH_ELISION = termFilter('elision', elisionFilter(new Set(FRENCH_ARTICLES), true), { normalizing: true });
const GERMAN_NORMALIZATION = termFilter('german_normalization', germanNormalize, { normalizing: true });

const BUILT_IN_COMPONENTS: ReadonlyMap<string, AnalyzerComponents> = new Map<string, AnalyzerComponents>([
  ['standard', { charFilters: [], tokenizer: STANDARD, filters: [LOWERCASE] }],
  ['english', { charFilters: [], tokenizer: STANDARD, filters: [POSSESSIVE, LOWERCASE, ENGLISH_STOP, PORTER] }],
  ['simple', { charFilters: [], tokenizer: spanTokenizer(letterTokenizer, null), filters: [LOWERCASE] }],
  ['whitespace', { charFilters: [], tokenizer: spanTokenizer(whitespaceTokenizer, null), filters: [] }],
  ['keyword', { charFilters: [], tokenizer: spanTokenizer(keywordTokenizer, null), filters: [] }],
  ['stop', { charFilters: [], tokenizer: spanTokenizer(letterTokenizer, null), filters: [LOWERCASE, ENGLISH_STOP] }],
]);

/** The built-in analyzers: their fast instances (analyzers.ts) with their components. */
const BUILT_INS: ReadonlyMap<string, ConfiguredAnalyzer> = new Map(
  BUILT_IN_ANALYZERS.map((name) => {
    const fast = getAnalyzer(name)!;
    const analyzer: ConfiguredAnalyzer = {
      name, components: BUILT_IN_COMPONENTS.get(name)!, custom: false, positionIncrementGap: 0,
      analyze: (text, sink, firstPosition) => fast.analyze(text, sink, firstPosition),
      analyzeInterned: (text, interner, sink, firstPosition) => fast.analyzeInterned!(text, interner, sink, firstPosition),
    };
    return [name, analyzer];
  }),
);

const LOWERCASE_NORMALIZER = componentNormalizer('lowercase', { charFilters: [], tokenizer: spanTokenizer(keywordTokenizer, null), filters: [LOWERCASE] });

const stopWords = (p: Params, fallback: ReadonlySet<string>) => stopWordSet(p, 'stopwords', fallback, false);

/** Built-in analyzer types configured in settings (ES StandardAnalyzerProvider, EnglishAnalyzerProvider …). */
function configuredBuiltIn(type: string, p: Params): AnalyzerComponents | null {
  switch (type) {
    case 'standard': {
      const n = p.int('max_token_length', DEFAULT_MAX_TOKEN_LENGTH);
      const tokenizer = n === DEFAULT_MAX_TOKEN_LENGTH ? STANDARD : spanTokenizer(standardTokenizerWithMaxLength(n), TOKEN_TYPES);
      const stops = stopWords(p, new Set());
      return { charFilters: [], tokenizer, filters: stops.size > 0 ? [LOWERCASE, termFilter('stop', stopFilter(stops))] : [LOWERCASE] };
    }
    case 'stop':
      return { ...BUILT_IN_COMPONENTS.get('stop')!, filters: [LOWERCASE, termFilter('stop', stopFilter(stopWords(p, ENGLISH_STOP_WORDS)))] };
    case 'simple': case 'whitespace': case 'keyword':
      return BUILT_IN_COMPONENTS.get(type)!;
    case 'english':
      return languageAnalyzer(p, ENGLISH_STOP_WORDS, [POSSESSIVE, LOWERCASE], [PORTER]);
    // Lucene FrenchAnalyzer, GermanAnalyzer, SpanishAnalyzer: their chains, light stemmers and stop sets.
    case 'french':
      return languageAnalyzer(p, FRENCH_STOP_WORDS, [FRENCH_ELISION, LOWERCASE], [stemmer('light_french', frenchLightStem)]);
    case 'german':
      return languageAnalyzer(p, GERMAN_STOP_WORDS, [LOWERCASE], [GERMAN_NORMALIZATION, stemmer('light_german', germanLightStem)]);
    case 'spanish':
      return languageAnalyzer(p, SPANISH_STOP_WORDS, [LOWERCASE], [stemmer('light_spanish', spanishLightStem)]);
    case 'pattern':
      return patternAnalyzer(p);
    default:
      return null;
  }
}

/**
 * Lucene's language analyzers: standard tokenizer, the filters before the stop filter, the stop
 * filter (`stopwords`, else the language's set), a keyword marker for `stem_exclusion`, then the
 * stemming filters.
 */
function languageAnalyzer(p: Params, defaultStops: ReadonlySet<string>, before: FilterComponent[], stemming: FilterComponent[]): AnalyzerComponents {
  const stops = stopWords(p, defaultStops);
  p.refusePath('stem_exclusion_path');
  const exclusion = new Set(p.list('stem_exclusion') ?? []);
  const filters: FilterComponent[] = [...before, termFilter('stop', stopFilter(stops))];
  if (exclusion.size > 0) filters.push(streamFilter('set_keyword_marker', keywordMarkerFilter((t) => exclusion.has(t)), false, true));
  filters.push(...stemming);
  return { charFilters: [], tokenizer: STANDARD, filters };
}

/** ES PatternAnalyzer: a pattern tokenizer (split mode), lowercase unless `lowercase: false`, then `stopwords` (none by default). */
function patternAnalyzer(p: Params): AnalyzerComponents {
  const pattern = compilePattern(p, p.string('pattern', NON_WORD_PATTERN));
  const tokenizer: TokenizerComponent = { name: 'pattern', span: null, tokenize: (text) => patternTokenize(pattern, -1, text) };
  const filters: FilterComponent[] = p.bool('lowercase', true) ? [LOWERCASE] : [];
  const stops = stopWords(p, new Set());
  if (stops.size > 0) filters.push(termFilter('stop', stopFilter(stops)));
  return { charFilters: [], tokenizer, filters };
}

/** Prebuilt analyzers that are not on the fast chain (ES PreBuiltAnalyzers): `pattern` with its defaults. */
const OTHER_BUILT_INS: ReadonlyMap<string, ConfiguredAnalyzer> = new Map([
  ['pattern', componentAnalyzer('pattern', patternAnalyzer(new Params('analyzer', 'pattern', {})), false, 0)],
  ...['french', 'german', 'spanish'].map((language): [string, ConfiguredAnalyzer] => [
    language, componentAnalyzer(language, configuredBuiltIn(language, new Params('analyzer', language, {}))!, false, 0),
  ]),
]);

const UNSUPPORTED_ANALYZERS = new Set([
  'fingerprint', 'snowball', 'arabic', 'armenian', 'basque', 'bengali', 'brazilian', 'bulgarian', 'catalan', 'cjk',
  'czech', 'danish', 'dutch', 'estonian', 'finnish', 'galician', 'greek', 'hindi', 'hungarian',
  'indonesian', 'irish', 'italian', 'latvian', 'lithuanian', 'norwegian', 'persian', 'portuguese', 'romanian', 'russian',
  'serbian', 'sorani', 'swedish', 'turkish', 'thai',
]);

// ---- building -----------------------------------------------------------------------------------

class Built implements IndexAnalysis {
  private readonly tokenizers = new Map<string, TokenizerComponent>();
  private readonly filterBuilders = new Map<string, ChainBuilder>();
  private readonly charFilters = new Map<string, CharFilter>();
  private readonly analyzers = new Map<string, ConfiguredAnalyzer>();
  private readonly normalizers = new Map<string, Normalizer>();

  constructor(readonly key: string, settings: AnalysisSettings, private readonly limits: IndexLimits) {
    for (const [name, def] of section(settings, 'tokenizer')) {
      const type = typeOf('tokenizer', name, def);
      const factory = TOKENIZER_TYPES.get(type);
      if (!factory) throw unknown('tokenizer', type, name, UNSUPPORTED_TOKENIZERS);
      this.tokenizers.set(name, factory(new Params('tokenizer', name, def), limits));
    }
    for (const [name, def] of section(settings, 'filter')) {
      const type = typeOf('filter', name, def);
      const factory = FILTER_TYPES.get(type);
      if (!factory) throw unknown('filter', type, name, UNSUPPORTED_FILTERS);
      this.filterBuilders.set(name, factory(new Params('filter', name, def), limits));
    }
    for (const [name, def] of section(settings, 'char_filter')) {
      const type = typeOf('char_filter', name, def);
      const factory = CHAR_FILTER_TYPES.get(type);
      if (!factory) throw unknown('char_filter', type, name, UNSUPPORTED_CHAR_FILTERS);
      this.charFilters.set(name, factory(new Params('char_filter', name, def)));
    }
    for (const [name, def] of section(settings, 'analyzer')) this.analyzers.set(name, this.buildAnalyzer(name, def));
    for (const [name, def] of section(settings, 'normalizer')) this.normalizers.set(name, this.buildNormalizer(name, def));
  }

  private buildAnalyzer(name: string, def: ComponentSettings): ConfiguredAnalyzer {
    const p = new Params('analyzer', name, def);
    const type = def.type === undefined || def.type === null ? (def.tokenizer !== undefined ? 'custom' : null) : String(def.type);
    if (type === null) throw new AnalysisConfigError(`analyzer [${name}] must specify either an analyzer type, or a tokenizer`);
    // ES analyzer providers default the gap to the text field default (100); prebuilt analyzers report 0.
    const gap = p.int('position_increment_gap', CUSTOM_POSITION_INCREMENT_GAP);
    if (type === 'custom') {
      const tokenizerName = p.string('tokenizer');
      if (tokenizerName === null) throw new AnalysisConfigError(`Custom Analyzer [${name}] must be configured with a tokenizer`);
      const tokenizer = this.tokenizer(tokenizerName);
      if (!tokenizer) throw new AnalysisConfigError(`Custom Analyzer [${name}] failed to find tokenizer under name [${tokenizerName}]`);
      const charFilters = (p.list('char_filter') ?? []).map((n) => {
        const c = this.charFilter(n);
        if (!c) throw new AnalysisConfigError(`Custom Analyzer [${name}] failed to find char_filter under name [${n}]`);
        return c;
      });
      const filters: FilterComponent[] = [];
      for (const n of p.list('filter') ?? []) {
        const f = this.filter(n, { charFilters, tokenizer, filters: filters.slice() });
        if (!f) throw new AnalysisConfigError(`Custom Analyzer [${name}] failed to find filter under name [${n}]`);
        filters.push(f);
      }
      return componentAnalyzer(name, { charFilters, tokenizer, filters }, true, gap);
    }
    const components = configuredBuiltIn(type, p);
    if (components === null) {
      if (UNSUPPORTED_ANALYZERS.has(type)) throw new AnalysisConfigError(`analyzer type [${type}] is not supported by this server yet`);
      throw new AnalysisConfigError(`Unknown analyzer type [${type.slice(0, 100)}] for [${name}]`);
    }
    // A built-in type without options is the built-in analyzer itself (same fast instance).
    const plain = Object.keys(def).every((k) => k === 'type' || k === 'position_increment_gap');
    if (plain && BUILT_INS.has(type)) return { ...BUILT_INS.get(type)!, name, positionIncrementGap: gap };
    return componentAnalyzer(name, components, false, gap);
  }

  private buildNormalizer(name: string, def: ComponentSettings): Normalizer {
    const p = new Params('normalizer', name, def);
    const type = def.type === undefined || def.type === null ? 'custom' : String(def.type);
    if (type !== 'custom') throw new AnalysisConfigError(`Unknown normalizer type [${type.slice(0, 100)}] for [${name}]`);
    if (p.has('tokenizer')) throw new AnalysisConfigError(`Custom normalizer [${name}] cannot configure a tokenizer`);
    const charFilters = (p.list('char_filter') ?? []).map((n) => {
      const c = this.charFilter(n);
      if (!c) throw new AnalysisConfigError(`Custom normalizer [${name}] failed to find char_filter under name [${n}]`);
      if (c.name === 'html_strip' && !this.charFilters.has(n)) throw new AnalysisConfigError(`Custom normalizer [${name}] may not use char filter [${n}]`);
      return c;
    });
    const tokenizer = spanTokenizer(keywordTokenizer, null);
    const filters: FilterComponent[] = [];
    for (const n of p.list('filter') ?? []) {
      const f = this.filter(n, { charFilters, tokenizer, filters: filters.slice() });
      if (!f) throw new AnalysisConfigError(`Custom normalizer [${name}] failed to find filter under name [${n}]`);
      if (!f.normalizing) throw new AnalysisConfigError(`Custom normalizer [${name}] may not use filter [${n}]`);
      filters.push(f);
    }
    return componentNormalizer(name, { charFilters, tokenizer, filters });
  }

  analyzer(name: string): ConfiguredAnalyzer | undefined {
    const own = this.analyzers.get(name);
    if (own) return own;
    switch (name) {
      case 'default': return BUILT_INS.get('standard');
      case 'default_search': return this.analyzer('default');
      case 'default_search_quoted': return this.analyzer('default_search');
    }
    return BUILT_INS.get(name) ?? OTHER_BUILT_INS.get(name);
  }

  normalizer(name: string): Normalizer | undefined {
    return this.normalizers.get(name) ?? (name === 'lowercase' ? LOWERCASE_NORMALIZER : undefined);
  }

  tokenizer(name: string): TokenizerComponent | undefined {
    return this.tokenizers.get(name) ?? PRECONFIGURED_TOKENIZERS.get(name);
  }

  charFilter(name: string): CharFilter | undefined {
    return this.charFilters.get(name) ?? PRECONFIGURED_CHAR_FILTERS.get(name);
  }

  filter(name: string, chain: AnalyzerComponents): FilterComponent | undefined {
    const builder = this.filterBuilders.get(name) ?? PRECONFIGURED_FILTERS.get(name);
    return builder?.(chain);
  }

  components(tokenizerSpec: unknown, filterSpecs: readonly unknown[], charFilterSpecs: readonly unknown[]): AnalyzerComponents {
    const charFilters = charFilterSpecs.map((s, i) => this.resolveInline('char_filter', s, i, (n) => this.charFilter(n), (p, type) => {
      const f = CHAR_FILTER_TYPES.get(type);
      if (!f) throw unknown('char_filter', type, p.name, UNSUPPORTED_CHAR_FILTERS);
      return f(p);
    }));
    const tokenizer = this.resolveInline('tokenizer', tokenizerSpec, 0, (n) => this.tokenizer(n), (p, type) => {
      const f = TOKENIZER_TYPES.get(type);
      if (!f) throw unknown('tokenizer', type, p.name, UNSUPPORTED_TOKENIZERS);
      return f(p, this.limits);
    });
    return { charFilters, tokenizer, filters: this.chainFilters(filterSpecs, charFilters, tokenizer) };
  }

  normalizerComponents(filterSpecs: readonly unknown[], charFilterSpecs: readonly unknown[]): AnalyzerComponents {
    const c = this.components('keyword', filterSpecs, charFilterSpecs);
    for (const f of c.filters) if (!f.normalizing) throw new AnalysisConfigError(`filter [${f.name}] is not a normalizing filter`);
    return c;
  }

  private chainFilters(specs: readonly unknown[], charFilters: readonly CharFilter[], tokenizer: TokenizerComponent): FilterComponent[] {
    const filters: FilterComponent[] = [];
    specs.forEach((s, i) => {
      filters.push(this.resolveInline('filter', s, i, (n) => this.filter(n, { charFilters, tokenizer, filters: filters.slice() }), (p, type) => {
        const f = FILTER_TYPES.get(type);
        if (!f) throw unknown('filter', type, p.name, UNSUPPORTED_FILTERS);
        return f(p, this.limits)({ charFilters, tokenizer, filters: filters.slice() });
      }));
    });
    return filters;
  }

  /** A component given by name, or inline as `{ "type": …, … }` (named `_anonymous_<kind>_[i]` as in ES). */
  private resolveInline<T>(kind: string, spec: unknown, index: number, byName: (n: string) => T | undefined, build: (p: Params, type: string) => T): T {
    if (typeof spec === 'string') {
      const found = byName(spec);
      if (found === undefined) throw new AnalysisConfigError(`failed to find global ${kind} under [${spec.slice(0, 100)}]`);
      return found;
    }
    if (!isObject(spec)) throw new AnalysisConfigError(`[${kind}] must be a name or an object with a [type]`);
    const name = `_anonymous_${kind}_[${index}]`;
    return build(new Params(kind, name, spec), typeOf(kind, name, spec));
  }
}

function unknown(kind: string, type: string, name: string, unsupported: ReadonlySet<string>): AnalysisConfigError {
  if (unsupported.has(type)) return new AnalysisConfigError(`${kind} type [${type}] is not supported by this server yet`);
  return new AnalysisConfigError(`Unknown ${kind} type [${type.slice(0, 100)}] for [${name}]`);
}

const cache = new Map<string, IndexAnalysis>();
const CACHE_LIMIT = 64;

/**
 * The analysis of an index with these settings; throws AnalysisConfigError for a bad one.
 * Memoised by the settings' content, so every shard, segment build and query of an index shares one.
 */
export function buildIndexAnalysis(settings: AnalysisSettings, limits: IndexLimits = DEFAULT_INDEX_LIMITS): IndexAnalysis {
  const key = JSON.stringify([settings, limits]);
  let built = cache.get(key);
  if (built) return built;
  built = new Built(key, settings, limits);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, built);
  return built;
}

/** An index without analysis settings: the built-in components only. */
export const DEFAULT_INDEX_ANALYSIS: IndexAnalysis = buildIndexAnalysis({});
