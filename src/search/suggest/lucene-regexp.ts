/**
 * Lucene RegExp syntax (what the completion suggester's `regex` takes) → a JavaScript regular
 * expression source with the same language, by recursive descent over Lucene's grammar:
 * union `|`, concatenation, repeats `? * + {n} {n,} {n,m}`, classes `[a-z]` / `[^…]`, `.`, quoted
 * strings `"…"`, groups, escapes `\c` and `\d \D \s \S \w \W`, and with their flags on, `#` (the
 * empty language) and `@` (any string). Every other character is literal — `^` and `$` included,
 * unlike JS. Intersection `&`, complement `~` and intervals `<n-m>` (each behind a flag, on by
 * default) have no JS equivalent and fail clearly. Errors carry Lucene's messages.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { REGEXP_FLAGS } from '../../dsl/suggest/index.js';

/** Characters with a meaning in JS patterns, escaped when Lucene means them literally (the only
 *  escapes `u` mode allows outside a class), and those with a meaning inside a class. */
const JS_SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);
const JS_CLASS_SYNTAX = new Set([...'^\\[]-']);
/** Lucene RegExp.AUTOMATON (`<identifier>`), part of ALL though ES names no flag for it. */
const AUTOMATON = 0x0010;

/** Lucene's shorthand classes (RegExp, since 9.0). */
const SHORTHAND: Readonly<Record<string, string>> = {
  d: '[0-9]', D: '[^0-9]', s: '[ \\t\\n\\r]', S: '[^ \\t\\n\\r]', w: '[a-zA-Z0-9_]', W: '[^a-zA-Z0-9_]',
};

function literal(c: string): string {
  return JS_SYNTAX.has(c) ? `\\${c}` : c;
}

function classLiteral(c: string): string {
  return JS_CLASS_SYNTAX.has(c) ? `\\${c}` : c;
}

class Parser {
  private pos = 0;
  private readonly chars: string[];
  constructor(text: string, private readonly flags: number) {
    this.chars = [...text];
  }
  private more(): boolean {
    return this.pos < this.chars.length;
  }
  private peek(set: string): boolean {
    return this.more() && set.includes(this.chars[this.pos]);
  }
  private match(c: string): boolean {
    if (this.more() && this.chars[this.pos] === c) {
      this.pos++;
      return true;
    }
    return false;
  }
  private next(): string {
    if (!this.more()) throw new IllegalArgumentError('unexpected end-of-string');
    return this.chars[this.pos++];
  }
  private on(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }
  private unsupported(what: string): never {
    throw new IllegalArgumentError(`regex ${what} is not supported by this server yet`);
  }

  parse(): string {
    if (this.chars.length === 0) return '';
    const e = this.union();
    if (this.more()) throw new IllegalArgumentError(`end-of-string expected at position ${this.pos}`);
    return e;
  }

  private union(): string {
    const e = this.inter();
    return this.match('|') ? `${e}|${this.union()}` : e;
  }

  private inter(): string {
    const e = this.concat();
    if (this.on(REGEXP_FLAGS.INTERSECTION) && this.peek('&')) this.unsupported('intersection [&]');
    return e;
  }

  private concat(): string {
    let e = this.repeat();
    while (this.more() && !this.peek(')|') && !(this.on(REGEXP_FLAGS.INTERSECTION) && this.peek('&'))) e += this.repeat();
    return e;
  }

  private repeat(): string {
    let e = this.complement();
    for (;;) {
      if (this.match('?') || this.match('*') || this.match('+')) {
        e = `(?:${e})${this.chars[this.pos - 1]}`;
      } else if (this.match('{')) {
        const n = this.integer();
        let q = `{${n}`;
        if (this.match(',')) q += this.peek('0123456789') ? `,${this.integer()}` : ',';
        if (!this.match('}')) throw new IllegalArgumentError(`expected '}' at position ${this.pos}`);
        e = `(?:${e})${q}}`;
      } else {
        return e;
      }
    }
  }

  private integer(): number {
    const start = this.pos;
    while (this.peek('0123456789')) this.pos++;
    if (start === this.pos) throw new IllegalArgumentError(`integer expected at position ${this.pos}`);
    return Number(this.chars.slice(start, this.pos).join(''));
  }

  private complement(): string {
    if (this.on(REGEXP_FLAGS.COMPLEMENT) && this.peek('~')) this.unsupported('complement [~]');
    return this.charClassExp();
  }

  private charClassExp(): string {
    if (!this.match('[')) return this.simple();
    const negate = this.match('^');
    let body = '';
    do {
      const from = this.classChar();
      if (this.match('-')) {
        const to = this.classChar();
        if (from.codePointAt(0)! > to.codePointAt(0)!) throw new IllegalArgumentError(`invalid range: from (${from.codePointAt(0)}) cannot be > to (${to.codePointAt(0)})`);
        body += `${classLiteral(from)}-${classLiteral(to)}`;
      } else {
        body += classLiteral(from);
      }
    } while (this.more() && !this.peek(']'));
    if (!this.match(']')) throw new IllegalArgumentError(`expected ']' at position ${this.pos}`);
    return `[${negate ? '^' : ''}${body}]`;
  }

  /** A class member: a character, escaped or not (`\\]` is a literal `]`). */
  private classChar(): string {
    this.match('\\');
    return this.next();
  }

  private simple(): string {
    // Lucene's `.` is any character; JS's excludes line terminators.
    if (this.match('.')) return '[^]';
    if (this.on(REGEXP_FLAGS.EMPTY) && this.match('#')) return '(?!)';
    if (this.on(REGEXP_FLAGS.ANYSTRING) && this.match('@')) return '[^]*';
    if (this.match('"')) {
      let s = '';
      while (this.more() && !this.peek('"')) s += literal(this.next());
      if (!this.match('"')) throw new IllegalArgumentError(`expected '"' at position ${this.pos}`);
      return `(?:${s})`;
    }
    if (this.match('(')) {
      if (this.match(')')) return '(?:)';
      const e = this.union();
      if (!this.match(')')) throw new IllegalArgumentError(`expected ')' at position ${this.pos}`);
      return `(?:${e})`;
    }
    if ((this.on(REGEXP_FLAGS.INTERVAL) || this.on(AUTOMATON)) && this.peek('<')) this.unsupported('interval or automaton [<…>]');
    if (this.match('\\')) {
      const c = this.next();
      return SHORTHAND[c] ?? literal(c);
    }
    return literal(this.next());
  }
}

/** The JS source of a Lucene regexp (use with the `u` flag). */
export function luceneRegexpToJs(regexp: string, flags: number): string {
  return new Parser(regexp, flags).parse();
}

/**
 * What every string the regexp matches starts with: its leading plain characters when it has no
 * alternation (a conservative answer: '' whenever unsure).
 */
export function literalPrefix(regexp: string, flags: number): string {
  if (regexp.includes('|')) return '';
  const chars = [...regexp];
  const special = new Set([...'.?+*{}[]()"\\|']);
  if ((flags & REGEXP_FLAGS.EMPTY) !== 0) special.add('#');
  if ((flags & REGEXP_FLAGS.ANYSTRING) !== 0) special.add('@');
  if ((flags & REGEXP_FLAGS.INTERSECTION) !== 0) special.add('&');
  if ((flags & REGEXP_FLAGS.COMPLEMENT) !== 0) special.add('~');
  if ((flags & (REGEXP_FLAGS.INTERVAL | AUTOMATON)) !== 0) special.add('<');
  let prefix = '';
  for (let i = 0; i < chars.length && !special.has(chars[i]); i++) {
    // A repeat applies to the last character only: it is not part of every match.
    if (i + 1 < chars.length && '?*{'.includes(chars[i + 1])) break;
    prefix += chars[i];
  }
  return prefix;
}
