/**
 * Painless's tokens (ES PainlessLexer.g4), enough to read every script a client sends: what the
 * subset does not run still has to be recognised, so that it fails as a clear compile error at the
 * right offset rather than as a stray character. Numbers keep their text: the parser types them
 * (int, long, float, double) as Painless does, suffixes and all.
 */
import { ScriptCompileFailure } from './script-failure.js';

export type TokenKind = 'num' | 'str' | 'id' | 'op' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** Offset of the token's first character in the source. */
  readonly at: number;
}

/** Operators and punctuation, longest first so that `>>>=` is one token, not `>` `>` `>=`. */
const OPERATORS = [
  '>>>=', '===', '!==', '>>>', '<<=', '>>=', '==~',
  '==', '!=', '<=', '>=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '?.', '?:', '->', '::', '=~',
  '(', ')', '[', ']', '{', '}', '.', ',', ';', '?', ':', '!', '~', '+', '-', '*', '/', '%', '<', '>', '=', '&', '|', '^',
];

const isDigit = (c: string) => c >= '0' && c <= '9';
const isIdStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isIdPart = (c: string) => isIdStart(c) || isDigit(c);
const isHex = (c: string) => isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');

/** The whole source as tokens, ending with one `eof` token; comments and whitespace skipped. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n' && source[i] !== '\r') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) throw unexpectedCharacter(source, i);
      i = end + 2;
      continue;
    }
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(source[i + 1] ?? ''))) {
      i = numberEnd(source, i);
      tokens.push({ kind: 'num', text: source.slice(start, i), at: start });
      continue;
    }
    if (isIdStart(c)) {
      while (i < n && isIdPart(source[i])) i++;
      tokens.push({ kind: 'id', text: source.slice(start, i), at: start });
      continue;
    }
    if (c === '"' || c === '\'') {
      i = stringEnd(source, i);
      tokens.push({ kind: 'str', text: source.slice(start, i), at: start });
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (op === undefined) throw unexpectedCharacter(source, i);
    tokens.push({ kind: 'op', text: op, at: start });
    i += op.length;
  }
  tokens.push({ kind: 'eof', text: '<EOF>', at: n });
  return tokens;
}

/** PainlessLexer's OCTAL, HEX, INTEGER and DECIMAL rules: where the number starting at `i` ends. */
function numberEnd(s: string, i: number): number {
  if (s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X') && isHex(s[i + 2] ?? '')) {
    i += 2;
    while (isHex(s[i] ?? '')) i++;
    return s[i] === 'l' || s[i] === 'L' ? i + 1 : i;
  }
  while (isDigit(s[i] ?? '')) i++;
  if (s[i] === '.' && isDigit(s[i + 1] ?? '')) {
    i++;
    while (isDigit(s[i] ?? '')) i++;
  }
  if ((s[i] === 'e' || s[i] === 'E') && (isDigit(s[i + 1] ?? '') || ((s[i + 1] === '+' || s[i + 1] === '-') && isDigit(s[i + 2] ?? '')))) {
    i += 2;
    while (isDigit(s[i] ?? '')) i++;
  }
  return /[lLfFdD]/.test(s[i] ?? '') ? i + 1 : i;
}

/** A quoted string's end (after its closing quote); `\\` and `\<quote>` escape. */
function stringEnd(s: string, i: number): number {
  const quote = s[i];
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === quote) return j + 1;
  }
  throw unexpectedCharacter(s, i);
}

/** A string token's value: Painless unescapes only `\\` and the quote it was written with. */
export function stringValue(text: string): string {
  const quote = text[0];
  let out = '';
  for (let j = 1; j < text.length - 1; j++) {
    if (text[j] === '\\' && (text[j + 1] === '\\' || text[j + 1] === quote)) j++;
    out += text[j];
  }
  return out;
}

/** EnhancedPainlessLexer.recover: "unexpected character [x]." at the character. */
function unexpectedCharacter(source: string, at: number): ScriptCompileFailure {
  return new ScriptCompileFailure(at, 'illegal_argument_exception', `unexpected character [${source.slice(at, at + 1)}].`);
}
