/**
 * Running a DFA (automaton.ts) over strings: one table read per code point, so time is linear in
 * the input whatever the pattern (Lucene's CharacterRunAutomaton).
 */
import { ACCEPTS_ALL, classOf, type Dfa } from './automaton.js';

/** The code point ending just before UTF-16 index `i` (> 0): a surrogate pair read whole. */
export function codePointBefore(s: string, i: number): number {
  const lo = s.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo < 0xe000 && i >= 2) {
    const hi = s.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi < 0xdc00) return ((hi - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
  }
  return lo;
}

/** The state after reading code point `cp` in `state`, or -1 when no match is possible any more. */
export function step(dfa: Dfa, state: number, cp: number): number {
  return dfa.trans[state * dfa.classCount + classOf(dfa, cp)];
}

/** The state after reading `s` from the start state, or -1 (dead). */
export function runFrom(dfa: Dfa, state: number, s: string): number {
  const { trans, classCount, asciiClass } = dfa;
  for (let i = 0; i < s.length && state >= 0; i++) {
    let cp = s.charCodeAt(i);
    if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < s.length) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo < 0xe000) {
        cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    state = trans[state * classCount + (cp < 128 ? asciiClass[cp] : classOf(dfa, cp))];
    if (state >= 0 && dfa.accept[state] === ACCEPTS_ALL) return state;
  }
  return state;
}

/** Whether the whole of `s` matches. */
export function matches(dfa: Dfa, s: string): boolean {
  const state = runFrom(dfa, 0, s);
  return state >= 0 && dfa.accept[state] !== 0;
}

/** Whether some prefix of `s` matches (the completion suggester's regex is a prefix). */
export function matchesPrefix(dfa: Dfa, s: string): boolean {
  let state = 0;
  if (dfa.accept[0] !== 0) return true;
  for (const ch of s) {
    state = step(dfa, state, ch.codePointAt(0)!);
    if (state < 0) return false;
    if (dfa.accept[state] !== 0) return true;
  }
  return false;
}

/**
 * What every accepted string starts with: the code points read from the start along states that
 * are not accepting and have one single-code-point way out. Term dictionaries seek to it first.
 */
export function commonPrefix(dfa: Dfa): string {
  let prefix = '';
  let state = 0;
  while (dfa.accept[state] === 0 && prefix.length < 1000) {
    let only = -1;
    const row = state * dfa.classCount;
    for (let c = 0; c < dfa.classCount; c++) {
      if (dfa.trans[row + c] < 0) continue;
      if (only !== -1) return prefix;
      only = c;
    }
    if (only === -1) return prefix;
    const from = dfa.points[only];
    if (only + 1 >= dfa.classCount || dfa.points[only + 1] !== from + 1) return prefix;
    prefix += String.fromCodePoint(from);
    state = dfa.trans[row + only];
  }
  return prefix;
}

/** Whether the DFA accepts nothing at all. */
export function isEmptyLanguage(dfa: Dfa): boolean {
  if (dfa.accept[0] !== 0) return false;
  for (let c = 0; c < dfa.classCount; c++) if (dfa.trans[c] >= 0) return false;
  return true;
}
