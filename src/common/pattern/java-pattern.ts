/**
 * java.util.regex.Pattern and Matcher as ES's analysis components use them (the `pattern`
 * tokenizer and analyzer, `pattern_replace`): ES's `flags` strings, Matcher.find's loop, group
 * offsets and appendReplacement's `$n` / `${name}` replacement syntax — run on the matcher VM
 * (matcher-vm.ts), never on a backtracking engine.
 *
 * Work is bounded per text: a search may read at most MAX_STEPS_PER_CHAR positions per character of
 * the text in total (a pattern like `a.*b|a` rereads the rest of the text for every `a`); past it,
 * the text is refused with a clear error rather than analysed in quadratic time.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { JAVA_REGEX_FLAGS, parseJavaRegexFull } from './java-regex-syntax.js';
import { MatcherVm, type VmMatch } from './matcher-vm.js';

const MAX_STEPS_PER_CHAR = 64;
const CACHE_SIZE = 256;

/**
 * ES Regex.flagsFromString: `|`-separated Pattern flag names (CASE_INSENSITIVE, MULTILINE, DOTALL,
 * UNICODE_CASE, CANON_EQ, UNIX_LINES, LITERAL, COMMENTS, UNICODE_CHARACTER_CLASS).
 */
export function javaRegexFlags(flags: string | null): number {
  if (flags === null) return 0;
  let bits = 0;
  for (const raw of flags.split('|')) {
    const name = raw.trim().toUpperCase();
    if (name === '') continue;
    const bit = name === 'UNICODE_CHAR_CLASS' ? JAVA_REGEX_FLAGS.UNICODE_CHARACTER_CLASS : (JAVA_REGEX_FLAGS as Record<string, number>)[name];
    if (bit === undefined) throw new IllegalArgumentError(`Unknown regex flag [${raw.slice(0, 50)}]`);
    bits |= bit;
  }
  return bits;
}

/** A parsed `appendReplacement` string: literal text and group references, in order. */
export type Replacement = ReadonlyArray<string | number>;

/** A pattern ready to match; compile with `JavaPattern.compile` (cached). */
export class JavaPattern {
  private readonly vm: MatcherVm;
  readonly groupCount: number;
  readonly groupNames: ReadonlyMap<string, number>;

  private constructor(readonly source: string, flags: number) {
    const parsed = parseJavaRegexFull(source, { matcher: true, flags, usedAs: 'a pattern' });
    this.groupCount = parsed.groupCount;
    this.groupNames = parsed.groupNames;
    this.vm = new MatcherVm(parsed.node, parsed.groupCount, (flags & JAVA_REGEX_FLAGS.UNIX_LINES) !== 0);
  }

  private static readonly cache = new Map<string, JavaPattern | Error>();

  /** Throws IllegalArgumentError for a syntax error or a refused feature (cached either way). */
  static compile(regex: string, flags = 0): JavaPattern {
    const key = `${flags}|${regex}`;
    let entry = JavaPattern.cache.get(key);
    if (entry === undefined) {
      try {
        entry = new JavaPattern(regex, flags);
      } catch (e) {
        if (!(e instanceof Error)) throw e;
        entry = e;
      }
      if (JavaPattern.cache.size >= CACHE_SIZE) JavaPattern.cache.delete(JavaPattern.cache.keys().next().value as string);
      JavaPattern.cache.set(key, entry);
    }
    if (entry instanceof Error) throw entry;
    return entry;
  }

  /** The start of group `g` in `m` (0 = the whole match), -1 when it took no part. */
  static groupStart(m: VmMatch, g: number): number {
    return g === 0 ? m.start : m.groups[2 * (g - 1)];
  }

  static groupEnd(m: VmMatch, g: number): number {
    return g === 0 ? m.end : m.groups[2 * (g - 1) + 1];
  }

  /**
   * Java's `while (matcher.find())` over `text`: `each` sees every match and returns false to stop.
   * After an empty match the next search starts one character on, as Matcher.find does.
   */
  forEachMatch(text: string, each: (m: VmMatch) => boolean | void): void {
    const steps = { left: MAX_STEPS_PER_CHAR * (text.length + 1) + 1024 };
    let from = 0;
    while (from <= text.length) {
      const m = this.vm.find(text, from, steps);
      if (m === undefined) {
        throw new IllegalArgumentError(`the pattern [${this.source.slice(0, 100)}] is too costly to match over a text of length [${text.length}]`);
      }
      if (m === null || each(m) === false) return;
      from = m.end > m.start ? m.end : m.end + ((text.charCodeAt(m.end) & 0xfc00) === 0xd800 ? 2 : 1);
    }
  }

  /** Parses `replacement` as Matcher.appendReplacement does, with its errors. */
  replacement(replacement: string): Replacement {
    const parts: Array<string | number> = [];
    let literal = '';
    let i = 0;
    while (i < replacement.length) {
      const c = replacement[i];
      if (c === '\\') {
        i++;
        if (i === replacement.length) throw new IllegalArgumentError('character to be escaped is missing');
        literal += replacement[i++];
      } else if (c === '$') {
        i++;
        if (i === replacement.length) throw new IllegalArgumentError('Illegal group reference: group index is missing');
        let ref: number;
        if (replacement[i] === '{') {
          const m = /^\{([a-zA-Z0-9]*)/.exec(replacement.slice(i, i + 64))!;
          const name = m[1];
          if (name === '') throw new IllegalArgumentError('named capturing group has 0 length name');
          if (replacement[i + m[0].length] !== '}') throw new IllegalArgumentError("named capturing group is missing trailing '}'");
          if (/^\d/.test(name)) throw new IllegalArgumentError(`capturing group name {${name}} starts with digit character`);
          const g = this.groupNames.get(name);
          if (g === undefined) throw new IllegalArgumentError(`No group with name {${name}}`);
          ref = g;
          i += m[0].length + 1;
        } else {
          ref = replacement.charCodeAt(i) - 0x30;
          if (ref < 0 || ref > 9) throw new IllegalArgumentError('Illegal group reference');
          i++;
          // Further digits belong to the number while it stays a group of the pattern.
          while (i < replacement.length) {
            const d = replacement.charCodeAt(i) - 0x30;
            if (d < 0 || d > 9 || ref * 10 + d > this.groupCount) break;
            ref = ref * 10 + d;
            i++;
          }
          if (ref > this.groupCount) throw new IllegalArgumentError(`No group ${ref}`);
        }
        if (literal !== '') parts.push(literal);
        literal = '';
        parts.push(ref);
      } else {
        literal += c;
        i++;
      }
    }
    if (literal !== '') parts.push(literal);
    return parts;
  }

  /** The replacement text for one match. */
  expand(text: string, m: VmMatch, replacement: Replacement): string {
    let out = '';
    for (const part of replacement) {
      if (typeof part === 'string') out += part;
      else {
        const s = JavaPattern.groupStart(m, part);
        if (s >= 0) out += text.slice(s, JavaPattern.groupEnd(m, part));
      }
    }
    return out;
  }

  /** Matcher.replaceAll / replaceFirst. */
  replace(text: string, replacement: Replacement, all: boolean): string {
    let out = '';
    let last = 0;
    this.forEachMatch(text, (m) => {
      out += text.slice(last, m.start) + this.expand(text, m, replacement);
      last = m.end;
      return all;
    });
    return out + text.slice(last);
  }
}
