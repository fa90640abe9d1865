/**
 * Lucene's StandardTokenizer: the word-break rules of Unicode UAX#29, as written in Lucene 9's
 * `StandardTokenizerImpl.jflex` (Unicode 12.1 grammar), with its token types.
 *
 * The grammar below is that file's rules, transcribed one to one (same macro names), in the same
 * order; like JFlex, the scanner takes the longest match of any rule at the current position and
 * breaks ties by rule order. Characters no rule matches (spaces, punctuation, symbols, lone marks)
 * are skipped, as the grammar's final `[^]` rule does.
 *
 * Maximum token length: Lucene runs the scanner with a 255-char buffer that may not grow, so a
 * lexeme can never extend more than 255 UTF-16 units from its start: a longer run is cut at the last
 * point within those 255 units where a rule matched, and scanning resumes there
 * (`StandardAnalyzer.DEFAULT_MAX_TOKEN_LENGTH`, `StandardTokenizer.setMaxTokenLength`).
 *
 * Offsets are UTF-16 code-unit offsets (Java char offsets), end exclusive.
 *
 * Speed: code points are classified once (cached per code point) and the DFA is built lazily, so
 * scanning is a table walk. A run of ASCII letters and digits followed by a space or plain
 * punctuation — nearly every token of English text — skips even that (the ASCII fast path below).
 * Scanning is linear in the text whatever its shape: the fast path reads no further than one token
 * can reach, and a ScanMemo keeps walks that fail to match (a megabyte of `_`) from re-reading
 * what the previous walk read.
 */
import {
  DEAD_STATE,
  START_STATE,
  addClass,
  alt,
  compileLazyDfa,
  dfaStep,
  opt,
  plus,
  seq,
  set,
  star,
  times,
  type ClassPredicate,
  type Pattern,
} from './lazy-dfa.js';
import {
  F_COMPLEX_CONTEXT,
  F_EMOJI_CHAR,
  F_EMOJI_MODIFIER,
  F_EMOJI_MODIFIER_BASE,
  F_EMOJI_PRESENTATION,
  F_HAN,
  F_HANGUL,
  F_HIRAGANA,
  F_KEYCAP,
  F_KEYCAP_BASE,
  F_TAG_SPEC,
  F_TAG_TERM,
  F_TEXT_PRESENTATION,
  WB_ALETTER,
  WB_DOUBLE_QUOTE,
  WB_EXTEND,
  WB_EXTEND_NUM_LET,
  WB_FORMAT,
  WB_HEBREW_LETTER,
  WB_KATAKANA,
  WB_MASK,
  WB_MID_LETTER,
  WB_MID_NUM,
  WB_MID_NUM_LET,
  WB_NUMERIC,
  WB_REGIONAL_INDICATOR,
  WB_SINGLE_QUOTE,
  WB_ZWJ,
  computeFeatures,
} from './word-break-property.js';
import { STOP_DEAD, STOP_END, STOP_LIMIT, ScanMemo, type WalkOutcome } from './scan-memo.js';
import type { Tokenizer } from './token-stream.js';

/** Lucene `StandardAnalyzer.DEFAULT_MAX_TOKEN_LENGTH`. */
export const DEFAULT_MAX_TOKEN_LENGTH = 255;
/** Lucene `StandardTokenizer.MAX_TOKEN_LENGTH_LIMIT`. */
export const MAX_TOKEN_LENGTH_LIMIT = 1024 * 1024;

// Token types, Lucene `StandardTokenizer.ALPHANUM` … `EMOJI`, indexes into TOKEN_TYPES.
export const ALPHANUM = 0;
export const NUM = 1;
export const SOUTHEAST_ASIAN = 2;
export const IDEOGRAPHIC = 3;
export const HIRAGANA = 4;
export const KATAKANA = 5;
export const HANGUL = 6;
export const EMOJI = 7;
/** Lucene `StandardTokenizer.TOKEN_TYPES`, the `type` reported by `_analyze`. */
export const TOKEN_TYPES: readonly string[] = [
  '<ALPHANUM>', '<NUM>', '<SOUTHEAST_ASIAN>', '<IDEOGRAPHIC>', '<HIRAGANA>', '<KATAKANA>', '<HANGUL>', '<EMOJI>',
];

// ---------------------------------------------------------------------------------------------
// The grammar (StandardTokenizerImpl.jflex). Predicates test the property bits of one code point.

const wb = (...values: number[]): ClassPredicate => {
  let mask = 0;
  for (const v of values) mask |= 1 << v;
  return (f) => ((mask >>> (f & WB_MASK)) & 1) === 1;
};
const flag = (bit: number): ClassPredicate => (f) => (f & bit) !== 0;

const isExtFmtZwj = wb(WB_FORMAT, WB_EXTEND, WB_ZWJ);
const isZwj = wb(WB_ZWJ);
const isAHLetter = wb(WB_ALETTER, WB_HEBREW_LETTER);

// UAX#29 WB4: X (Extend | Format | ZWJ)* --> X
const ExtFmtZwj = star(set(isExtFmtZwj));
// ... minus U+FE0E/U+FE0F (included in WB:Extend), so that emoji sequences can be recognised.
const ExtFmtZwjSansPresSel = star(
  set((f) => isExtFmtZwj(f) && (f & (F_TEXT_PRESENTATION | F_EMOJI_PRESENTATION)) === 0),
);
const ex = (pred: ClassPredicate): Pattern => seq(set(pred), ExtFmtZwj);

// Emoji macros
const KeyCapBaseCharEx = seq(set(flag(F_KEYCAP_BASE)), ExtFmtZwjSansPresSel);
const KeyCapEx = seq(set(flag(F_KEYCAP)), ExtFmtZwjSansPresSel);
const EmojiCharEx = seq(set(flag(F_EMOJI_CHAR)), ExtFmtZwjSansPresSel);
const EmojiModifierBaseEx = seq(set(flag(F_EMOJI_MODIFIER_BASE)), ExtFmtZwjSansPresSel);
const EmojiModifierEx = seq(set(flag(F_EMOJI_MODIFIER)), ExtFmtZwjSansPresSel);
const EmojiPresentationSelector = set(flag(F_EMOJI_PRESENTATION));
const ZWJ = set(isZwj);
const EmojiCharOrPresSeqOrModSeq = alt(
  seq(star(ZWJ), EmojiCharEx, opt(EmojiPresentationSelector)),
  seq(opt(seq(star(ZWJ), EmojiModifierBaseEx)), EmojiModifierEx),
);
const TagSpec = set(flag(F_TAG_SPEC));
const TagTerm = set(flag(F_TAG_TERM));

// Word macros
const HangulEx = ex((f) => (f & F_HANGUL) !== 0 && isAHLetter(f));
const AHLetterEx = ex(isAHLetter);
const NumericEx = ex(wb(WB_NUMERIC));
const KatakanaEx = ex(wb(WB_KATAKANA));
const MidLetterEx = ex(wb(WB_MID_LETTER, WB_MID_NUM_LET, WB_SINGLE_QUOTE));
const MidNumericEx = ex(wb(WB_MID_NUM, WB_MID_NUM_LET, WB_SINGLE_QUOTE));
const ExtendNumLetEx = ex(wb(WB_EXTEND_NUM_LET));
const HanEx = ex(flag(F_HAN));
const HiraganaEx = ex(flag(F_HIRAGANA));
const SingleQuoteEx = ex(wb(WB_SINGLE_QUOTE));
const DoubleQuoteEx = ex(wb(WB_DOUBLE_QUOTE));
const HebrewLetterEx = ex(wb(WB_HEBREW_LETTER));
const RegionalIndicatorEx = ex(wb(WB_REGIONAL_INDICATOR));
const ComplexContextEx = ex(flag(F_COMPLEX_CONTEXT));

// The body of the word rule, between ExtendNumLet runs.
const WordUnit = alt(
  seq(KatakanaEx, star(seq(star(ExtendNumLetEx), KatakanaEx))),
  plus(
    alt(
      seq(HebrewLetterEx, alt(SingleQuoteEx, seq(DoubleQuoteEx, HebrewLetterEx))),
      seq(NumericEx, star(seq(alt(star(ExtendNumLetEx), MidNumericEx), NumericEx))),
      seq(AHLetterEx, star(seq(alt(star(ExtendNumLetEx), MidLetterEx), AHLetterEx))),
    ),
  ),
);

/** The rules, indexed by token type (UAX29URLEmailTokenizer reuses them). */
export const RULES: Pattern[] = [];
// EMOJI — emoji_sequence of UTS#51 instead of UAX#29 WB3c, WB15, WB16.
RULES[EMOJI] = alt(
  seq(EmojiCharOrPresSeqOrModSeq, alt(star(seq(ZWJ, EmojiCharOrPresSeqOrModSeq)), seq(plus(TagSpec), TagTerm))),
  seq(KeyCapBaseCharEx, opt(EmojiPresentationSelector), KeyCapEx),
  times(RegionalIndicatorEx, 2),
);
// NUM — WB8, WB11, WB12, WB13a, WB13b
RULES[NUM] = seq(
  star(ExtendNumLetEx),
  NumericEx,
  star(seq(alt(star(ExtendNumLetEx), MidNumericEx), NumericEx)),
  star(ExtendNumLetEx),
);
// HANGUL and KATAKANA — subsets of the word rule, listed first for typing purposes only.
RULES[HANGUL] = plus(HangulEx);
RULES[KATAKANA] = plus(KatakanaEx);
// ALPHANUM — WB5–WB7c, WB9, WB10, WB13, WB13a, WB13b
RULES[ALPHANUM] = seq(
  star(ExtendNumLetEx),
  WordUnit,
  star(seq(plus(ExtendNumLetEx), WordUnit)),
  star(ExtendNumLetEx),
);
// SOUTHEAST_ASIAN — Line_Break=Complex_Context runs are kept whole, as ICU does.
RULES[SOUTHEAST_ASIAN] = plus(ComplexContextEx);
// IDEOGRAPHIC, HIRAGANA — WB999: one character (plus its extenders) per token.
RULES[IDEOGRAPHIC] = HanEx;
RULES[HIRAGANA] = HiraganaEx;

// JFlex's rule order is EMOJI, NUM, HANGUL, KATAKANA, ALPHANUM, SOUTHEAST_ASIAN, IDEOGRAPHIC,
// HIRAGANA; priority in the DFA is the array index, so reorder to grammar order and map back.
export const GRAMMAR_ORDER = [EMOJI, NUM, HANGUL, KATAKANA, ALPHANUM, SOUTHEAST_ASIAN, IDEOGRAPHIC, HIRAGANA];
const TYPE_OF_RULE = Int8Array.from(GRAMMAR_ORDER);

/**
 * Upper bound on distinct property-bit sets. All of Unicode 15 yields 35; the bound only sizes
 * the transition table's rows.
 */
const MAX_CLASSES = 64;
const dfa = compileLazyDfa(GRAMMAR_ORDER.map((type) => RULES[type]), MAX_CLASSES);

// ---------------------------------------------------------------------------------------------
// Code point → character class, cached.

const classOfFeatures = new Map<number, number>();
/** BMP cache: class id + 1, or 0 when not computed yet. */
const bmpClass = new Uint8Array(0x10000);
const astralClass = new Map<number, number>();

function classOf(cp: number): number {
  const features = computeFeatures(cp);
  let cls = classOfFeatures.get(features);
  if (cls === undefined) {
    cls = addClass(dfa, features);
    classOfFeatures.set(features, cls);
  }
  return cls;
}

function bmpClassSlow(c: number): number {
  const cls = classOf(c);
  bmpClass[c] = cls + 1;
  return cls;
}

function astralClassOf(cp: number): number {
  let cls = astralClass.get(cp);
  if (cls === undefined) {
    cls = classOf(cp);
    astralClass.set(cp, cls);
  }
  return cls;
}

// ASCII is classified at load, so the common case never takes the slow path.
for (let c = 0; c < 0x80; c++) bmpClassSlow(c);

// ---------------------------------------------------------------------------------------------
// ASCII fast path. Most tokens of English text are a run of ASCII letters and digits ended by a
// space or plain punctuation; for those the grammar's answer is known without running the DFA:
// the whole run, <NUM> if it is all digits (NUM wins its tie with ALPHANUM), else <ALPHANUM>.

const A_LETTER = 1;
const A_DIGIT = 2;
/** Ends a letter/digit run under every rule: the ASCII characters whose Word_Break is Other. */
const A_HARD_BREAK = 4;
/** Can begin a lexeme of some rule (letters, digits, `_`, and the keycap bases `#` `*`). */
const A_MAY_START = 8;
/** `.` `,` `'` `:` `;`: may join two letters or two digits (MidLetter, MidNum, MidNumLet). */
const A_MID = 16;
const ASCII_FLAGS = new Uint8Array(0x80);
for (let c = 0; c < 0x80; c++) {
  const isLetter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const isDigit = c >= 0x30 && c <= 0x39;
  let flags = (isLetter ? A_LETTER : 0) | (isDigit ? A_DIGIT : 0);
  if (isLetter || isDigit || c === 0x5f || c === 0x23 || c === 0x2a) flags |= A_MAY_START;
  if ('.,\':;'.includes(String.fromCharCode(c))) flags |= A_MID;
  // `_` (ExtendNumLet) extends a token on its own; the A_MID characters may join two runs.
  if (!isLetter && !isDigit && c !== 0x5f && (flags & A_MID) === 0) flags |= A_HARD_BREAK;
  ASCII_FLAGS[c] = flags;
}

// ---------------------------------------------------------------------------------------------
// Scanner

const memo = new ScanMemo();
/** Steps past the last accepting point after which a walk consults and feeds the memo. */
const MEMO_AFTER = 8;
const earlier: WalkOutcome = { stop: 0, state: 0, reason: 0 };

/**
 * Finds the next token starting at or after `from`. On success writes `[start, end, type]` to `out`
 * and returns true; returns false when no token is left. `maxTokenLength` as in Lucene.
 */
export function nextStandardToken(
  text: string,
  from: number,
  out: Int32Array,
  maxTokenLength: number = DEFAULT_MAX_TOKEN_LENGTH,
): boolean {
  const length = text.length;
  const maxClasses = MAX_CLASSES;
  let p = from;
  while (p < length) {
    const first = text.charCodeAt(p);
    if (first < 0x80) {
      const flags = ASCII_FLAGS[first];
      if ((flags & A_MAY_START) === 0) {
        p++; // space or punctuation: only the `[^]` rule matches it
        continue;
      }
      if ((flags & (A_LETTER | A_DIGIT)) !== 0) {
        let seen = flags;
        let i = p + 1;
        let c = 0;
        // Read no further than a token can reach: past that the grammar cuts the run anyway, and
        // reading the whole run for each 255-unit piece of it made one long word quadratic.
        const runLimit = Math.min(length, p + maxTokenLength + 1);
        while (i < runLimit && (c = text.charCodeAt(i)) < 0x80 && (ASCII_FLAGS[c] & (A_LETTER | A_DIGIT)) !== 0) {
          seen |= ASCII_FLAGS[c];
          i++;
        }
        // The run is the token if a hard break follows, or a Mid character followed by a hard
        // break ("cells, and", "end. Next"): a Mid character only joins when a letter or digit follows.
        let ends = i === length;
        if (!ends && i < runLimit && c < 0x80) {
          const after = ASCII_FLAGS[c];
          if ((after & A_HARD_BREAK) !== 0) {
            ends = true;
          } else if ((after & A_MID) !== 0) {
            const d = i + 1 < length ? text.charCodeAt(i + 1) : 0x20;
            ends = d < 0x80 && (ASCII_FLAGS[d] & A_HARD_BREAK) !== 0;
          }
        }
        if (ends && i - p <= maxTokenLength) {
          out[0] = p;
          out[1] = i;
          out[2] = (seen & A_LETTER) !== 0 ? ALPHANUM : NUM;
          return true;
        }
        // Otherwise the run may continue (`e.g`, `3.14`, a combining mark, …): run the grammar.
      }
    }
    // Longest match from p, as JFlex does; the lexeme may not extend past p + maxTokenLength.
    const limit = Math.min(length, p + maxTokenLength);
    // Local copies of the tables; refreshed whenever a new DFA state may have grown them.
    let trans = dfa.trans;
    let accept = dfa.accept;
    let state = START_STATE;
    let i = p;
    let lastEnd = -1;
    let lastRule = -1;
    let reason = limit === length ? STOP_END : STOP_LIMIT;
    let memoFrom = p + MEMO_AFTER;
    memo.begin(text, p, maxTokenLength);
    while (i < limit) {
      const c = text.charCodeAt(i);
      let cls: number;
      let width = 1;
      if (c < 0xd800 || c > 0xdfff) {
        cls = bmpClass[c] - 1;
        if (cls < 0) cls = bmpClassSlow(c);
      } else if (c <= 0xdbff && i + 1 < length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          // A pair that would straddle the limit is left for the next token, as Lucene's scanner
          // does with a high surrogate at the end of its buffer.
          if (i + 2 > limit) {
            reason = STOP_LIMIT;
            break;
          }
          width = 2;
          cls = astralClassOf(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        } else {
          cls = bmpClass[c] - 1;
          if (cls < 0) cls = bmpClassSlow(c);
        }
      } else {
        cls = bmpClass[c] - 1; // unpaired surrogate: a code point of its own, matched by no rule
        if (cls < 0) cls = bmpClassSlow(c);
      }
      let next = trans[state * maxClasses + cls];
      if (next < 0) {
        next = dfaStep(dfa, state, cls);
        trans = dfa.trans;
        accept = dfa.accept;
      }
      if (next === DEAD_STATE) {
        reason = STOP_DEAD;
        break;
      }
      state = next;
      i += width;
      const rule = accept[state];
      if (rule >= 0) {
        lastEnd = i;
        lastRule = rule;
        memoFrom = i + MEMO_AFTER;
      }
      // Only the stretch well past the last accept can be read again by the next walk (which starts
      // at that accept, or one character on if none); nearer positions are not worth recording.
      if (i > memoFrom && memo.visit(p, i, state, earlier)) {
        // An earlier walk was here in this state: it went on to `earlier.stop` accepting nothing.
        i = earlier.stop;
        state = earlier.state;
        if (earlier.reason !== STOP_LIMIT) {
          reason = earlier.reason;
          break;
        }
        // It stopped at its own, nearer limit: step on from there.
        reason = limit === length ? STOP_END : STOP_LIMIT;
      }
    }
    memo.end(p, i, state, reason, lastEnd);
    if (lastEnd > p) {
      out[0] = p;
      out[1] = lastEnd;
      out[2] = TYPE_OF_RULE[lastRule];
      return true;
    }
    // No rule matched: the `[^]` rule consumes one code point and emits nothing.
    const c = text.charCodeAt(p);
    p += c >= 0xd800 && c <= 0xdbff && p + 1 < length && (text.charCodeAt(p + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return false;
}

/**
 * Lucene `StandardTokenizer` after `setMaxTokenLength(maxTokenLength)` (Elasticsearch's
 * `max_token_length`). Throws a RangeError outside Lucene's bounds, 1 to 1024 * 1024.
 */
export function standardTokenizerWithMaxLength(maxTokenLength: number): Tokenizer {
  if (!Number.isInteger(maxTokenLength) || maxTokenLength < 1 || maxTokenLength > MAX_TOKEN_LENGTH_LIMIT) {
    throw new RangeError(`maxTokenLength must be between 1 and ${MAX_TOKEN_LENGTH_LIMIT}, got ${maxTokenLength}`);
  }
  return {
    name: 'standard',
    next(text, previousEnd, out) {
      return nextStandardToken(text, previousEnd < 0 ? 0 : previousEnd, out, maxTokenLength);
    },
  };
}

/** Lucene `StandardTokenizer` with the default maximum token length of 255. */
export const standardTokenizer: Tokenizer = standardTokenizerWithMaxLength(DEFAULT_MAX_TOKEN_LENGTH);

/** Tokens of `text` with their Lucene types; for tests and `_analyze`. */
export function standardTokens(
  text: string,
  maxTokenLength: number = DEFAULT_MAX_TOKEN_LENGTH,
): Array<{ term: string; startOffset: number; endOffset: number; type: string }> {
  const out = new Int32Array(3);
  const tokens: Array<{ term: string; startOffset: number; endOffset: number; type: string }> = [];
  let from = 0;
  while (nextStandardToken(text, from, out, maxTokenLength)) {
    tokens.push({ term: text.slice(out[0], out[1]), startOffset: out[0], endOffset: out[1], type: TOKEN_TYPES[out[2]] });
    from = out[1];
  }
  return tokens;
}
