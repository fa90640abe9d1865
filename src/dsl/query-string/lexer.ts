/**
 * The token manager of Lucene's classic query parser, translated by hand from the token definitions
 * in QueryParser.jj (lucene/queryparser/.../classic/QueryParser.jj) and the JavaCC-generated
 * QueryParserTokenManager. JavaCC lexes by longest match, ties going to the token declared first;
 * every `match*` function below computes the candidates' lengths and applies that rule, so the
 * token boundaries (e.g. `foo*` PREFIXTERM vs `foo*bar` WILDTERM vs `AND` vs `ANDY`) are Lucene's.
 *
 * The lexer is independent of the parser (JavaCC switches lexical state inside the token manager:
 * `^` enters Boost, `[`/`{` enter Range), so tokens are produced lazily, one `next()` at a time,
 * and a lexical error surfaces only when the parser asks for that token, as in Lucene.
 */
import { lexicalError } from './errors.js';

/**
 * Lucene's QueryParserConstants.tokenImage for the tokens the parser sees, in Lucene's ordinal
 * order: JavaCC prints the "Was expecting one of:" list in this order and with these spellings.
 */
export const TOKEN_IMAGE = {
  EOF: '<EOF>',
  AND: '<AND>',
  OR: '<OR>',
  NOT: '<NOT>',
  PLUS: '"+"',
  MINUS: '"-"',
  BAREOPER: '<BAREOPER>',
  LPAREN: '"("',
  RPAREN: '")"',
  COLON: '":"',
  STAR: '"*"',
  CARAT: '"^"',
  QUOTED: '<QUOTED>',
  TERM: '<TERM>',
  FUZZY_SLOP: '<FUZZY_SLOP>',
  PREFIXTERM: '<PREFIXTERM>',
  WILDTERM: '<WILDTERM>',
  REGEXPTERM: '<REGEXPTERM>',
  RANGEIN_START: '"["',
  RANGEEX_START: '"{"',
  NUMBER: '<NUMBER>',
  RANGE_TO: '"TO"',
  RANGEIN_END: '"]"',
  RANGEEX_END: '"}"',
  RANGE_QUOTED: '<RANGE_QUOTED>',
  RANGE_GOOP: '<RANGE_GOOP>',
} as const;

export type TokenKind = keyof typeof TOKEN_IMAGE;
/** Token kinds in Lucene's ordinal order (object keys keep insertion order). */
export const TOKEN_ORDER = Object.keys(TOKEN_IMAGE) as readonly TokenKind[];

export interface Token {
  readonly kind: TokenKind;
  /** The raw text, escapes included (JavaCC's `Token.image`); '' for EOF. */
  readonly image: string;
  /** 0-based offset. Lucene's FastCharStream reports this same number as the "column". */
  readonly begin: number;
}

/** JavaCC lexical states; the numbers are QueryParserConstants' (they appear in error messages). */
export const LEX_STATE = { Boost: 0, Range: 1, DEFAULT: 2 } as const;
type LexState = keyof typeof LEX_STATE;

/** What a matcher found at a position: a token (or whitespace to skip), or nothing after reading `read` chars. */
type Match = { readonly kind: TokenKind | 'SKIP'; readonly end: number } | { readonly kind: null; readonly read: number };

/** `_WHITESPACE` in QueryParser.jj. */
function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u3000';
}

/** Characters `_TERM_START_CHAR` excludes (QueryParser.jj); `\` is allowed only as an escape pair. */
const NOT_TERM_START = new Set([' ', '\t', '\n', '\r', '\u3000', '+', '-', '!', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '*', '?', '\\', '/']);

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * End of the longest run of `_TERM_CHAR`s from `i` (a term-start char, `-`, `+`, or `\` followed by
 * any char); with `wild`, also `*` and `?` (WILDTERM's alphabet).
 */
function scanTermChars(q: string, i: number, wild: boolean): number {
  while (i < q.length) {
    const c = q[i];
    if (c === '\\') {
      if (i + 1 >= q.length) break; // `_ESCAPED_CHAR` needs a following char
      i += 2;
    } else if (c === '-' || c === '+' || !NOT_TERM_START.has(c) || (wild && (c === '*' || c === '?'))) {
      i++;
    } else {
      break;
    }
  }
  return i;
}

/**
 * End of the longest `open (~[close] | "\\" close)* close` match from `p` (REGEXPTERM with `/`,
 * RANGE_QUOTED with `"`), or -1. A `close` preceded by `\` may be content or the end, so the
 * longest match ends at the first `close` not preceded by `\`, or the last one before it.
 */
function scanDelimited(q: string, p: number, close: string, minContent: number): number {
  let end = -1;
  for (let j = p + 1; j < q.length; j++) {
    if (q[j] !== close) continue;
    if (j - p - 1 >= minContent) end = j + 1;
    if (j - 1 <= p || q[j - 1] !== '\\') break;
  }
  return end;
}

/** Keywords of the DEFAULT state that compete with TERM (declared before it, so they win ties). */
function keywordAt(q: string, p: number): { kind: TokenKind; len: number } | null {
  if (q.startsWith('AND', p)) return { kind: 'AND', len: 3 };
  if (q.startsWith('&&', p)) return { kind: 'AND', len: 2 };
  if (q.startsWith('OR', p)) return { kind: 'OR', len: 2 };
  if (q.startsWith('||', p)) return { kind: 'OR', len: 2 };
  if (q.startsWith('NOT', p)) return { kind: 'NOT', len: 3 };
  return null;
}

function matchDefault(q: string, p: number): Match {
  const c = q[p];
  if (isWhitespace(c)) return { kind: 'SKIP', end: p + 1 };
  switch (c) {
    case '(': return { kind: 'LPAREN', end: p + 1 };
    case ')': return { kind: 'RPAREN', end: p + 1 };
    case ':': return { kind: 'COLON', end: p + 1 };
    case '^': return { kind: 'CARAT', end: p + 1 };
    case '[': return { kind: 'RANGEIN_START', end: p + 1 };
    case '{': return { kind: 'RANGEEX_START', end: p + 1 };
    case '+': case '-': case '!': {
      // BAREOPER (`+`, `-`, `!` followed by whitespace) is longer than PLUS/MINUS/NOT.
      if (p + 1 < q.length && isWhitespace(q[p + 1])) return { kind: 'BAREOPER', end: p + 2 };
      return { kind: c === '+' ? 'PLUS' : c === '-' ? 'MINUS' : 'NOT', end: p + 1 };
    }
    case '"': {
      // QUOTED: `"` (~["\"", "\\"] | "\\" ~[])* `"`; unterminated, the NFA reads to the end.
      for (let i = p + 1; i < q.length; i++) {
        if (q[i] === '"') return { kind: 'QUOTED', end: i + 1 };
        if (q[i] === '\\') i++;
      }
      return { kind: null, read: q.length - p };
    }
    case '/': {
      const end = scanDelimited(q, p, '/', 0);
      return end < 0 ? { kind: null, read: q.length - p } : { kind: 'REGEXPTERM', end };
    }
    case '~':
      // FUZZY_SLOP's two alternatives together accept exactly "~" followed by any `_TERM_CHAR`s.
      return { kind: 'FUZZY_SLOP', end: scanTermChars(q, p + 1, false) };
    case '*': {
      // STAR, PREFIXTERM ("*" alone) and WILDTERM all match a lone `*`; STAR is declared first.
      const end = scanTermChars(q, p + 1, true);
      return { kind: end > p + 1 ? 'WILDTERM' : 'STAR', end };
    }
    case '?':
      return { kind: 'WILDTERM', end: scanTermChars(q, p + 1, true) };
  }
  if (c === '\\' ? p + 1 >= q.length : NOT_TERM_START.has(c)) {
    // A trailing `\`, or `]`/`}` outside a range: no token starts with it.
    return { kind: null, read: 1 };
  }
  const termEnd = scanTermChars(q, p, false);
  const prefixEnd = q[termEnd] === '*' ? termEnd + 1 : -1;
  const wildEnd = scanTermChars(q, p, true);
  if (wildEnd > Math.max(termEnd, prefixEnd)) return { kind: 'WILDTERM', end: wildEnd };
  if (prefixEnd > termEnd) return { kind: 'PREFIXTERM', end: prefixEnd };
  const kw = keywordAt(q, p);
  if (kw !== null && kw.len === termEnd - p) return { kind: kw.kind, end: termEnd };
  return { kind: 'TERM', end: termEnd };
}

function matchRange(q: string, p: number): Match {
  const c = q[p];
  if (c === ' ') return { kind: 'SKIP', end: p + 1 };
  if (c === ']') return { kind: 'RANGEIN_END', end: p + 1 };
  if (c === '}') return { kind: 'RANGEEX_END', end: p + 1 };
  // RANGE_GOOP excludes only ' ', ']' and '}', so it competes with the other whitespace chars
  // (SKIP wins a tie at length 1), with "TO" and with RANGE_QUOTED (both declared before it).
  let goopEnd = p;
  while (goopEnd < q.length && q[goopEnd] !== ' ' && q[goopEnd] !== ']' && q[goopEnd] !== '}') goopEnd++;
  if (isWhitespace(c) && goopEnd === p + 1) return { kind: 'SKIP', end: p + 1 };
  if (c === '"') {
    const quotedEnd = scanDelimited(q, p, '"', 1);
    if (quotedEnd >= goopEnd) return { kind: 'RANGE_QUOTED', end: quotedEnd };
  }
  if (goopEnd === p + 2 && q.startsWith('TO', p)) return { kind: 'RANGE_TO', end: goopEnd };
  return { kind: 'RANGE_GOOP', end: goopEnd };
}

function matchBoost(q: string, p: number): Match {
  // NUMBER: digits ("." digits)?. The Boost state skips no whitespace, so `a^ 2` is a lexical error.
  if (!isDigit(q[p])) return { kind: null, read: 1 };
  let i = p + 1;
  while (isDigit(q[i])) i++;
  if (q[i] === '.' && isDigit(q[i + 1])) {
    i += 2;
    while (isDigit(q[i])) i++;
  }
  return { kind: 'NUMBER', end: i };
}

/** The lexical state each token switches to (QueryParser.jj `: Boost`, `: Range`, `: DEFAULT`). */
const NEXT_STATE: Partial<Record<TokenKind, LexState>> = {
  CARAT: 'Boost', NUMBER: 'DEFAULT', RANGEIN_START: 'Range', RANGEEX_START: 'Range', RANGEIN_END: 'DEFAULT', RANGEEX_END: 'DEFAULT',
};

export class Lexer {
  private pos = 0;
  private state: LexState = 'DEFAULT';

  constructor(private readonly query: string) {}

  /** The next token; EOF forever at the end. Throws QueryStringSyntaxError on a lexical error. */
  next(): Token {
    const q = this.query;
    for (;;) {
      const p = this.pos;
      if (p >= q.length) return { kind: 'EOF', image: '', begin: q.length };
      const m = this.state === 'DEFAULT' ? matchDefault(q, p) : this.state === 'Range' ? matchRange(q, p) : matchBoost(q, p);
      if (m.kind === null) throw lexicalError(q, p, m.read, LEX_STATE[this.state]);
      this.pos = m.end;
      if (m.kind === 'SKIP') continue;
      this.state = NEXT_STATE[m.kind] ?? this.state;
      return { kind: m.kind, image: q.slice(p, m.end), begin: p };
    }
  }
}
