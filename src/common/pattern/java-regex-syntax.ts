/**
 * java.util.regex syntax parsed into a pattern node, so patterns run as automata instead of a
 * backtracking engine.
 *
 * The regular part is always accepted: alternation, groups `(…)` `(?:…)` `(?<name>…)`, quantifiers
 * `? * + {n} {n,} {n,m}` (lazy `?` and possessive `+` suffixes), `.`, classes with ranges and
 * negation, `\Q…\E`, the escapes `\t \n \r \f \a \e \0n \xhh \x{h…} \uhhhh \d \D \s \S \w \W \h \H
 * \v \V \p{…} \P{…}` and `\c` for any other punctuation, and the flags CASE_INSENSITIVE,
 * UNICODE_CASE, DOTALL, UNIX_LINES, MULTILINE and LITERAL (as bits or inline `(?imsud-imsud)` /
 * `(?i:…)`). For a DFA (ingest `split`) that is all. For the matcher VM (`matcher: true`, the
 * analysis `pattern` components) anchors `^ $ \A \z \Z`, word boundaries `\b \B`, lazy quantifiers
 * capture groups and lookaround of regular patterns are kept too. What is not regular — back-references, lookaround outside the matcher, atomic
 * groups, `\G`, the COMMENTS / CANON_EQ / UNICODE_CHARACTER_CLASS flags —
 * is refused with a clear message instead of being approximated.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { caseVariants, negateRanges, normalizeRanges, type AssertKind, type PatternNode } from './pattern-node.js';
import { unicodePropertyRanges } from './unicode-properties.js';

/** java.util.regex.Pattern's flag bits (the values ES's Regex.flagsFromString ORs together). */
export const JAVA_REGEX_FLAGS = {
  UNIX_LINES: 0x01, CASE_INSENSITIVE: 0x02, COMMENTS: 0x04, MULTILINE: 0x08, LITERAL: 0x10, DOTALL: 0x20,
  UNICODE_CASE: 0x40, CANON_EQ: 0x80, UNICODE_CHARACTER_CLASS: 0x100,
} as const;
const F = JAVA_REGEX_FLAGS;
const INLINE_FLAGS: Readonly<Record<string, number>> = { i: F.CASE_INSENSITIVE, d: F.UNIX_LINES, m: F.MULTILINE, s: F.DOTALL, u: F.UNICODE_CASE, x: F.COMMENTS, U: F.UNICODE_CHARACTER_CLASS };
const REFUSED_FLAGS: ReadonlyArray<[number, string]> = [[F.COMMENTS, 'COMMENTS'], [F.CANON_EQ, 'CANON_EQ'], [F.UNICODE_CHARACTER_CLASS, 'UNICODE_CHARACTER_CLASS']];

export interface JavaRegexOptions {
  /** What the pattern is, for refusals ("a separator", "a pattern"). */
  readonly usedAs?: string;
  /** Keep what only the matcher VM runs: anchors, boundaries, lazy quantifiers, capture groups. */
  readonly matcher?: boolean;
  /** JAVA_REGEX_FLAGS bits. */
  readonly flags?: number;
}

const DIGITS = [0x30, 0x39];
/** java.util.regex's ASCII \s: [ \t\n\x0B\f\r]. */
const SPACES = normalizeRanges([0x20, 0x20, 0x09, 0x0d]);
const WORD = normalizeRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
/** \h and \v: Java's horizontal and vertical whitespace. */
const HSPACE = normalizeRanges([0x20, 0x20, 0x09, 0x09, 0xa0, 0xa0, 0x1680, 0x1680, 0x180e, 0x180e, 0x2000, 0x200a, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000]);
const VSPACE = normalizeRanges([0x0a, 0x0d, 0x85, 0x85, 0x2028, 0x2029]);
/** Java's line terminators: \n \r \u0085 \u2028 \u2029 (only \n with UNIX_LINES). */
const LINE_TERMINATORS = normalizeRanges([0x0a, 0x0a, 0x0d, 0x0d, 0x85, 0x85, 0x2028, 0x2029]);
const DOT = negateRanges(LINE_TERMINATORS);
const DOT_UNIX = negateRanges([0x0a, 0x0a]);
const ANY = negateRanges([]);
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, r: 0x0d, f: 0x0c, a: 0x07, e: 0x1b };
const CLASS_ESCAPES: Readonly<Record<string, readonly number[]>> = {
  d: DIGITS, D: negateRanges(DIGITS), s: SPACES, S: negateRanges(SPACES), w: WORD, W: negateRanges(WORD),
  h: HSPACE, H: negateRanges(HSPACE), v: VSPACE, V: negateRanges(VSPACE),
};
/** Past this many code points, a class is not case-folded code point by code point (it holds both cases already in practice). */
const MAX_FOLDED_CLASS = 0x20000;

class JavaRegexParser {
  private pos = 0;
  private flags: number;
  private groups = 0;
  readonly groupNames = new Map<string, number>();
  private readonly matcher: boolean;
  private readonly usedAs: string;

  constructor(private readonly s: string, options: JavaRegexOptions) {
    this.flags = options.flags ?? 0;
    this.matcher = options.matcher === true;
    this.usedAs = options.usedAs ?? 'a separator';
  }

  get groupCount(): number {
    return this.groups;
  }

  private fail(what: string): never {
    throw new IllegalArgumentError(`${what} near index ${this.pos}`);
  }
  private unsupported(what: string): never {
    throw new IllegalArgumentError(`${what} is not supported in ${this.usedAs} (only regular patterns are) near index ${this.pos}`);
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
  private has(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }
  private checkFlags(): void {
    for (const [bit, name] of REFUSED_FLAGS) if (this.has(bit)) this.unsupported(`The ${name} flag`);
  }

  parse(): PatternNode {
    this.checkFlags();
    if (this.has(F.LITERAL)) return this.literal(this.s);
    const e = this.alternation();
    if (this.more()) this.fail("Unmatched closing ')'");
    return e;
  }

  private literal(text: string): PatternNode {
    const parts: PatternNode[] = [...text].map((ch) => this.charNode(ch.codePointAt(0)!));
    return parts.length === 0 ? { kind: 'empty_string' } : parts.length === 1 ? parts[0] : { kind: 'concat', parts };
  }

  /** One literal code point, case-folded as the flags ask (ASCII only unless UNICODE_CASE, as Java). */
  private charNode(cp: number): PatternNode {
    return { kind: 'chars', ranges: this.fold([cp, cp]) };
  }

  private fold(ranges: readonly number[]): number[] {
    if (!this.has(F.CASE_INSENSITIVE)) return ranges as number[];
    const unicode = this.has(F.UNICODE_CASE);
    const pairs = [...ranges];
    let budget = MAX_FOLDED_CLASS;
    for (let i = 0; i < ranges.length; i += 2) {
      const from = ranges[i];
      const to = unicode ? ranges[i + 1] : Math.min(ranges[i + 1], 0x7f);
      if (to - from + 1 > budget) continue;
      budget -= Math.max(0, to - from + 1);
      for (let cp = from; cp <= to; cp++) {
        if (unicode) {
          for (const v of caseVariants(cp)) if (v !== cp) pairs.push(v, v);
        } else if ((cp | 0x20) >= 0x61 && (cp | 0x20) <= 0x7a) pairs.push(cp ^ 0x20, cp ^ 0x20);
      }
    }
    return normalizeRanges(pairs);
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
    while (this.more() && this.peek() !== '|' && this.peek() !== ')') {
      const q = this.quantified();
      if (q !== null) parts.push(q);
    }
    return parts.length === 0 ? { kind: 'empty_string' } : parts.length === 1 ? parts[0] : { kind: 'concat', parts };
  }

  /** An atom and its quantifiers; null for an inline flag group `(?i)`, which matches nothing itself. */
  private quantified(): PatternNode | null {
    let e = this.atom();
    if (e === null) return null;
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
      if (e.kind === 'assert' && this.matcher) this.fail(`Dangling meta character '${c}'`);
      this.pos++;
      let lazy = false;
      if (this.more() && this.peek() === '?') {
        lazy = true;
        this.pos++;
      } else if (this.more() && this.peek() === '+') {
        // Possessive: no backtracking into the repeat. A different language in general (`a*+a`
        // never matches), so only the matcher refuses it; a DFA separator keeps the old reading.
        if (this.matcher) this.unsupported('A possessive quantifier');
        this.pos++;
      }
      e = lazy && this.matcher ? { kind: 'repeat', inner: e, min, max, lazy } : { kind: 'repeat', inner: e, min, max };
    }
  }

  private anchor(what: AssertKind, shown: string): PatternNode {
    if (!this.matcher) this.unsupported(shown.length === 1 ? `The anchor '${shown}'` : `The boundary '${shown}'`);
    return { kind: 'assert', what };
  }

  private atom(): PatternNode | null {
    const c = this.peek();
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return { kind: 'chars', ranges: this.charClass() };
      case '.':
        this.pos++;
        return { kind: 'chars', ranges: this.has(F.DOTALL) ? ANY : this.has(F.UNIX_LINES) ? DOT_UNIX : DOT };
      case '^':
      case '$': {
        const node = this.anchor(c === '^' ? (this.has(F.MULTILINE) ? 'line_start' : 'input_start') : this.has(F.MULTILINE) ? 'line_end' : 'input_end_before_terminator', c);
        this.pos++;
        return node;
      }
      case '*':
      case '+':
      case '?':
        this.fail(`Dangling meta character '${c}'`);
      // eslint-disable-next-line no-fallthrough
      case '\\':
        return this.escape();
      default:
        return this.charNode(this.nextCodePoint());
    }
  }

  private group(): PatternNode | null {
    this.pos++;
    const outerFlags = this.flags;
    let capture = 0;
    if (this.s.startsWith('?:', this.pos)) this.pos += 2;
    else if (this.s.startsWith('?<', this.pos) && /^\?<[a-zA-Z][a-zA-Z0-9]*>/.test(this.s.slice(this.pos, this.pos + 40))) {
      const close = this.s.indexOf('>', this.pos);
      const name = this.s.slice(this.pos + 2, close);
      if (this.groupNames.has(name)) this.fail(`Named capturing group <${name}> is already defined`);
      capture = ++this.groups;
      this.groupNames.set(name, capture);
      this.pos = close + 1;
    } else if (this.matcher && /^\?<?[=!]/.test(this.s.slice(this.pos, this.pos + 3))) {
      const behind = this.s[this.pos + 1] === '<';
      const negate = this.s[this.pos + (behind ? 2 : 1)] === '!';
      this.pos += behind ? 3 : 2;
      const inner = this.alternation();
      if (!this.more() || this.peek() !== ')') this.fail('Unclosed group');
      this.pos++;
      this.flags = outerFlags;
      return { kind: 'look', behind, negate, inner };
    } else if (this.peek() === '?') {
      const m = /^\?([idmsuxU]*)(?:-([idmsuxU]*))?([:)])/.exec(this.s.slice(this.pos, this.pos + 24));
      if (m === null) {
        if (this.s.startsWith('?>', this.pos)) this.unsupported('An atomic group');
        this.unsupported('Lookaround');
      }
      for (const f of m[1]) this.flags |= INLINE_FLAGS[f];
      for (const f of m[2] ?? '') this.flags &= ~INLINE_FLAGS[f];
      this.checkFlags();
      this.pos += m[0].length;
      // `(?i)`: the flags hold to the end of the enclosing group (restored there by the caller).
      if (m[3] === ')') return null;
    } else capture = ++this.groups;
    const e = this.alternation();
    if (!this.more() || this.peek() !== ')') this.fail('Unclosed group');
    this.pos++;
    this.flags = outerFlags;
    return capture > 0 && this.matcher ? { kind: 'group', index: capture, inner: e } : e;
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
      return this.literal(text);
    }
    const boundary: Readonly<Record<string, AssertKind>> = { b: 'word_boundary', B: 'not_word_boundary', A: 'input_start', z: 'input_end', Z: 'input_end_before_terminator' };
    if (c in boundary) {
      const node = this.anchor(boundary[c], `\\${c}`);
      this.pos++;
      return node;
    }
    if (c === 'G') this.unsupported("The boundary '\\G'");
    const cls = this.classEscape();
    if (cls !== null) return { kind: 'chars', ranges: cls };
    return this.charNode(this.escapedChar());
  }

  /** After a `\`: the ranges of a class escape (\d, \p{L} …), or null when it is not one. */
  private classEscape(): number[] | null {
    const c = this.peek();
    const cls = CLASS_ESCAPES[c];
    if (cls !== undefined) {
      this.pos++;
      return cls as number[];
    }
    if (c !== 'p' && c !== 'P') return null;
    this.pos++;
    let name: string;
    if (this.peek() === '{') {
      const close = this.s.indexOf('}', this.pos);
      if (close < 0) this.fail('Unclosed character family');
      name = this.s.slice(this.pos + 1, close);
      this.pos = close + 1;
    } else {
      if (!this.more()) this.fail('Illegal character family');
      name = this.peek();
      this.pos++;
    }
    const ranges = unicodePropertyRanges(name);
    if (ranges === null) this.fail(`Unknown character property name {${name.slice(0, 40)}}`);
    const folded = this.fold(ranges);
    return c === 'P' ? negateRanges(folded) : folded;
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
    if (c === 'x' && this.s[this.pos + 1] === '{') {
      const m = /^x\{([0-9a-fA-F]{1,8})\}/.exec(this.s.slice(this.pos, this.pos + 12));
      if (!m || parseInt(m[1], 16) > 0x10ffff) this.fail('Illegal hexadecimal escape sequence');
      this.pos += m[0].length;
      return parseInt(m[1], 16);
    }
    if (c === 'x') return hex(2);
    if (c === 'u') return hex(4);
    if (c === '0') {
      const m = /^0([0-3]?[0-7]{1,2})/.exec(this.s.slice(this.pos, this.pos + 4));
      if (!m) this.fail('Illegal octal escape sequence');
      this.pos += m[0].length;
      return parseInt(m[1], 8);
    }
    if (/[1-9]/.test(c) || c === 'k') this.unsupported('A back-reference');
    if (/[bBAGzZ]/.test(c)) this.unsupported(`The boundary '\\${c}'`);
    if (/[a-zA-Z]/.test(c)) this.fail('Illegal/unsupported escape sequence');
    return this.nextCodePoint();
  }

  /** `[…]`: its code point ranges (nested classes are unions, `&&` intersects, as java.util.regex). */
  private charClass(): number[] {
    this.pos++;
    const negate = this.more() && this.peek() === '^';
    if (negate) this.pos++;
    let ranges: number[] | null = null;
    let pairs: number[] = [];
    let first = true;
    while (this.more() && (this.peek() !== ']' || first)) {
      first = false;
      if (this.s.startsWith('&&', this.pos)) {
        this.pos += 2;
        ranges = ranges === null ? normalizeRanges(pairs) : intersectRanges(ranges, normalizeRanges(pairs));
        pairs = [];
        first = true;
        if (this.peek() === ']') break;
        continue;
      }
      if (this.peek() === '[') {
        pairs.push(...this.charClass());
        continue;
      }
      let from: number;
      if (this.peek() === '\\') {
        this.pos++;
        if (!this.more()) break;
        const cls = this.classEscape();
        if (cls !== null) {
          pairs.push(...cls);
          continue;
        }
        if (this.peek() === 'Q') this.unsupported('\\Q inside a class');
        from = this.escapedChar();
      } else from = this.nextCodePoint();
      if (this.peek() === '-' && this.pos + 1 < this.s.length && this.s[this.pos + 1] !== ']' && this.s[this.pos + 1] !== '[') {
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
    const last = normalizeRanges(pairs);
    const all = this.fold(ranges === null ? last : intersectRanges(ranges, last));
    return negate ? negateRanges(all) : all;
  }
}

/** The code points in both range lists (normalized). */
function intersectRanges(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const from = Math.max(a[i], b[j]);
    const to = Math.min(a[i + 1], b[j + 1]);
    if (from <= to) out.push(from, to);
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return out;
}

export interface ParsedJavaRegex {
  readonly node: PatternNode;
  /** Capturing groups, numbered 1..groupCount in the order their `(` appear. */
  readonly groupCount: number;
  readonly groupNames: ReadonlyMap<string, number>;
}

/** Parses a java.util.regex pattern (see the options); throws IllegalArgumentError for what is refused. */
export function parseJavaRegexFull(regex: string, options: JavaRegexOptions = {}): ParsedJavaRegex {
  const parser = new JavaRegexParser(regex, options);
  const node = parser.parse();
  return { node, groupCount: parser.groupCount, groupNames: parser.groupNames };
}

/** Parses a java.util.regex pattern that describes a regular language; throws IllegalArgumentError otherwise. */
export function parseJavaRegex(regex: string, options: JavaRegexOptions = {}): PatternNode {
  return parseJavaRegexFull(regex, options).node;
}

/** Java's line terminators as ranges (for the matcher's anchors). */
export const JAVA_LINE_TERMINATORS: readonly number[] = LINE_TERMINATORS;

/** The pattern read backwards: every string it matches, reversed. */
export function reversePattern(node: PatternNode): PatternNode {
  switch (node.kind) {
    case 'concat':
      return { kind: 'concat', parts: node.parts.map(reversePattern).reverse() };
    case 'union':
      return { kind: 'union', parts: node.parts.map(reversePattern) };
    case 'repeat':
    case 'group':
      return { ...node, inner: reversePattern(node.inner) };
    case 'complement':
      return { kind: 'complement', inner: reversePattern(node.inner) };
    case 'intersection':
      return { kind: 'intersection', left: reversePattern(node.left), right: reversePattern(node.right) };
    default:
      return node;
  }
}
