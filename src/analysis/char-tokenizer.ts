/**
 * Lucene's CharTokenizer and the two tokenizers built on it here: LetterTokenizer (runs of
 * `Character.isLetter`) and WhitespaceTokenizer (runs of non-`Character.isWhitespace`).
 *
 * CharTokenizer semantics kept: it walks code points; a token is a maximal run of token code
 * points, cut when its length in UTF-16 units reaches `maxTokenLen` (255, `DEFAULT_MAX_WORD_LEN`)
 * — checked after appending a code point, so a token can reach 256 units when a supplementary
 * character lands last — and the rest of the run starts the next token.
 */
import type { Tokenizer } from './token-stream.js';

/** Lucene `CharTokenizer.DEFAULT_MAX_WORD_LEN`. */
export const DEFAULT_MAX_WORD_LEN = 255;

/** Builds a CharTokenizer for a code-point predicate (Lucene `CharTokenizer.fromTokenCharPredicate`). */
export function charTokenizer(
  name: string,
  isTokenCodePoint: (cp: number) => boolean,
  maxTokenLen: number = DEFAULT_MAX_WORD_LEN,
): Tokenizer {
  // Predicate cache over the BMP: 0 = not computed yet, 1 = token char, 2 = separator. Lone
  // surrogates are code points of their own for Java's Character methods, so they are cached too.
  const bmp = new Uint8Array(0x10000);
  for (let c = 0; c < 0x80; c++) bmp[c] = isTokenCodePoint(c) ? 1 : 2;
  const fill = (c: number): number => (bmp[c] = isTokenCodePoint(c) ? 1 : 2);
  const astral = new Map<number, boolean>();
  const isAstralTokenChar = (cp: number): boolean => {
    let r = astral.get(cp);
    if (r === undefined) {
      r = isTokenCodePoint(cp);
      astral.set(cp, r);
    }
    return r;
  };
  return {
    name,
    next(text, previousEnd, out) {
      const length = text.length;
      let i = previousEnd < 0 ? 0 : previousEnd;
      let start = -1;
      while (i < length) {
        const c = text.charCodeAt(i);
        let width = 1;
        let isToken: boolean;
        if ((c & 0xfc00) === 0xd800 && i + 1 < length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
          width = 2;
          isToken = isAstralTokenChar(((c - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000);
        } else {
          const r = bmp[c];
          isToken = (r === 0 ? fill(c) : r) === 1;
        }
        if (isToken) {
          if (start < 0) start = i;
          i += width;
          if (i - start >= maxTokenLen) break; // buffer full: emit, the run goes on in the next token
        } else if (start >= 0) {
          break;
        } else {
          i += width;
        }
      }
      if (start < 0) return false;
      out[0] = start;
      out[1] = i;
      out[2] = 0;
      return true;
    },
  };
}

const RE_LETTER = /\p{L}/u;
/** Java `Character.isLetter(int)`: general category Lu, Ll, Lt, Lm or Lo. */
export function isJavaLetter(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  return RE_LETTER.test(String.fromCodePoint(cp));
}

/**
 * Java `Character.isWhitespace(int)`: space, line and paragraph separators except the no-break
 * spaces U+00A0, U+2007, U+202F, plus the controls U+0009–U+000D and U+001C–U+001F.
 */
export function isJavaWhitespace(cp: number): boolean {
  if (cp <= 0x20) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f);
  switch (cp) {
    case 0x1680: case 0x2028: case 0x2029: case 0x205f: case 0x3000:
      return true;
  }
  return cp >= 0x2000 && cp <= 0x200a && cp !== 0x2007;
}

/** Lucene `LetterTokenizer`. */
export const letterTokenizer: Tokenizer = charTokenizer('letter', isJavaLetter);

/** Lucene `WhitespaceTokenizer` (max token length 255, as ES's `whitespace` tokenizer default). */
export const whitespaceTokenizer: Tokenizer = charTokenizer('whitespace', (cp) => !isJavaWhitespace(cp));
