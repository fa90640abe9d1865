/**
 * The regular-language part of java.util.regex syntax (what ES's ingest `split` separator takes),
 * parsed into a pattern node so it can run as an automaton instead of a backtracking engine:
 * alternation, groups `(…)` `(?:…)` `(?<name>…)`, quantifiers `? * + {n} {n,} {n,m}` (lazy `?` and
 * possessive `+` suffixes accepted: the language is the same), `.` (any but a line terminator),
 * classes with ranges and negation, `\Q…\E`, and the escapes `\t \n \r \f \a \e \0n \xhh \uhhhh
 * \d \D \s \S \w \W` and `\c` for any other punctuation. What is not a regular language or needs
 * context — anchors, word boundaries, back-references, lookaround, inline flags, class
 * intersection `&&` — is refused with a clear message instead of being approximated.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { negateRanges, normalizeRanges, type PatternNode } from './pattern-node.js';

const DIGITS = [0x30, 0x39];
/** java.util.regex's ASCII \s: [ \t\n\x0B\f\r]. */
const SPACES = normalizeRanges([0x20, 0x20, 0x09, 0x0d]);
const WORD = normalizeRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
/** `.` excludes Java's line terminators: \n \r \u0085 \u2028 \u2029. */
const DOT = negateRanges(normalizeRanges([0x0a, 0x0a, 0x0d, 0x0d, 0x85, 0x85, 0x2028, 0x2029]));
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, r: 0x0d, f: 0x0c, a: 0x07, e: 0x1b };
const CLASS_ESCAPES: Readonly<Record<string, readonly number[]>> = {
  d: DIGITS, D: negateRanges(DIGITS), s: SPACES, S: negateRanges(SPACES), w: WORD, W: negateRanges(WORD),
};

class JavaRegexParser {
  private pos = 0;
  constructor(private readonly s: string) {}

  private fail(what: string): never {
    throw new IllegalArgumentError(`${what} near index ${this.pos}`);
  }
  private unsupported(what: string): never {
    throw new IllegalArgumentError(`${what} is not supported in a separator (only regular patterns are) near index ${this.pos}`);
  }
  private more(): boolean {
    return this.pos < this.s.length;
  }
  private peek(): string {
    return this.s[this.pos];
  }
  private nextCodePoint(): number {
    const cp = this.s.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  parse(): PatternNode {
    const e = this.alternation();
    if (this.more()) this.fail("Unmatched closing ')'");
    return e;
  }

  private alternation(): PatternNode {
    const parts = [this.sequence()];
    while (this.more() && this.peek() === '|') {
      this.pos++;
      parts.push(this.sequence());
    }
    return parts.length === 1 ? parts[0] : { kind: 'union', parts };
  }

  private sequence(): PatternNode {
    const parts: PatternNode[] = [];
    while (this.more() && this.peek() !== '|' && this.peek() !== ')') parts.push(this.quantified());
    return parts.length === 0 ? { kind: 'empty_string' } : parts.length === 1 ? parts[0] : { kind: 'concat', parts };
  }

  private quantified(): PatternNode {
    let e = this.atom();
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, -1];
      else if (c === '+') [min, max] = [1, -1];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.s.slice(this.pos, this.pos + 24))) {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.pos, this.pos + 24))!;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
        if (max !== -1 && max < min) this.fail('Illegal repetition range');
        this.pos += m[0].length - 1;
      } else return e;
      this.pos++;
      if (this.more() && (this.peek() === '?' || this.peek() === '+')) this.pos++; // lazy / possessive
      e = { kind: 'repeat', inner: e, min, max };
    }
  }

  private atom(): PatternNode {
    const c = this.peek();
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return { kind: 'chars', ranges: this.charClass() };
      case '.':
        this.pos++;
        return { kind: 'chars', ranges: DOT };
      case '^':
      case '$':
        this.unsupported(`The anchor '${c}'`);
      // eslint-disable-next-line no-fallthrough
      case '*':
      case '+':
      case '?':
        this.fail(`Dangling meta character '${c}'`);
      // eslint-disable-next-line no-fallthrough
      case '\\':
        return this.escape();
      default: {
        const cp = this.nextCodePoint();
        return { kind: 'chars', ranges: [cp, cp] };
      }
    }
  }

  private group(): PatternNode {
    this.pos++;
    if (this.s.startsWith('?:', this.pos)) this.pos += 2;
    else if (this.s.startsWith('?<', this.pos) && /^\?<[a-zA-Z][a-zA-Z0-9]*>/.test(this.s.slice(this.pos, this.pos + 40))) {
      this.pos = this.s.indexOf('>', this.pos) + 1;
    } else if (this.peek() === '?') this.unsupported('Lookaround or an inline flag');
    const e = this.alternation();
    if (!this.more() || this.peek() !== ')') this.fail('Unclosed group');
    this.pos++;
    return e;
  }

  private escape(): PatternNode {
    this.pos++;
    if (!this.more()) this.fail('Unexpected internal error');
    const c = this.peek();
    if (c === 'Q') {
      this.pos++;
      const end = this.s.indexOf('\\E', this.pos);
      const text = this.s.slice(this.pos, end < 0 ? this.s.length : end);
      this.pos = end < 0 ? this.s.length : end + 2;
      const parts: PatternNode[] = [...text].map((ch) => ({ kind: 'chars', ranges: [ch.codePointAt(0)!, ch.codePointAt(0)!] }));
      return parts.length === 0 ? { kind: 'empty_string' } : { kind: 'concat', parts };
    }
    const cls = CLASS_ESCAPES[c];
    if (cls !== undefined) {
      this.pos++;
      return { kind: 'chars', ranges: cls };
    }
    const cp = this.escapedChar();
    return { kind: 'chars', ranges: [cp, cp] };
  }

  /** After a `\`: one literal code point. */
  private escapedChar(): number {
    const c = this.peek();
    if (c in SIMPLE_ESCAPES) {
      this.pos++;
      return SIMPLE_ESCAPES[c];
    }
    const hex = (n: number): number => {
      const h = this.s.slice(this.pos + 1, this.pos + 1 + n);
      if (h.length !== n || [...h].some((d) => !'0123456789abcdefABCDEF'.includes(d))) this.fail('Illegal hexadecimal escape sequence');
      this.pos += 1 + n;
      return parseInt(h, 16);
    };
    if (c === 'x') return hex(2);
    if (c === 'u') return hex(4);
    if (c === '0') {
      const m = /^0([0-3]?[0-7]{1,2})/.exec(this.s.slice(this.pos, this.pos + 4));
      if (!m) this.fail('Illegal octal escape sequence');
      this.pos += m[0].length;
      return parseInt(m[1], 8);
    }
    if (/[1-9]/.test(c)) this.unsupported('A back-reference');
    if (/[bBAGzZ]/.test(c)) this.unsupported(`The boundary '\\${c}'`);
    if (/[a-zA-Z]/.test(c)) this.fail('Illegal/unsupported escape sequence');
    return this.nextCodePoint();
  }

  /** `[…]`: its code point ranges. */
  private charClass(): number[] {
    this.pos++;
    const negate = this.more() && this.peek() === '^';
    if (negate) this.pos++;
    const pairs: number[] = [];
    let first = true;
    while (this.more() && (this.peek() !== ']' || first)) {
      first = false;
      if (this.s.startsWith('&&', this.pos)) this.unsupported('Class intersection');
      if (this.peek() === '[') this.unsupported('A nested class');
      let from: number;
      if (this.peek() === '\\') {
        this.pos++;
        if (!this.more()) break;
        const cls = CLASS_ESCAPES[this.peek()];
        if (cls !== undefined) {
          this.pos++;
          pairs.push(...cls);
          continue;
        }
        from = this.escapedChar();
      } else from = this.nextCodePoint();
      if (this.peek() === '-' && this.pos + 1 < this.s.length && this.s[this.pos + 1] !== ']') {
        this.pos++;
        let to: number;
        if (this.peek() === '\\') {
          this.pos++;
          to = this.escapedChar();
        } else to = this.nextCodePoint();
        if (to < from) this.fail('Illegal character range');
        pairs.push(from, to);
      } else pairs.push(from, from);
    }
    if (!this.more()) this.fail('Unclosed character class');
    this.pos++;
    const ranges = normalizeRanges(pairs);
    return negate ? negateRanges(ranges) : ranges;
  }
}

/** Parses a java.util.regex pattern that describes a regular language; throws IllegalArgumentError otherwise. */
export function parseJavaRegex(regex: string): PatternNode {
  return new JavaRegexParser(regex).parse();
}

/** The pattern read backwards: every string it matches, reversed. */
export function reversePattern(node: PatternNode): PatternNode {
  switch (node.kind) {
    case 'concat':
      return { kind: 'concat', parts: node.parts.map(reversePattern).reverse() };
    case 'union':
      return { kind: 'union', parts: node.parts.map(reversePattern) };
    case 'repeat':
      return { ...node, inner: reversePattern(node.inner) };
    case 'complement':
      return { kind: 'complement', inner: reversePattern(node.inner) };
    case 'intersection':
      return { kind: 'intersection', left: reversePattern(node.left), right: reversePattern(node.right) };
    default:
      return node;
  }
}
