/**
 * Lucene's ClassicTokenizer (Elasticsearch's `classic`): the grammar StandardTokenizer had before
 * Lucene 3.1, good for English — acronyms, company names, e-mail addresses and host names are kept
 * whole. Its rules (`ClassicTokenizerImpl.jflex`, macro names kept) run on the lazy DFA, longest
 * match first, ties to the rule listed first; characters no rule matches are skipped.
 *
 * Unlike the standard tokenizer, a token longer than `max_token_length` is dropped (its position
 * is skipped), not cut; a `<ACRONYM_DEP>` lexeme (`a1.b2.`) loses its last dot and becomes `<HOST>`.
 * The `classic` token filter (below) then strips possessives and acronym dots.
 */
import { CharClasses, codePointWidth, walkLongest, type LongestMatch } from './dfa-scan.js';
import { alt, compileLazyDfa, plus, seq, set, star, type ClassPredicate, type Pattern } from './lazy-dfa.js';
import { ScanMemo } from './scan-memo.js';
import { token, type Token, type TokenStream } from './token-graph.js';

/** Lucene `ClassicTokenizer.TOKEN_TYPES` (its type constants are the indexes). */
export const CLASSIC_TOKEN_TYPES: readonly string[] = [
  '<ALPHANUM>', '<APOSTROPHE>', '<ACRONYM>', '<COMPANY>', '<EMAIL>', '<HOST>', '<NUM>', '<CJ>', '<ACRONYM_DEP>',
];
export const CLASSIC_APOSTROPHE = 1;
export const CLASSIC_ACRONYM = 2;
const HOST = 5;
const ACRONYM_DEP = 8;

// ---- character classes: JFlex [:letter:] (minus CJ), [:digit:], Thai, CJ, and the punctuation the rules name.
const F_LETTER = 1;
const F_DIGIT = 2;
const F_THAI = 4;
const F_CJ = 8;
const PUNCTUATION = '\'.&@-_/,';
const RE_LETTER = /\p{L}/u;
const RE_DIGIT = /\p{Nd}/u;

function isCj(cp: number): boolean {
  return (cp >= 0x3100 && cp <= 0x312f) || (cp >= 0x3040 && cp <= 0x309f) || (cp >= 0x30a0 && cp <= 0x30ff) ||
    (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0x3300 && cp <= 0x337f) || (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff65 && cp <= 0xff9f);
}

function classKey(cp: number): number {
  const s = String.fromCodePoint(cp);
  const cj = isCj(cp);
  let f = cj ? F_CJ : RE_LETTER.test(s) ? F_LETTER : 0;
  if (RE_DIGIT.test(s)) f |= F_DIGIT;
  if (cp >= 0x0e00 && cp <= 0x0e59) f |= F_THAI;
  const p = cp < 0x80 ? PUNCTUATION.indexOf(String.fromCharCode(cp)) : -1;
  return p < 0 ? f : f | ((p + 1) << 4);
}

const has = (bits: number): ClassPredicate => (f) => (f & bits) !== 0;
const punct = (chars: string): Pattern => {
  const codes = [...chars].map((c) => PUNCTUATION.indexOf(c) + 1);
  return set((f) => codes.includes(f >>> 4));
};

// ---- the grammar ----
const LETTER = set(has(F_LETTER));
const DIGIT = set(has(F_DIGIT));
const ALPHANUM = plus(set(has(F_LETTER | F_THAI | F_DIGIT)));
const ALPHA = plus(LETTER);
const LETTER_OR_DIGIT = set(has(F_LETTER | F_DIGIT));
const HAS_DIGIT = seq(star(LETTER_OR_DIGIT), DIGIT, star(LETTER_OR_DIGIT));
const P = punct('_-/.,');
const DOT = punct('.');

const RULES: Pattern[] = [
  ALPHANUM,
  seq(ALPHA, plus(seq(punct('\''), ALPHA))), // APOSTROPHE: O'Reilly, you're, O'Reilly's
  seq(LETTER, DOT, plus(seq(LETTER, DOT))), // ACRONYM: U.S.A.
  seq(ALPHA, punct('&@'), ALPHA), // COMPANY: AT&T, Excite@Home
  seq(ALPHANUM, star(seq(punct('.-_'), ALPHANUM)), punct('@'), ALPHANUM, plus(seq(punct('.-'), ALPHANUM))), // EMAIL
  seq(ALPHANUM, plus(seq(DOT, ALPHANUM))), // HOST
  alt( // NUM: floating point, serial, model numbers, ip addresses; every other segment has a digit
    seq(ALPHANUM, P, HAS_DIGIT),
    seq(HAS_DIGIT, P, ALPHANUM),
    seq(ALPHANUM, plus(seq(P, HAS_DIGIT, P, ALPHANUM))),
    seq(HAS_DIGIT, plus(seq(P, ALPHANUM, P, HAS_DIGIT))),
    seq(ALPHANUM, P, HAS_DIGIT, plus(seq(P, ALPHANUM, P, HAS_DIGIT))),
    seq(HAS_DIGIT, P, ALPHANUM, plus(seq(P, HAS_DIGIT, P, ALPHANUM))),
  ),
  set(has(F_CJ)), // CJ: one Chinese or Japanese character
  seq(ALPHANUM, DOT, plus(seq(ALPHANUM, DOT))), // ACRONYM_DEP
];

const MAX_CLASSES = 48;
/** The longest lexeme read (= ScanMemo's reach). */
const MAX_LEXEME = 1 << 16;
const dfa = compileLazyDfa(RULES, MAX_CLASSES);
const classes = new CharClasses(classKey, [dfa]);
const memo = new ScanMemo();
const match: LongestMatch = { end: -1, rule: -1, lastWidth: 0 };

const isAsciiAlnum = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

/** Lucene `ClassicTokenizer` after `setMaxTokenLength(maxTokenLength)`. */
export function classicTokenize(text: string, maxTokenLength: number): Token[] {
  const tokens: Token[] = [];
  let skipped = 0;
  let p = 0;
  const length = text.length;
  while (p < length) {
    // Fast path: a run of ASCII letters and digits ended by whitespace or the end of the text is an
    // <ALPHANUM> under every rule (the others need one of ' . & @ - _ / , inside).
    let i = p;
    let c = 0;
    while (i < length && isAsciiAlnum((c = text.charCodeAt(i)))) i++;
    if (i > p && (i === length || c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d)) {
      if (i - p <= maxTokenLength) {
        tokens.push(token(text.slice(p, i), p, i, CLASSIC_TOKEN_TYPES[0], skipped + 1));
        skipped = 0;
      } else {
        skipped++;
      }
      p = i;
      continue;
    }
    // Lucene's scanner buffer grows, so a lexeme may be as long as the text (longer than
    // max_token_length: dropped). Reading is capped at MAX_LEXEME, the reach of the scan memo
    // that keeps scanning linear; only a longer run of token characters differs from Lucene.
    walkLongest(dfa, classes, memo, text, p, Math.min(length, p + MAX_LEXEME), MAX_LEXEME, match);
    if (match.end < 0) {
      p += codePointWidth(text, p);
      continue;
    }
    // An <ACRONYM_DEP> loses its trailing dot from the term only: Lucene sets the offsets first.
    const type = match.rule === ACRONYM_DEP ? HOST : match.rule;
    const termEnd = match.rule === ACRONYM_DEP ? match.end - 1 : match.end;
    if (match.end - p <= maxTokenLength) {
      tokens.push(token(text.slice(p, termEnd), p, match.end, CLASSIC_TOKEN_TYPES[type], skipped + 1));
      skipped = 0;
    } else {
      skipped++;
    }
    p = match.end;
  }
  return tokens;
}

/**
 * Lucene `ClassicFilter` (Elasticsearch's `classic` token filter): removes a final `'s` from
 * `<APOSTROPHE>` tokens and the dots of `<ACRONYM>` tokens; other tokens pass unchanged.
 */
export function classicFilter(stream: TokenStream): TokenStream {
  const apostrophe = CLASSIC_TOKEN_TYPES[CLASSIC_APOSTROPHE];
  const acronym = CLASSIC_TOKEN_TYPES[CLASSIC_ACRONYM];
  const tokens = stream.tokens.map((t) => {
    if (t.type === apostrophe && t.term.length >= 2 && t.term[t.term.length - 2] === '\'' && (t.term.endsWith('s') || t.term.endsWith('S'))) {
      return { ...t, term: t.term.slice(0, -2) };
    }
    if (t.type === acronym) return { ...t, term: t.term.replaceAll('.', '') };
    return t;
  });
  return { tokens, finalIncrement: stream.finalIncrement };
}
