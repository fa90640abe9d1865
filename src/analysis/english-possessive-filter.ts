/**
 * Lucene's EnglishPossessiveFilter: removes a trailing `'s`, `’s` (U+2019) or `＇s` (U+FF07); the
 * `s` may be upper case. It runs before lowercasing in the `english` analyzer, hence the `S`.
 */
import type { TokenFilter } from './token-stream.js';

export const englishPossessiveFilter: TokenFilter = (term) => {
  const n = term.length;
  if (n >= 2) {
    const s = term.charCodeAt(n - 1);
    if (s === 0x73 /* s */ || s === 0x53 /* S */) {
      const q = term.charCodeAt(n - 2);
      if (q === 0x27 || q === 0x2019 || q === 0xff07) return term.slice(0, n - 2);
    }
  }
  return term;
};
