/**
 * Analyzers assembled from components (Lucene's CustomAnalyzer; ES's `custom` analyzers and
 * normalizers): char filters, then a tokenizer, then token filters.
 *
 * Two ways to run the same components, with the same output:
 * - the general pipeline over buffered token streams (token-graph.ts), which every component
 *   supports and which `_analyze` uses to show each stage;
 * - the allocation-free chain of analyzers.ts, taken when there is no char filter, the tokenizer
 *   is a span tokenizer and every filter is one-to-one (most analyzers: standard + lowercase +
 *   stop + a stemmer), so configured analysis indexes as fast as the built-in analyzers.
 */
import { chainAnalyzer, type Analyzer, type TokenSink } from './analyzers.js';
import { applyCharFilters, type CharFilter } from './char-filter.js';
import type { TokenFilter, Tokenizer } from './token-stream.js';
import { liftTermFilter, tokenizeSpans, type StreamFilter, type Token, type TokenStream } from './token-graph.js';

export interface TokenizerComponent {
  readonly name: string;
  tokenize(text: string): Token[];
  /** The same tokenizer as a span tokenizer, when it is one (enables the fast chain). */
  readonly span: Tokenizer | null;
}

export interface FilterComponent {
  readonly name: string;
  readonly apply: StreamFilter;
  /** One term in, one term (or none) out, nothing else read or written; null otherwise. */
  readonly term: TokenFilter | null;
  /** Allowed in a normalizer (ES's NormalizingTokenFilterFactory). */
  readonly normalizing: boolean;
  /** The chain is worth caching per distinct token (a stemmer). */
  readonly costly?: boolean;
  /** Reads or sets Lucene's KeywordAttribute (stemmers, keyword_marker): `_analyze` explain shows it from here on. */
  readonly usesKeyword?: boolean;
}

export interface AnalyzerComponents {
  readonly charFilters: readonly CharFilter[];
  readonly tokenizer: TokenizerComponent;
  readonly filters: readonly FilterComponent[];
}

/** An analyzer as `_analyze` and the mappings see it. */
export interface ConfiguredAnalyzer extends Analyzer {
  readonly components: AnalyzerComponents;
  /** A `custom` analyzer (`custom_analyzer` in `_analyze` explain: stages are shown one by one). */
  readonly custom: boolean;
  /** Positions between values of a multi-valued text (`_analyze` with several texts). */
  readonly positionIncrementGap: number;
}

export function spanTokenizer(span: Tokenizer, types: readonly string[] | null, name = span.name): TokenizerComponent {
  return { name, span, tokenize: (text) => tokenizeSpans(span, text, types) };
}

export function termFilter(name: string, term: TokenFilter, o: { normalizing?: boolean; costly?: boolean; respectKeyword?: boolean } = {}): FilterComponent {
  const respectKeyword = o.respectKeyword === true;
  return { name, term, apply: liftTermFilter(term, respectKeyword), normalizing: o.normalizing === true, costly: o.costly, usesKeyword: respectKeyword };
}

export function streamFilter(name: string, apply: StreamFilter, normalizing = false, usesKeyword = false): FilterComponent {
  return { name, apply, term: null, normalizing, usesKeyword };
}

/** The stages of one run: the char-filtered texts, then the tokenizer's and each filter's tokens. */
export interface AnalysisStages {
  readonly charFilterTexts: readonly string[];
  readonly streams: readonly TokenStream[];
}

/** Runs components on `text`, keeping every stage (offsets corrected to `text` as tokenizers do). */
export function runStages(c: AnalyzerComponents, text: string, keep: boolean): AnalysisStages {
  const charFilterTexts: string[] = [];
  let filtered = text;
  let correct = (o: number) => o;
  if (c.charFilters.length > 0) {
    if (keep) {
      // Each char filter's own output, for `_analyze` explain.
      let t = text;
      for (const f of c.charFilters) charFilterTexts.push((t = f.filter(t).text));
    }
    const r = applyCharFilters(c.charFilters, text);
    filtered = r.text;
    correct = r.correct;
  }
  const tokens = c.tokenizer.tokenize(filtered);
  if (c.charFilters.length > 0) for (const t of tokens) (t.start = correct(t.start)), (t.end = correct(t.end));
  let stream: TokenStream = { tokens, finalIncrement: 0 };
  const streams: TokenStream[] = keep ? [stream] : [];
  for (const f of c.filters) {
    stream = f.apply(stream);
    if (keep) streams.push(stream);
  }
  if (!keep) streams.push(stream);
  return { charFilterTexts, streams };
}

function pipelineAnalyze(c: AnalyzerComponents) {
  return (text: string, sink: TokenSink, firstPosition = 0): number => {
    const { streams } = runStages(c, text, false);
    const stream = streams[streams.length - 1];
    let position = firstPosition - 1;
    for (const t of stream.tokens) {
      position += t.posInc;
      sink(t.term, position, t.start, t.end, t.posLen);
    }
    return stream.tokens.length > 0 ? position + stream.finalIncrement + 1 : firstPosition + stream.finalIncrement;
  };
}

/** An analyzer over `components`, on the fast chain when they allow it. */
export function componentAnalyzer(name: string, components: AnalyzerComponents, custom: boolean, positionIncrementGap: number): ConfiguredAnalyzer {
  const { charFilters, tokenizer, filters } = components;
  const terms = filters.map((f) => f.term);
  if (charFilters.length === 0 && tokenizer.span !== null && terms.every((t) => t !== null)) {
    const chain = chainAnalyzer(name, tokenizer.span, terms as TokenFilter[], { cacheTerms: filters.some((f) => f.costly === true) });
    return {
      name, components, custom, positionIncrementGap,
      analyze: (text, sink, firstPosition) => chain.analyze(text, sink, firstPosition),
      analyzeInterned: (text, interner, sink, firstPosition) => chain.analyzeInterned!(text, interner, sink, firstPosition),
    };
  }
  return { name, analyze: pipelineAnalyze(components), components, custom, positionIncrementGap };
}

/**
 * A normalizer (ES `normalizer` for keyword fields): the whole value as one token through the
 * char filters and normalizing filters; returns the normalized value.
 */
export interface Normalizer {
  readonly name: string;
  readonly components: AnalyzerComponents;
  normalize(text: string): string;
}

export function componentNormalizer(name: string, components: AnalyzerComponents): Normalizer {
  return {
    name,
    components,
    normalize(text) {
      const { streams } = runStages(components, text, false);
      return streams[streams.length - 1].tokens.map((t) => t.term).join('');
    },
  };
}
