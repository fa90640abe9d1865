/**
 * Splitting text on a separator pattern without backtracking (ES's ingest `split`, Java's
 * String.split with limit 0), in two automaton passes:
 *
 * 1. a backward scan with the DFA of `.* reverse(P)` marks every position where some match of P
 *    starts (one step per character);
 * 2. from the leftmost marked position, the DFA of P runs forward to the longest match, and the
 *    search goes on after it, following Java's Matcher.find / String.split loop (a zero-length
 *    match at the very start adds no empty leading piece; after a zero-length match the search
 *    moves one character on).
 *
 * Matches are leftmost-longest (POSIX) rather than Java's leftmost-first: they differ only for
 * alternatives where one is a prefix of another (`a|ab`), which separators rarely are. The forward
 * runs are bounded in total (MAX_STEPS_PER_CHAR per character of the text), so even a separator
 * whose matches keep the DFA alive far past their end costs linear time or fails clearly.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { ACCEPTS_ALL, DEFAULT_MAX_DETERMINIZED_STATES, classOf, toDfa, type Dfa } from './automaton.js';
import { parseJavaRegex, reversePattern } from './java-regex-syntax.js';
import { codePointBefore } from './run-automaton.js';

const MAX_STEPS_PER_CHAR = 64;

export class Splitter {
  private readonly forward: Dfa;
  private readonly backward: Dfa;

  /** `separator`: a java.util.regex pattern of a regular language (java-regex-syntax.ts). */
  constructor(separator: string) {
    const node = parseJavaRegex(separator);
    this.forward = toDfa(node, DEFAULT_MAX_DETERMINIZED_STATES);
    this.backward = toDfa({ kind: 'concat', parts: [{ kind: 'any_string' }, reversePattern(node)] }, DEFAULT_MAX_DETERMINIZED_STATES);
  }

  split(text: string): string[] {
    const n = text.length;
    const starts = this.matchStarts(text);
    const parts: string[] = [];
    let budget = MAX_STEPS_PER_CHAR * n + 1024;
    let index = 0;
    let from = 0;
    for (;;) {
      let start = from;
      while (start <= n && starts[start] === 0) start++;
      if (start > n) break;
      const { end, steps } = this.longestMatch(text, start);
      budget -= steps;
      if (budget < 0) throw new IllegalArgumentError(`the separator is too costly to match over a value of length [${n}]`);
      if (!(index === 0 && start === 0 && end === 0)) {
        parts.push(text.slice(index, start));
        index = end;
      }
      from = end === start ? start + 1 : end;
    }
    if (index === 0) return [text];
    parts.push(text.slice(index));
    return parts;
  }

  /** starts[i] = 1 when a match of the separator starts at UTF-16 index i. */
  private matchStarts(text: string): Uint8Array {
    const dfa = this.backward;
    const starts = new Uint8Array(text.length + 1);
    let state = 0;
    if (dfa.accept[0] !== 0) starts[text.length] = 1;
    for (let i = text.length; i > 0; ) {
      const cp = codePointBefore(text, i);
      i -= cp > 0xffff ? 2 : 1;
      state = dfa.trans[state * dfa.classCount + classOf(dfa, cp)];
      if (state < 0) break; // cannot happen with the leading `.*`, kept for safety
      if (dfa.accept[state] !== 0) starts[i] = 1;
    }
    return starts;
  }

  /** The end of the longest match starting at `start` (one is known to exist). */
  private longestMatch(text: string, start: number): { end: number; steps: number } {
    const dfa = this.forward;
    let state = 0;
    let end = dfa.accept[0] !== 0 ? start : -1;
    let i = start;
    let steps = 0;
    while (i < text.length) {
      const cp = text.codePointAt(i)!;
      state = dfa.trans[state * dfa.classCount + classOf(dfa, cp)];
      steps++;
      if (state < 0) break;
      i += cp > 0xffff ? 2 : 1;
      if (dfa.accept[state] === ACCEPTS_ALL) return { end: text.length, steps };
      if (dfa.accept[state] !== 0) end = i;
    }
    return { end: Math.max(end, start), steps };
  }
}
