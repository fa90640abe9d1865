/**
 * Lucene's LowerCaseFilter: `Character.toLowerCase(int)` on every code point — the *simple*
 * (one-to-one, context-free) Unicode lowercase mapping.
 *
 * JavaScript's `toLowerCase()` applies the full mapping instead, which differs in exactly two
 * places: U+0130 (İ) becomes "i̇" (two chars) instead of "i", and a capital sigma at the end of a
 * word becomes final "ς" instead of "σ". Those two are mapped first; everything else is the same.
 */
import type { TokenFilter } from './token-stream.js';

const RE_FULL_MAPPING_DIFFERS = /[\u0130\u03a3]/g;
const simpleMapping = (c: string): string => (c === '\u0130' ? 'i' : '\u03c3');

export const lowercaseFilter: TokenFilter = (term) => {
  // V8's native toLowerCase is faster than any JS pre-scan, so lowercase first and detect the two
  // special cases from the result: İ is the only character whose full lowercase mapping is longer
  // (the length changes), and final sigma is the only way a ς can appear from a Σ.
  const lower = term.toLowerCase();
  if (lower.length === term.length && lower.indexOf('\u03c2') < 0) return lower;
  return term.replace(RE_FULL_MAPPING_DIFFERS, simpleMapping).toLowerCase();
};
