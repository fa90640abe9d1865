/**
 * The parsed form of a user pattern (a Lucene regexp or wildcard), before it becomes an automaton.
 * Characters are Unicode code points; a character class is a sorted list of disjoint, non-adjacent
 * inclusive ranges `[from0, to0, from1, to1, …]`.
 */

export const MAX_CODE_POINT = 0x10ffff;

export type PatternNode =
  /** The language {""}. */
  | { readonly kind: 'empty_string' }
  /** The empty language (Lucene's `#`). */
  | { readonly kind: 'empty' }
  /** Every string (Lucene's `@`, a wildcard's `*`). */
  | { readonly kind: 'any_string' }
  /** One code point within the ranges. */
  | { readonly kind: 'chars'; readonly ranges: readonly number[] }
  | { readonly kind: 'concat'; readonly parts: readonly PatternNode[] }
  | { readonly kind: 'union'; readonly parts: readonly PatternNode[] }
  /** `inner` repeated min..max times; max -1 = unbounded. `lazy` (Java's `*?`) only changes which
   *  match the matcher VM prefers; the language, and so the DFA, is the same. */
  | { readonly kind: 'repeat'; readonly inner: PatternNode; readonly min: number; readonly max: number; readonly lazy?: boolean }
  /** A capturing group (java.util.regex `(…)`, numbered from 1); the same language as `inner`. */
  | { readonly kind: 'group'; readonly index: number; readonly inner: PatternNode }
  /** A zero-width assertion: needs context, so only the matcher VM (matcher-vm.ts) runs it, never a DFA. */
  | { readonly kind: 'assert'; readonly what: AssertKind }
  /** Lookahead `(?=…)` `(?!…)` or lookbehind `(?<=…)` `(?<!…)` of a regular pattern: matcher VM only (it runs `inner` as a DFA). */
  | { readonly kind: 'look'; readonly behind: boolean; readonly negate: boolean; readonly inner: PatternNode }
  | { readonly kind: 'complement'; readonly inner: PatternNode }
  | { readonly kind: 'intersection'; readonly left: PatternNode; readonly right: PatternNode };

/**
 * java.util.regex's zero-width assertions: `^`/`$` (input bounds, or line bounds in MULTILINE),
 * `\A`, `\z`, `\Z` and the word boundaries `\b`/`\B`.
 */
export type AssertKind = 'input_start' | 'input_end' | 'input_end_before_terminator' | 'line_start' | 'line_end' | 'word_boundary' | 'not_word_boundary';

export const EMPTY_STRING: PatternNode = { kind: 'empty_string' };
export const ANY_CHAR: PatternNode = { kind: 'chars', ranges: [0, MAX_CODE_POINT] };

/** Sorts and merges ranges (pairs) into disjoint, non-adjacent ones. */
export function normalizeRanges(pairs: readonly number[]): number[] {
  const items: Array<[number, number]> = [];
  for (let i = 0; i < pairs.length; i += 2) items.push([pairs[i], pairs[i + 1]]);
  items.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [from, to] of items) {
    const n = out.length;
    if (n > 0 && from <= out[n - 1] + 1) out[n - 1] = Math.max(out[n - 1], to);
    else out.push(from, to);
  }
  return out;
}

/** The code points not in `ranges` (normalized). */
export function negateRanges(ranges: readonly number[]): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i] > next) out.push(next, ranges[i] - 1);
    next = ranges[i + 1] + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

/**
 * The code point and its simple case variants, for case-insensitive matching (ES's
 * `case_insensitive`, Lucene's RegExp.CASE_INSENSITIVE): Character.toLowerCase/toUpperCase of one
 * code point, where the mapping is one code point too.
 */
export function caseVariants(cp: number): number[] {
  const s = String.fromCodePoint(cp);
  const out = [cp];
  for (const v of [s.toLowerCase(), s.toUpperCase()]) {
    const c = v.codePointAt(0)!;
    if (String.fromCodePoint(c) === v && !out.includes(c)) out.push(c);
  }
  return out;
}

/** The ranges one literal code point matches. */
export function charRanges(cp: number, caseInsensitive: boolean): readonly number[] {
  return caseInsensitive ? normalizeRanges(caseVariants(cp).flatMap((c) => [c, c])) : [cp, cp];
}

export function literalNode(s: string, caseInsensitive: boolean): PatternNode {
  const parts: PatternNode[] = [];
  for (const ch of s) parts.push({ kind: 'chars', ranges: charRanges(ch.codePointAt(0)!, caseInsensitive) });
  return parts.length === 0 ? EMPTY_STRING : parts.length === 1 ? parts[0] : { kind: 'concat', parts };
}
