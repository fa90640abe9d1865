/**
 * Lucene's light stemmers for French, German and Spanish (Jacques Savoy's "UniNE" algorithms, as
 * Lucene's FrenchLightStemmer, GermanLightStemmer and SpanishLightStemmer implement them; ES
 * `stemmer` languages `light_french`, `light_german`, `light_spanish`, and the stemmers of the
 * `french`, `german` and `spanish` analyzers), and GermanNormalizationFilter (ES
 * `german_normalization`). They work on UTF-16 chars as Lucene's do on a char[]; terms arrive
 * lowercased.
 */
import type { TokenFilter } from './token-stream.js';

const endsWith = (s: string, len: number, suffix: string): boolean =>
  len >= suffix.length && s.startsWith(suffix, len - suffix.length);

function mapChars(s: string, table: Readonly<Record<string, string>>): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += table[s[i]] ?? s[i];
  return out;
}

function accentTable(groups: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const table: Record<string, string> = {};
  for (const [to, from] of Object.entries(groups)) for (const c of from) table[c] = to;
  return table;
}

const isLetter = (c: string): boolean => /\p{L}/u.test(c);

// ---- French -----------------------------------------------------------------------------------

const FRENCH_NORM = accentTable({ a: 'àáâ', o: 'ô', e: 'èéê', u: 'ùû', i: 'î', c: 'ç' });

/** FrenchLightStemmer.norm: accents folded and doubled letters collapsed on longer stems, then a final -ie, -r, -e, -e and a doubled last letter. */
function frenchNorm(input: string, len0: number): string {
  let s = input.slice(0, len0);
  if (s.length > 4) {
    s = mapChars(s, FRENCH_NORM);
    let out = s[0];
    for (let i = 1; i < s.length; i++) if (!(s[i] === out[out.length - 1] && isLetter(s[i]))) out += s[i];
    s = out;
  }
  let len = s.length;
  if (len > 4 && endsWith(s, len, 'ie')) len -= 2;
  if (len > 4) {
    if (s[len - 1] === 'r') len--;
    if (s[len - 1] === 'e') len--;
    if (s[len - 1] === 'e') len--;
    if (s[len - 1] === s[len - 2] && isLetter(s[len - 1])) len--;
  }
  return s.slice(0, len);
}

/** Replaces the chars of `s` (first `len`) from index `at` with `chars`. */
const put = (s: string, len: number, at: number, chars: string): string => s.slice(0, at) + chars + s.slice(at + chars.length, len);

/** Lucene FrenchLightStemmer.stem. */
export const frenchLightStem: TokenFilter = (term) => {
  let s = term;
  let len = s.length;
  if (len > 5 && s[len - 1] === 'x') {
    if (s[len - 3] === 'a' && s[len - 2] === 'u' && s[len - 4] !== 'e') s = put(s, len, len - 2, 'l');
    len--;
  }
  if (len > 3 && s[len - 1] === 'x') len--;
  if (len > 3 && s[len - 1] === 's') len--;
  s = s.slice(0, len);
  // Lucene shortens its buffer and overwrites its last chars; here the kept prefix plus the new chars.
  if (len > 9 && endsWith(s, len, 'issement')) return frenchNorm(s.slice(0, len - 7) + 'r', len - 6);
  if (len > 8 && endsWith(s, len, 'issant')) return frenchNorm(s.slice(0, len - 5) + 'r', len - 4);
  if (len > 6 && endsWith(s, len, 'ement')) {
    len -= 4;
    s = s.slice(0, len);
    if (len > 3 && endsWith(s, len, 'ive')) {
      len--;
      s = s.slice(0, len - 1) + 'f';
    }
    return frenchNorm(s, len);
  }
  if (len > 11 && endsWith(s, len, 'ficatrice')) return frenchNorm(s.slice(0, len - 7) + 'er', len - 5);
  if (len > 10 && endsWith(s, len, 'ficateur')) return frenchNorm(s.slice(0, len - 6) + 'er', len - 4);
  if (len > 9 && endsWith(s, len, 'catrice')) return frenchNorm(s.slice(0, len - 7) + 'quer', len - 3);
  if (len > 8 && endsWith(s, len, 'cateur')) return frenchNorm(s.slice(0, len - 6) + 'quer', len - 2);
  if (len > 8 && endsWith(s, len, 'atrice')) return frenchNorm(s.slice(0, len - 6) + 'er', len - 4);
  if (len > 7 && endsWith(s, len, 'ateur')) return frenchNorm(s.slice(0, len - 5) + 'er', len - 3);
  if (len > 6 && endsWith(s, len, 'trice')) {
    len--;
    s = s.slice(0, len - 3) + 'eur';
  }
  if (len > 5 && endsWith(s, len, 'ième')) return frenchNorm(s, len - 4);
  if (len > 7 && endsWith(s, len, 'teuse')) return frenchNorm(s.slice(0, len - 3) + 'r', len - 2);
  if (len > 6 && endsWith(s, len, 'teur')) return frenchNorm(s.slice(0, len - 2) + 'r', len - 1);
  if (len > 5 && endsWith(s, len, 'euse')) return frenchNorm(s, len - 2);
  if (len > 8 && endsWith(s, len, 'ère')) return frenchNorm(s.slice(0, len - 3) + 'er', len - 1);
  if (len > 7 && endsWith(s, len, 'ive')) return frenchNorm(s.slice(0, len - 2) + 'f', len - 1);
  if (len > 4 && (endsWith(s, len, 'folle') || endsWith(s, len, 'molle'))) return frenchNorm(s.slice(0, len - 3) + 'u', len - 2);
  if (len > 9 && endsWith(s, len, 'nnelle')) return frenchNorm(s, len - 5);
  if (len > 9 && endsWith(s, len, 'nnel')) return frenchNorm(s, len - 3);
  if (len > 4 && endsWith(s, len, 'ète')) {
    len--;
    s = s.slice(0, len - 2) + 'e' + s[len - 1];
  }
  if (len > 8 && endsWith(s, len, 'ique')) len -= 4;
  if (len > 8 && endsWith(s, len, 'esse')) return frenchNorm(s, len - 3);
  if (len > 7 && endsWith(s, len, 'inage')) return frenchNorm(s, len - 3);
  if (len > 9 && endsWith(s, len, 'isation')) {
    len -= 7;
    if (len > 5 && endsWith(s, len, 'ual')) s = put(s, len, len - 2, 'e');
    return frenchNorm(s, len);
  }
  if (len > 9 && endsWith(s, len, 'isateur')) return frenchNorm(s, len - 7);
  if (len > 8 && endsWith(s, len, 'ation')) return frenchNorm(s, len - 5);
  if (len > 8 && endsWith(s, len, 'ition')) return frenchNorm(s, len - 5);
  return frenchNorm(s, len);
};

// ---- German -----------------------------------------------------------------------------------

const GERMAN_LIGHT = accentTable({ a: 'äàáâ', o: 'öòóô', i: 'ïìíî', u: 'üùúû' });
const stEnding = (c: string): boolean => 'bdfghklmnt'.includes(c);

/** Lucene GermanLightStemmer.stem: umlauts and accents folded, then two suffix steps. */
export const germanLightStem: TokenFilter = (term) => {
  const s = mapChars(term, GERMAN_LIGHT);
  let len = s.length;
  // step 1
  if (len > 5 && endsWith(s, len, 'ern')) len -= 3;
  else if (len > 4 && s[len - 2] === 'e' && 'mnrs'.includes(s[len - 1])) len -= 2;
  else if (len > 3 && s[len - 1] === 'e') len -= 1;
  else if (len > 3 && s[len - 1] === 's' && stEnding(s[len - 2])) len -= 1;
  // step 2
  if (len > 5 && endsWith(s, len, 'est')) len -= 3;
  else if (len > 4 && s[len - 2] === 'e' && (s[len - 1] === 'r' || s[len - 1] === 'n')) len -= 2;
  else if (len > 4 && s[len - 2] === 's' && s[len - 1] === 't' && stEnding(s[len - 3])) len -= 2;
  return s.slice(0, len);
};

/**
 * Lucene GermanNormalizationFilter (the German2 snowball normalization): ß → ss, ä ö ü → a o u,
 * and the `e` of ae, oe, ue dropped (ue only when not after a vowel or q).
 */
export const germanNormalize: TokenFilter = (term) => {
  const N = 0;
  const V = 1;
  const U = 2;
  let state = N;
  let out = '';
  for (const c of term) {
    switch (c) {
      case 'a': case 'o': out += c; state = U; break;
      case 'u': out += c; state = state === N ? U : V; break;
      case 'e': if (state !== U) out += c; state = V; break;
      case 'i': case 'q': case 'y': out += c; state = V; break;
      case 'ä': out += 'a'; state = V; break;
      case 'ö': out += 'o'; state = V; break;
      case 'ü': out += 'u'; state = V; break;
      case 'ß': out += 'ss'; state = N; break;
      default: out += c; state = N;
    }
  }
  return out;
};

// ---- Spanish ----------------------------------------------------------------------------------

const SPANISH_LIGHT = accentTable({ a: 'àáâä', o: 'òóôö', e: 'èéêë', u: 'ùúûü', i: 'ìíîï' });

/** Lucene SpanishLightStemmer.stem: accents folded on words of 5+ chars, then a plural / gender ending. */
export const spanishLightStem: TokenFilter = (term) => {
  const len = term.length;
  if (len < 5) return term;
  const s = mapChars(term, SPANISH_LIGHT);
  switch (s[len - 1]) {
    case 'o': case 'a': case 'e':
      return s.slice(0, len - 1);
    case 's':
      if (s[len - 2] === 'e' && s[len - 3] === 's' && s[len - 4] === 'e') return s.slice(0, len - 2);
      if (s[len - 2] === 'e' && s[len - 3] === 'c') return `${s.slice(0, len - 3)}z`;
      if (s[len - 2] === 'o' || s[len - 2] === 'a' || s[len - 2] === 'e') return s.slice(0, len - 2);
  }
  return s;
};
