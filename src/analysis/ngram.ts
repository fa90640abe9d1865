/**
 * N-grams as Lucene makes them, over code points (a surrogate pair is one char):
 * - NGramTokenizer / EdgeNGramTokenizer (ES `ngram`, `edge_ngram` tokenizers): runs of token chars
 *   (`token_chars` classes; all chars when empty) cut into grams ordered by start, then length;
 *   each gram is its own position, offsets point at the gram.
 * - NGramTokenFilter / EdgeNGramTokenFilter (ES `ngram`, `edge_ngram` filters): each token's grams
 *   stacked at the token's position with the token's offsets; `preserve_original` keeps a token
 *   shorter than min or longer than max whole, after its grams.
 */
import { isJavaLetter, isJavaWhitespace } from './char-tokenizer.js';
import { token, type StreamFilter, type Token } from './token-graph.js';

export type TokenCharClass = 'letter' | 'digit' | 'whitespace' | 'punctuation' | 'symbol' | 'custom';
export const TOKEN_CHAR_CLASSES: readonly TokenCharClass[] = ['letter', 'digit', 'whitespace', 'punctuation', 'symbol', 'custom'];

const RE_DIGIT = /\p{Nd}/u;
const RE_PUNCTUATION = /\p{P}/u;
const RE_SYMBOL = /\p{S}/u;

/** ES CharMatcher.Basic and the `custom` set: is a code point part of a token? */
export function tokenCharMatcher(classes: readonly TokenCharClass[], customChars: string): (cp: number) => boolean {
  if (classes.length === 0) return () => true;
  const custom = new Set<number>();
  for (const ch of customChars) custom.add(ch.codePointAt(0)!);
  const tests = classes.map((c): ((cp: number) => boolean) => {
    switch (c) {
      case 'letter': return isJavaLetter;
      case 'digit': return (cp) => RE_DIGIT.test(String.fromCodePoint(cp));
      case 'whitespace': return isJavaWhitespace;
      case 'punctuation': return (cp) => RE_PUNCTUATION.test(String.fromCodePoint(cp));
      case 'symbol': return (cp) => RE_SYMBOL.test(String.fromCodePoint(cp));
      case 'custom': return (cp) => custom.has(cp);
    }
  });
  return (cp) => tests.some((t) => t(cp));
}

/** UTF-16 index of each code point of `s`, plus s.length at the end. */
function codePointStarts(s: string, from = 0, to = s.length): number[] {
  const starts: number[] = [];
  let i = from;
  while (i < to) {
    starts.push(i);
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < to && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  starts.push(to);
  return starts;
}

/** NGramTokenizer (edgesOnly = EdgeNGramTokenizer). */
export function ngramTokenize(text: string, minGram: number, maxGram: number, edgesOnly: boolean, isTokenChar: (cp: number) => boolean): Token[] {
  const tokens: Token[] = [];
  const cps = codePointStarts(text);
  let i = 0;
  const n = cps.length - 1;
  while (i < n) {
    // a run of token chars [i, j)
    while (i < n && !isTokenChar(text.codePointAt(cps[i])!)) i++;
    let j = i;
    while (j < n && isTokenChar(text.codePointAt(cps[j])!)) j++;
    const lastStart = edgesOnly ? Math.min(i, j - 1) : j - 1;
    for (let s = i; s <= lastStart && s < j; s++) {
      for (let g = minGram; g <= maxGram && s + g <= j; g++) {
        tokens.push(token(text.slice(cps[s], cps[s + g]), cps[s], cps[s + g]));
      }
    }
    i = j;
  }
  return tokens;
}

/** NGramTokenFilter (edgesOnly = EdgeNGramTokenFilter). */
export function ngramFilter(minGram: number, maxGram: number, preserveOriginal: boolean, edgesOnly: boolean): StreamFilter {
  return (stream) => {
    const out: Token[] = [];
    let carry = 0; // increments of tokens that produced no gram
    for (const t of stream.tokens) {
      const cps = codePointStarts(t.term);
      const length = cps.length - 1;
      let first = true;
      const emit = (term: string) => {
        out.push({ ...t, term, posInc: first ? t.posInc + carry : 0 });
        if (first) carry = 0;
        first = false;
      };
      const lastStart = edgesOnly ? 0 : length - minGram;
      for (let s = 0; s <= lastStart; s++) {
        for (let g = minGram; g <= maxGram && s + g <= length; g++) emit(t.term.slice(cps[s], cps[s + g]));
      }
      if (preserveOriginal && (length < minGram || length > maxGram)) emit(t.term);
      if (first) carry += t.posInc;
    }
    return { tokens: out, finalIncrement: stream.finalIncrement + carry };
  };
}
