/**
 * Lucene's small token filters, as ES configures them: uppercase, trim, truncate, length, unique,
 * elision, keyword_marker, the minimal English stemmer, and stop with its options.
 * One-to-one ones are plain term functions (token-stream.ts) so analyzers made only of them keep
 * the allocation-free chain; the rest are stream filters (token-graph.ts).
 */
import type { TokenFilter } from './token-stream.js';
import { filterTokens, type StreamFilter, type Token } from './token-graph.js';

/** Lucene UpperCaseFilter: `Character.toUpperCase(int)`, the simple one-to-one mapping per code point. */
export const uppercaseFilter: TokenFilter = (term) => {
  const upper = term.toUpperCase();
  if (upper.length === term.length) return upper;
  // A full mapping grew the text (ß → SS): map code point by code point, keeping those whose
  // uppercase is not a single code point (their simple mapping is themselves).
  let out = '';
  for (const ch of term) {
    const u = ch.toUpperCase();
    out += u.length === ch.length ? u : ch;
  }
  return out;
};

/** Lucene TrimFilter: leading and trailing chars ≤ U+0020 removed (Java String.trim's set). */
export const trimFilter: TokenFilter = (term) => {
  let start = 0;
  let end = term.length;
  while (start < end && term.charCodeAt(start) <= 0x20) start++;
  while (end > start && term.charCodeAt(end - 1) <= 0x20) end--;
  return start === 0 && end === term.length ? term : term.slice(start, end);
};

/** Lucene TruncateTokenFilter: at most `length` chars (UTF-16 units, as Java's char length). */
export function truncateFilter(length: number): TokenFilter {
  return (term) => (term.length > length ? term.slice(0, length) : term);
}

/** Lucene LengthFilter: keeps terms of `min`..`max` chars (UTF-16 units), inclusive. */
export function lengthFilter(min: number, max: number): TokenFilter {
  return (term) => (term.length >= min && term.length <= max ? term : null);
}

/**
 * ES UniqueTokenFilter: drops a term already seen in the value; with `onlyOnSamePosition`, only
 * one already seen at the current position (the set resets at every position increment).
 */
export function uniqueFilter(onlyOnSamePosition: boolean): StreamFilter {
  return (stream) => {
    const seen = new Set<string>();
    return filterTokens(stream, (t) => {
      if (onlyOnSamePosition && t.posInc > 0) seen.clear();
      if (seen.has(t.term)) return false;
      seen.add(t.term);
      return true;
    });
  };
}

/**
 * Lucene ElisionFilter: removes a leading article and its apostrophe (' or ’), e.g. `l'avion` →
 * `avion`. Articles are matched case-sensitively unless `ignoreCase` (CharArraySet semantics).
 */
export function elisionFilter(articles: ReadonlySet<string>, ignoreCase: boolean): TokenFilter {
  return (term) => {
    for (let i = 0; i < term.length; i++) {
      const c = term.charCodeAt(i);
      if (c === 0x27 || c === 0x2019) {
        const article = term.slice(0, i);
        return articles.has(ignoreCase ? article.toLowerCase() : article) ? term.slice(i + 1) : term;
      }
    }
    return term;
  };
}

/** ES's default articles for `elision` (French, as Lucene FrenchAnalyzer.DEFAULT_ARTICLES). */
export const FRENCH_ARTICLES: readonly string[] = ['l', 'm', 't', 'qu', 'n', 's', 'j', 'd', 'c', 'jusqu', 'quoiqu', 'lorsqu', 'puisqu'];

/**
 * Lucene SetKeywordMarkerFilter / PatternKeywordMarkerFilter: marks tokens as keywords so later
 * stemmers leave them alone. `matches` decides per term.
 */
export function keywordMarkerFilter(matches: (term: string) => boolean): StreamFilter {
  return (stream) => ({
    tokens: stream.tokens.map((t): Token => (matches(t.term) ? { ...t, keyword: true } : t)),
    finalIncrement: stream.finalIncrement,
  });
}

/** Lucene EnglishMinimalStemmer (`minimal_english`): plural -s only, after Harman's S-stemmer. */
export const englishMinimalStem: TokenFilter = (s) => {
  const len = s.length;
  if (len < 3 || s.charCodeAt(len - 1) !== 0x73 /* s */) return s;
  switch (s[len - 2]) {
    case 'u':
    case 's':
      return s;
    case 'e':
      if (len > 3 && s[len - 3] === 'i' && s[len - 4] !== 'a' && s[len - 4] !== 'e') return s.slice(0, len - 3) + 'y';
      if (s[len - 3] === 'i' || s[len - 3] === 'a' || s[len - 3] === 'o' || s[len - 3] === 'e') return s;
      return s.slice(0, len - 1);
    default:
      return s.slice(0, len - 1);
  }
};
