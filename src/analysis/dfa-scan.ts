/**
 * Longest-match walks over a lazy DFA (lazy-dfa.ts) for the JFlex-grammar tokenizers built on it
 * after the standard tokenizer (which keeps its own, specialised loop): uax_url_email and classic.
 *
 * A walk reads code points from a start position, one table step each, and remembers the last
 * accepting point and its rule (JFlex's longest match; the DFA already resolved ties by rule
 * order). A ScanMemo per DFA keeps walks that fail far from re-reading text (linear time).
 */
import { DEAD_STATE, START_STATE, addClass, dfaStep, type LazyDfa } from './lazy-dfa.js';
import { STOP_DEAD, STOP_END, STOP_LIMIT, ScanMemo, type WalkOutcome } from './scan-memo.js';

/** Code point → class id, shared by DFAs that use the same classes; cached per code point. */
export class CharClasses {
  private readonly ids = new Map<number, number>();
  private readonly bmp = new Uint16Array(0x10000); // class id + 1, 0 = not computed
  private readonly astral = new Map<number, number>();

  /** `key` maps a code point to the property bits the DFAs' predicates test. */
  constructor(private readonly key: (cp: number) => number, private readonly dfas: readonly LazyDfa[]) {
    for (let c = 0; c < 0x80; c++) this.slow(c);
  }

  of(cp: number): number {
    if (cp < 0x10000) {
      const id = this.bmp[cp];
      return id !== 0 ? id - 1 : this.slow(cp);
    }
    return this.astral.get(cp) ?? this.slow(cp);
  }

  private slow(cp: number): number {
    const key = this.key(cp);
    let cls = this.ids.get(key);
    if (cls === undefined) {
      for (const dfa of this.dfas) cls = addClass(dfa, key);
      this.ids.set(key, cls!);
    }
    if (cp < 0x10000) this.bmp[cp] = cls! + 1;
    else this.astral.set(cp, cls!);
    return cls!;
  }
}

/** The outcome of a walk: end and rule of the longest match (-1 if none), width of its last code point. */
export interface LongestMatch {
  end: number;
  rule: number;
  lastWidth: number;
}

/** Steps past the last accepting point after which a walk consults and feeds the memo. */
const MEMO_AFTER = 8;
const earlier: WalkOutcome = { stop: 0, state: 0, reason: 0 };

/**
 * Longest match of `dfa`'s rules from `p`, reading no further than `limit` (a surrogate pair that
 * would straddle it is not read). `maxTokenLength` identifies the scan to the memo.
 */
export function walkLongest(
  dfa: LazyDfa, classes: CharClasses, memo: ScanMemo, text: string, p: number, limit: number, maxTokenLength: number, out: LongestMatch,
): void {
  const length = text.length;
  let state = START_STATE;
  let i = p;
  let lastEnd = -1;
  let lastRule = -1;
  let lastWidth = 0;
  let reason = limit === length ? STOP_END : STOP_LIMIT;
  let memoFrom = p + MEMO_AFTER;
  memo.begin(text, p, maxTokenLength);
  while (i < limit) {
    const c = text.charCodeAt(i);
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (i + 2 > limit) {
          reason = STOP_LIMIT;
          break;
        }
        cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const cls = classes.of(cp);
    let next = dfa.trans[state * dfa.maxClasses + cls];
    if (next < 0) next = dfaStep(dfa, state, cls);
    if (next === DEAD_STATE) {
      reason = STOP_DEAD;
      break;
    }
    state = next;
    i += width;
    const rule = dfa.accept[state];
    if (rule >= 0) {
      lastEnd = i;
      lastRule = rule;
      lastWidth = width;
      memoFrom = i + MEMO_AFTER;
    }
    // As in the standard tokenizer: an earlier walk was here in this state and went on to
    // `earlier.stop` accepting nothing.
    if (i > memoFrom && memo.visit(p, i, state, earlier)) {
      i = earlier.stop;
      state = earlier.state;
      if (earlier.reason !== STOP_LIMIT) {
        reason = earlier.reason;
        break;
      }
      reason = limit === length ? STOP_END : STOP_LIMIT;
    }
  }
  memo.end(p, i, state, reason, lastEnd);
  out.end = lastEnd;
  out.rule = lastRule;
  out.lastWidth = lastWidth;
}

/** Width in UTF-16 units of the code point at `p`. */
export function codePointWidth(text: string, p: number): number {
  const c = text.charCodeAt(p);
  return c >= 0xd800 && c <= 0xdbff && p + 1 < text.length && (text.charCodeAt(p + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}
