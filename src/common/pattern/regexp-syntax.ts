/**
 * Lucene's RegExp syntax (what ES's `regexp` query, query_string's `/…/`, the completion
 * suggester's `regex`, the terms aggregation's `include`/`exclude` and role index patterns take),
 * parsed by recursive descent exactly as org.apache.lucene.util.automaton.RegExp does: union `|`,
 * intersection `&`, concatenation, repeats `? * + {n} {n,} {n,m}`, complement `~`, classes `[a-z]`
 * / `[^…]`, `.`, quoted strings `"…"`, groups, intervals `<n-m>`, escapes `\c` and the shorthand
 * classes `\d \D \s \S \w \W`, `#` (the empty language) and `@` (any string). The optional
 * operators are on only with their flag. Every other character is literal — `^` and `$` included.
 * Errors are Lucene's IllegalArgumentException messages (ES shows them as illegal_argument_exception).
 */
import { IllegalArgumentError } from '../../errors/index.js';
import {
  ANY_CHAR, EMPTY_STRING, charRanges, literalNode, negateRanges, normalizeRanges, type PatternNode,
} from './pattern-node.js';

/** Lucene RegExp's syntax flags, by ES RegexpFlag name. */
export const REGEXP_FLAGS = {
  INTERSECTION: 0x0001, COMPLEMENT: 0x0002, EMPTY: 0x0004, ANYSTRING: 0x0008, INTERVAL: 0x0020, NONE: 0, ALL: 0xff,
} as const;
/** Lucene RegExp.AUTOMATON (`<identifier>`), part of ALL though ES names no flag for it. */
const AUTOMATON = 0x0010;

/** Lucene's predefined classes (RegExp.matchPredefinedCharacterClass, since 9.0). */
const SHORTHAND: Readonly<Record<string, readonly number[]>> = {
  d: [0x30, 0x39],
  s: normalizeRanges([0x20, 0x20, 0x09, 0x09, 0x0a, 0x0a, 0x0d, 0x0d]),
  w: normalizeRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]),
};

/** The ranges of `\\c` when c names a predefined class (upper case: its complement), else null. */
function shorthandRanges(c: string): readonly number[] | null {
  const lower = c.toLowerCase();
  const ranges = SHORTHAND[lower];
  if (ranges === undefined) return null;
  return c === lower ? ranges : negateRanges(ranges);
}

/** ES RegexpFlag.resolveValue: flag names joined by `|`, any case. */
export function resolveRegexpFlags(names: string): number {
  let flags = 0;
  for (const name of names.split('|')) {
    const bits = (REGEXP_FLAGS as Readonly<Record<string, number>>)[name.trim().toUpperCase()];
    if (bits === undefined) throw new IllegalArgumentError(`Unknown regexp flag [${name.slice(0, 64)}]`);
    flags |= bits;
  }
  return flags;
}

export interface RegexpOptions {
  /** Syntax flags (REGEXP_FLAGS bits); default ALL. */
  readonly flags?: number;
  /** ES `case_insensitive`: every literal character matches its case variants. */
  readonly caseInsensitive?: boolean;
}

class Parser {
  private pos = 0;
  private readonly flags: number;
  private readonly ci: boolean;
  constructor(private readonly s: string, options: RegexpOptions) {
    this.flags = options.flags ?? REGEXP_FLAGS.ALL;
    this.ci = options.caseInsensitive ?? false;
  }
  private more(): boolean {
    return this.pos < this.s.length;
  }
  private peek(set: string): boolean {
    return this.more() && set.includes(String.fromCodePoint(this.s.codePointAt(this.pos)!));
  }
  private match(c: string): boolean {
    if (this.more() && this.s[this.pos] === c) {
      this.pos++;
      return true;
    }
    return false;
  }
  private next(): number {
    if (!this.more()) throw new IllegalArgumentError('unexpected end-of-string');
    const cp = this.s.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }
  private check(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  parse(): PatternNode {
    if (this.s.length === 0) return EMPTY_STRING;
    const e = this.union();
    if (this.more()) throw new IllegalArgumentError(`end-of-string expected at position ${this.pos}`);
    return e;
  }

  private union(): PatternNode {
    const e = this.inter();
    return this.match('|') ? { kind: 'union', parts: [e, this.union()] } : e;
  }

  private inter(): PatternNode {
    const e = this.concat();
    return this.check(REGEXP_FLAGS.INTERSECTION) && this.match('&') ? { kind: 'intersection', left: e, right: this.inter() } : e;
  }

  private concat(): PatternNode {
    const parts = [this.repeat()];
    while (this.more() && !this.peek(')|') && !(this.check(REGEXP_FLAGS.INTERSECTION) && this.peek('&'))) parts.push(this.repeat());
    return parts.length === 1 ? parts[0] : { kind: 'concat', parts };
  }

  private repeat(): PatternNode {
    let e = this.complement();
    for (;;) {
      if (this.match('?')) e = { kind: 'repeat', inner: e, min: 0, max: 1 };
      else if (this.match('*')) e = { kind: 'repeat', inner: e, min: 0, max: -1 };
      else if (this.match('+')) e = { kind: 'repeat', inner: e, min: 1, max: -1 };
      else if (this.match('{')) {
        const n = this.integer();
        let m = n;
        if (this.match(',')) m = this.peek('0123456789') ? this.integer() : -1;
        if (!this.match('}')) throw new IllegalArgumentError(`expected '}' at position ${this.pos}`);
        e = { kind: 'repeat', inner: e, min: n, max: m };
      } else return e;
    }
  }

  private integer(): number {
    const start = this.pos;
    while (this.peek('0123456789')) this.pos++;
    if (start === this.pos) throw new IllegalArgumentError(`integer expected at position ${this.pos}`);
    // Java's Integer.parseInt refuses what does not fit in an int.
    const n = Number(this.s.slice(start, this.pos));
    if (n > 0x7fffffff) throw new IllegalArgumentError(`For input string: "${this.s.slice(start, Math.min(this.pos, start + 20))}"`);
    return n;
  }

  private complement(): PatternNode {
    if (this.check(REGEXP_FLAGS.COMPLEMENT) && this.match('~')) return { kind: 'complement', inner: this.complement() };
    return this.charClassExp();
  }

  private charClassExp(): PatternNode {
    if (!this.match('[')) return this.simple();
    const negate = this.match('^');
    const pairs: number[] = [];
    do this.charClass(pairs);
    while (this.more() && !this.peek(']'));
    if (!this.match(']')) throw new IllegalArgumentError(`expected ']' at position ${this.pos}`);
    const ranges = normalizeRanges(pairs);
    return { kind: 'chars', ranges: negate ? negateRanges(ranges) : ranges };
  }

  /** One member of a class, its code point ranges appended to `pairs`. */
  private charClass(pairs: number[]): void {
    const predefined = this.predefinedClass();
    if (predefined !== null) {
      pairs.push(...predefined);
      return;
    }
    const from = this.charExp();
    if (this.match('-')) {
      const to = this.charExp();
      if (from > to) throw new IllegalArgumentError(`invalid range: from (${from}) cannot be > to (${to})`);
      pairs.push(from, to);
    } else {
      pairs.push(...charRanges(from, this.ci));
    }
  }

  private predefinedClass(): readonly number[] | null {
    if (this.s[this.pos] === '\\' && this.pos + 1 < this.s.length) {
      const ranges = shorthandRanges(this.s[this.pos + 1]);
      if (ranges !== null) {
        this.pos += 2;
        return ranges;
      }
    }
    return null;
  }

  private charExp(): number {
    this.match('\\');
    return this.next();
  }

  private simple(): PatternNode {
    if (this.match('.')) return ANY_CHAR;
    if (this.check(REGEXP_FLAGS.EMPTY) && this.match('#')) return { kind: 'empty' };
    if (this.check(REGEXP_FLAGS.ANYSTRING) && this.match('@')) return { kind: 'any_string' };
    if (this.match('"')) {
      const start = this.pos;
      while (this.more() && !this.peek('"')) this.next();
      if (!this.match('"')) throw new IllegalArgumentError(`expected '"' at position ${this.pos}`);
      return literalNode(this.s.slice(start, this.pos - 1), this.ci);
    }
    if (this.match('(')) {
      if (this.match(')')) return EMPTY_STRING;
      const e = this.union();
      if (!this.match(')')) throw new IllegalArgumentError(`expected ')' at position ${this.pos}`);
      return e;
    }
    if ((this.check(AUTOMATON) || this.check(REGEXP_FLAGS.INTERVAL)) && this.match('<')) return this.interval();
    const predefined = this.predefinedClass();
    return { kind: 'chars', ranges: predefined ?? charRanges(this.charExp(), this.ci) };
  }

  /** `<n-m>` (Lucene's makeDecimalInterval); a named automaton `<name>` is never defined in ES. */
  private interval(): PatternNode {
    const start = this.pos;
    while (this.more() && !this.peek('>')) this.next();
    if (!this.match('>')) throw new IllegalArgumentError(`expected '>' at position ${this.pos}`);
    const s = this.s.slice(start, this.pos - 1);
    const i = s.indexOf('-');
    if (i === -1) {
      if (!this.check(AUTOMATON)) throw new IllegalArgumentError(`interval syntax error at position ${this.pos - 1}`);
      throw new IllegalArgumentError(`'${s.slice(0, 64)}' not found`);
    }
    if (!this.check(REGEXP_FLAGS.INTERVAL)) throw new IllegalArgumentError(`illegal identifier at position ${this.pos - 1}`);
    const smin = s.slice(0, i);
    const smax = s.slice(i + 1);
    if (i === 0 || i === s.length - 1 || i !== s.lastIndexOf('-') || !/^[0-9]{1,9}$/.test(smin) || !/^[0-9]{1,9}$/.test(smax)) {
      throw new IllegalArgumentError(`interval syntax error at position ${this.pos - 1}`);
    }
    let min = Number(smin);
    let max = Number(smax);
    if (min > max) [min, max] = [max, min];
    return decimalInterval(min, max, smin.length === smax.length ? smin.length : 0);
  }
}

const DIGIT = (from: number, to: number): PatternNode => ({ kind: 'chars', ranges: [0x30 + from, 0x30 + to] });

/** Digit strings of equal length n whose value lies in [lo, hi] (both given as n-digit strings). */
function sameLengthRange(lo: string, hi: string): PatternNode {
  if (lo.length === 0) return EMPTY_STRING;
  const a = lo.charCodeAt(0) - 0x30;
  const b = hi.charCodeAt(0) - 0x30;
  const restLo = lo.slice(1);
  const restHi = hi.slice(1);
  if (a === b) return { kind: 'concat', parts: [DIGIT(a, a), sameLengthRange(restLo, restHi)] };
  const nines = '9'.repeat(restLo.length);
  const zeros = '0'.repeat(restLo.length);
  const parts: PatternNode[] = [{ kind: 'concat', parts: [DIGIT(a, a), sameLengthRange(restLo, nines)] }];
  if (b - a > 1) parts.push({ kind: 'concat', parts: [DIGIT(a + 1, b - 1), { kind: 'repeat', inner: DIGIT(0, 9), min: restLo.length, max: restLo.length }] });
  parts.push({ kind: 'concat', parts: [DIGIT(b, b), sameLengthRange(zeros, restHi)] });
  return { kind: 'union', parts };
}

/**
 * Lucene Automata.makeDecimalInterval: the decimal numbers in [min, max]; with `digits` > 0 exactly
 * that many digits (zero-padded), else any number of leading zeros.
 */
function decimalInterval(min: number, max: number, digits: number): PatternNode {
  if (digits > 0) return sameLengthRange(String(min).padStart(digits, '0'), String(max).padStart(digits, '0'));
  const parts: PatternNode[] = [];
  const maxLen = String(max).length;
  for (let len = String(min).length; len <= maxLen; len++) {
    const lo = Math.max(min, len === 1 ? 0 : 10 ** (len - 1));
    const hi = Math.min(max, 10 ** len - 1);
    if (lo <= hi) parts.push(sameLengthRange(String(lo), String(hi)));
  }
  const zeros: PatternNode = { kind: 'repeat', inner: DIGIT(0, 0), min: 0, max: -1 };
  return { kind: 'concat', parts: [zeros, parts.length === 1 ? parts[0] : { kind: 'union', parts }] };
}

/** Parses a Lucene regexp; throws IllegalArgumentError with Lucene's message when malformed. */
export function parseRegexp(regexp: string, options: RegexpOptions = {}): PatternNode {
  return new Parser(regexp, options).parse();
}
