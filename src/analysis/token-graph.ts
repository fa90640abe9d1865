/**
 * The general token stream of configurable analysis (Lucene's TokenStream with its attributes,
 * buffered per value): what custom analyzers, `_analyze` and `explain` run on.
 *
 * Tokens carry Lucene's attributes: term, offsets (into the char-filtered text until the analyzer
 * corrects them), type, position increment and length, and the keyword flag (KeywordAttribute,
 * which stemmers respect). A filter takes a whole value's tokens and returns the new ones, so
 * one-to-many (synonyms, n-grams) and many-to-one (shingles) filters are as simple as one-to-one.
 * `finalIncrement` is what Lucene's `end()` reports: positions removed after the last token.
 */
import { SPAN_END, SPAN_LENGTH, SPAN_START, SPAN_TYPE, type TokenFilter, type Tokenizer } from './token-stream.js';

export interface Token {
  term: string;
  start: number;
  end: number;
  type: string;
  /** Positions from the previous token (0 = stacked on it, as a synonym). */
  posInc: number;
  /** Positions this token spans (a multi-word synonym spans several). */
  posLen: number;
  keyword: boolean;
}

export interface TokenStream {
  readonly tokens: Token[];
  readonly finalIncrement: number;
}

export type StreamFilter = (stream: TokenStream) => TokenStream;

/** Lucene's default token type (`TypeAttribute.DEFAULT_TYPE`). */
export const DEFAULT_TYPE = 'word';

export function token(term: string, start: number, end: number, type = DEFAULT_TYPE, posInc = 1): Token {
  return { term, start, end, type, posInc, posLen: 1, keyword: false };
}

/** Runs a span tokenizer (token-stream.ts) over the whole text; `types` names its type indexes. */
export function tokenizeSpans(tokenizer: Tokenizer, text: string, types: readonly string[] | null): Token[] {
  const span = new Int32Array(SPAN_LENGTH);
  const tokens: Token[] = [];
  let previousEnd = -1;
  while (tokenizer.next(text, previousEnd, span)) {
    const start = span[SPAN_START];
    const end = span[SPAN_END];
    tokens.push(token(text.slice(start, end), start, end, types === null ? DEFAULT_TYPE : types[span[SPAN_TYPE]]));
    previousEnd = end;
  }
  return tokens;
}

/**
 * A one-to-one term filter as a stream filter: a removed token's position increment moves to the
 * next token, or to `finalIncrement` at the end (Lucene's FilteringTokenFilter). With
 * `respectKeyword`, tokens marked as keywords pass unchanged (stemmers).
 */
export function liftTermFilter(filter: TokenFilter, respectKeyword = false): StreamFilter {
  return (stream) => {
    const out: Token[] = [];
    let skipped = 0;
    for (const t of stream.tokens) {
      const term = respectKeyword && t.keyword ? t.term : filter(t.term);
      if (term === null) {
        skipped += t.posInc;
        continue;
      }
      out.push({ ...t, term, posInc: t.posInc + skipped });
      skipped = 0;
    }
    return { tokens: out, finalIncrement: stream.finalIncrement + skipped };
  };
}

/** Removes the tokens `keep` rejects, carrying their increments (FilteringTokenFilter). */
export function filterTokens(stream: TokenStream, keep: (t: Token) => boolean): TokenStream {
  const out: Token[] = [];
  let skipped = 0;
  for (const t of stream.tokens) {
    if (!keep(t)) {
      skipped += t.posInc;
      continue;
    }
    out.push(skipped === 0 ? t : { ...t, posInc: t.posInc + skipped });
    skipped = 0;
  }
  return { tokens: out, finalIncrement: stream.finalIncrement + skipped };
}

/** Maps each token to a new term (null = unchanged token), keeping every other attribute. */
export function mapTerms(stream: TokenStream, map: (t: Token) => string): TokenStream {
  return { tokens: stream.tokens.map((t) => ({ ...t, term: map(t) })), finalIncrement: stream.finalIncrement };
}
