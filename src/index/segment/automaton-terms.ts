/**
 * The terms of a field's dictionary an automaton accepts (Lucene's Terms.intersect with a
 * CompiledAutomaton): what regexp, wildcard and case-insensitive term queries and the completion
 * suggester's regex expand to.
 *
 * The DFA runs over each term's UTF-8 bytes in place (no string per term), and the sorted
 * dictionary is used three ways: the walk starts at the pattern's common literal prefix; a term
 * resumes from the DFA state where it stops sharing bytes with the previous term; and when the DFA
 * dies (or reaches a match-all state) after some prefix, every following term with that prefix is
 * skipped (or taken) as one run found by galloping search. Each term byte is read at most once, so
 * the cost is linear in the dictionary whatever the pattern; `shouldStop` (the search deadline) is
 * polled per term.
 */
import { ACCEPTS_ALL, classOf, commonPrefix, type Dfa } from '../../common/pattern/index.js';
import { prefixRange, type SegmentField } from './segment-reader.js';

/** Calls `visit(from, to)` for runs of term ordinals the DFA accepts, in order. */
export function forEachAcceptedTerm(field: SegmentField, dfa: Dfa, shouldStop: () => boolean, visit: (from: number, to: number) => void): void {
  const bytes = field.termBytes;
  const offsets = field.termOffsets;
  if (!bytes || !offsets) return;
  const prefix = commonPrefix(dfa);
  let [ord, end] = prefix.length > 0 ? prefixRange(field, prefix) : [0, field.info.termCount];
  if (dfa.accept[0] === ACCEPTS_ALL) {
    if (ord < end) visit(ord, end);
    return;
  }
  const { trans, classCount, asciiClass, accept } = dfa;
  // states[i]: the DFA state after the previous term's first i bytes (at code point boundaries).
  let states = new Int32Array(64);
  let prevStart = 0;
  let known = 0; // bytes of the previous term with a state in `states`
  while (ord < end) {
    if (shouldStop()) return;
    const start = offsets[ord];
    const len = offsets[ord + 1] - start;
    if (len + 1 > states.length) {
      const grown = new Int32Array(Math.max(len + 1, states.length * 2));
      grown.set(states);
      states = grown;
    }
    // Resume after the bytes shared with the previous term, at a code point boundary.
    let i = 0;
    const shared = Math.min(len, known);
    while (i < shared && bytes[start + i] === bytes[prevStart + i]) i++;
    while (i > 0 && i < len && (bytes[start + i] & 0xc0) === 0x80) i--;
    let state = states[i];
    let stop = 0; // 0: ran to the end; 1: dead after i bytes; 2: match-all after i bytes
    while (i < len) {
      const b = bytes[start + i];
      let cp: number;
      let n: number;
      if (b < 0x80) {
        cp = b;
        n = 1;
      } else if (b < 0xe0) {
        cp = ((b & 0x1f) << 6) | (bytes[start + i + 1] & 0x3f);
        n = 2;
      } else if (b < 0xf0) {
        cp = ((b & 0x0f) << 12) | ((bytes[start + i + 1] & 0x3f) << 6) | (bytes[start + i + 2] & 0x3f);
        n = 3;
      } else {
        cp = ((b & 0x07) << 18) | ((bytes[start + i + 1] & 0x3f) << 12) | ((bytes[start + i + 2] & 0x3f) << 6) | (bytes[start + i + 3] & 0x3f);
        n = 4;
      }
      state = trans[state * classCount + (cp < 128 ? asciiClass[cp] : classOf(dfa, cp))];
      for (let k = 1; k < n; k++) states[i + k] = states[i];
      i += n;
      states[i] = state;
      if (state < 0) {
        stop = 1;
        break;
      }
      if (accept[state] === ACCEPTS_ALL) {
        stop = 2;
        break;
      }
    }
    prevStart = start;
    known = state < 0 ? i - 1 : i;
    if (stop === 0) {
      if (accept[state] !== 0) visit(ord, ord + 1);
      ord++;
      continue;
    }
    // Every following term that starts with these i bytes ends the same way.
    const next = endOfRun(bytes, offsets, ord, end, start, i);
    if (stop === 2) visit(ord, next);
    ord = next;
  }
}

/** Whether term `ord` starts with bytes[start, start + n). */
function hasPrefix(bytes: Uint8Array, offsets: Uint32Array, ord: number, start: number, n: number): boolean {
  const s = offsets[ord];
  if (offsets[ord + 1] - s < n) return false;
  for (let k = 0; k < n; k++) if (bytes[s + k] !== bytes[start + k]) return false;
  return true;
}

/** The first ordinal after `ord` (< end) whose term does not start with bytes[start, start + n). */
function endOfRun(bytes: Uint8Array, offsets: Uint32Array, ord: number, end: number, start: number, n: number): number {
  // Gallop: most runs are one term long.
  let lo = ord + 1;
  let step = 1;
  while (lo < end && hasPrefix(bytes, offsets, lo, start, n)) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(lo, end);
  lo = Math.max(ord + 1, lo - (step >> 1));
  // Binary search in [lo, hi): terms with the prefix come first.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hasPrefix(bytes, offsets, mid, start, n)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
