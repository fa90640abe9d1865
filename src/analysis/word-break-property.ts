/**
 * The Unicode properties Lucene's StandardTokenizerImpl.jflex is written in, derived per code point.
 *
 * JavaScript regexes expose General_Category, Script and binary properties (Alphabetic, Emoji, …)
 * but not Word_Break (UAX#29) nor Line_Break, so Word_Break is derived here from the definitions in
 * UAX#29 Table 3 ("Word_Break Property Values"), and Line_Break=Complex_Context (SA) from the scripts
 * that LineBreak.txt assigns SA. The result is a bit set per code point ("features"): the
 * Word_Break value in the low bits plus flags for the script and emoji properties the grammar uses.
 *
 * Cost: a handful of precompiled property regexes are run once per *distinct* code point and the
 * result cached (a Uint8Array over the BMP, a Map above it), so scanning never runs a regex per
 * character after warm-up. ASCII is classified eagerly at module load.
 *
 * Unicode version: the properties are those of the running engine (Node 20 builds: Unicode 15 to 17), whereas
 * Lucene 9's JFlex tables are Unicode 12.1; characters assigned after 12.1 may differ.
 */

// Word_Break values (UAX#29). CR, LF, Newline and WSegSpace behave as Other in Lucene's grammar
// (no rule mentions them), so they are folded into WB_OTHER.
export const WB_OTHER = 0;
export const WB_ALETTER = 1;
export const WB_HEBREW_LETTER = 2;
export const WB_NUMERIC = 3;
export const WB_KATAKANA = 4;
export const WB_EXTEND_NUM_LET = 5;
export const WB_MID_LETTER = 6;
export const WB_MID_NUM = 7;
export const WB_MID_NUM_LET = 8;
export const WB_SINGLE_QUOTE = 9;
export const WB_DOUBLE_QUOTE = 10;
export const WB_EXTEND = 11;
export const WB_FORMAT = 12;
export const WB_ZWJ = 13;
export const WB_REGIONAL_INDICATOR = 14;
/** Mask of the Word_Break value inside a feature set. */
export const WB_MASK = 0xf;

// Flags beside the Word_Break value.
/** \p{Script=Han} */
export const F_HAN = 1 << 4;
/** \p{Script=Hiragana} */
export const F_HIRAGANA = 1 << 5;
/** \p{Script=Hangul} */
export const F_HANGUL = 1 << 6;
/** \p{Line_Break=Complex_Context} (Thai, Lao, Myanmar, Khmer, …) */
export const F_COMPLEX_CONTEXT = 1 << 7;
/** The grammar's EmojiChar: \p{Extended_Pictographic} | (\p{Emoji} -- EmojiRKAM) */
export const F_EMOJI_CHAR = 1 << 8;
/** \p{Emoji_Modifier_Base} */
export const F_EMOJI_MODIFIER_BASE = 1 << 9;
/** \p{Emoji_Modifier} (the skin tones) */
export const F_EMOJI_MODIFIER = 1 << 10;
/** [0-9#*], the bases of keycap sequences */
export const F_KEYCAP_BASE = 1 << 11;
/** U+20E3 COMBINING ENCLOSING KEYCAP */
export const F_KEYCAP = 1 << 12;
/** U+FE0F emoji presentation selector */
export const F_EMOJI_PRESENTATION = 1 << 13;
/** U+FE0E text presentation selector */
export const F_TEXT_PRESENTATION = 1 << 14;
/** U+E0020..U+E007E, tag characters of emoji tag sequences */
export const F_TAG_SPEC = 1 << 15;
/** U+E007F CANCEL TAG */
export const F_TAG_TERM = 1 << 16;

const RE_GRAPHEME_EXTEND = /\p{Grapheme_Extend}/u;
const RE_SPACING_MARK = /\p{Mc}/u;
const RE_FORMAT = /\p{Cf}/u;
const RE_REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;
const RE_KATAKANA = /\p{Script=Katakana}/u;
const RE_HEBREW = /\p{Script=Hebrew}/u;
const RE_OTHER_LETTER = /\p{Lo}/u;
const RE_ALPHABETIC = /\p{Alphabetic}/u;
const RE_IDEOGRAPHIC = /\p{Ideographic}/u;
const RE_DECIMAL_NUMBER = /\p{Nd}/u;
const RE_CONNECTOR_PUNCTUATION = /\p{Pc}/u;
const RE_HAN = /\p{Script=Han}/u;
const RE_HIRAGANA = /\p{Script=Hiragana}/u;
const RE_HANGUL = /\p{Script=Hangul}/u;
const RE_EMOJI = /\p{Emoji}/u;
const RE_EXTENDED_PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const RE_EMOJI_MODIFIER = /\p{Emoji_Modifier}/u;
const RE_EMOJI_MODIFIER_BASE = /\p{Emoji_Modifier_Base}/u;
// Scripts whose letters and marks LineBreak.txt assigns Line_Break=SA (Complex_Context).
const RE_COMPLEX_CONTEXT_SCRIPT =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=Ahom}]/u;
const RE_LETTER_OR_MARK = /[\p{L}\p{M}]/u;

/** Code points UAX#29 adds to ALetter although they are not Alphabetic (modifier letters etc.). */
const ALETTER_EXTRAS: readonly (readonly [number, number])[] = [
  [0x02c2, 0x02c5], [0x02d2, 0x02d7], [0x02de, 0x02df], [0x02e5, 0x02eb], [0x02ed, 0x02ed],
  [0x02ef, 0x02ff], [0x055a, 0x055c], [0x055e, 0x055e], [0x058a, 0x058a], [0x05f3, 0x05f3],
  [0xa708, 0xa716], [0xa720, 0xa721], [0xa789, 0xa78a], [0xab5b, 0xab5b],
];
/** Common-script code points UAX#29 assigns Word_Break=Katakana. */
const KATAKANA_EXTRAS = new Set([0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x309b, 0x309c, 0x30a0, 0x30fc, 0xff70]);
const MID_NUM_LET = new Set([0x002e, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);
const MID_LETTER = new Set([0x003a, 0x00b7, 0x0387, 0x055f, 0x05f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MID_NUM = new Set([
  0x002c, 0x003b, 0x037e, 0x0589, 0x060c, 0x060d, 0x066c, 0x07f8, 0x2044, 0xfe10, 0xfe14, 0xfe50,
  0xfe54, 0xff0c, 0xff1b,
]);
/** Line_Break=SA code points that are not letters or marks (punctuation and symbols). */
const COMPLEX_CONTEXT_EXTRAS: readonly (readonly [number, number])[] = [
  [0x109e, 0x109f], [0x19da, 0x19da], [0x19de, 0x19df], [0x1aa0, 0x1aad], [0xaa77, 0xaa79],
  [0xaade, 0xaadf], [0x1173a, 0x1173b], [0x1173f, 0x1173f],
];
/** Digits Line_Break assigns NU without them being Nd. */
const ARABIC_DECIMAL_SEPARATOR = 0x066b;

function inRanges(cp: number, ranges: readonly (readonly [number, number])[]): boolean {
  for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true;
  return false;
}

function isComplexContext(cp: number, s: string): boolean {
  if (inRanges(cp, COMPLEX_CONTEXT_EXTRAS)) return true;
  // Digits of these scripts are Line_Break=NU, not SA.
  return RE_COMPLEX_CONTEXT_SCRIPT.test(s) && RE_LETTER_OR_MARK.test(s);
}

/** Word_Break property of `cp` (UAX#29 Table 3; the order of the tests is the order of precedence). */
function wordBreakOf(cp: number, s: string, complexContext: boolean): number {
  switch (cp) {
    case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x85: case 0x2028: case 0x2029:
      return WB_OTHER; // LF, Newline, CR: they only ever break
    case 0x200d:
      return WB_ZWJ;
    case 0x27:
      return WB_SINGLE_QUOTE;
    case 0x22:
      return WB_DOUBLE_QUOTE;
    case 0x202f:
      return WB_EXTEND_NUM_LET; // NARROW NO-BREAK SPACE, joins Mongolian suffixes
  }
  if (RE_GRAPHEME_EXTEND.test(s) || RE_SPACING_MARK.test(s) || RE_EMOJI_MODIFIER.test(s)) return WB_EXTEND;
  if (RE_REGIONAL_INDICATOR.test(s)) return WB_REGIONAL_INDICATOR;
  if (RE_FORMAT.test(s) && cp !== 0x200b && cp !== 0x200c) return WB_FORMAT;
  if (KATAKANA_EXTRAS.has(cp) || RE_KATAKANA.test(s)) return WB_KATAKANA;
  if (RE_HEBREW.test(s) && RE_OTHER_LETTER.test(s)) return WB_HEBREW_LETTER;
  if (
    (RE_ALPHABETIC.test(s) || inRanges(cp, ALETTER_EXTRAS)) &&
    !RE_IDEOGRAPHIC.test(s) &&
    !complexContext &&
    !RE_HIRAGANA.test(s)
  ) {
    return WB_ALETTER;
  }
  if (MID_NUM_LET.has(cp)) return WB_MID_NUM_LET;
  if (MID_LETTER.has(cp)) return WB_MID_LETTER;
  if (MID_NUM.has(cp)) return WB_MID_NUM;
  if (RE_DECIMAL_NUMBER.test(s) || cp === ARABIC_DECIMAL_SEPARATOR) return WB_NUMERIC;
  if (RE_CONNECTOR_PUNCTUATION.test(s)) return WB_EXTEND_NUM_LET;
  return WB_OTHER;
}

/** The grammar's EmojiRKAM: code points that are \p{Emoji} but only emoji inside sequences. */
function isEmojiRkam(cp: number, s: string): boolean {
  return (
    (cp >= 0x30 && cp <= 0x39) || cp === 0x23 || cp === 0x2a || // KeyCapBaseChar
    cp === 0xa9 || cp === 0xae || cp === 0x2122 || cp === 0x3030 || cp === 0x303d || // AccidentalEmoji
    RE_REGIONAL_INDICATOR.test(s) ||
    RE_EMOJI_MODIFIER.test(s)
  );
}

/** All property bits of one code point. Slow (regexes): callers cache the result. */
export function computeFeatures(cp: number): number {
  const s = String.fromCodePoint(cp);
  const complexContext = isComplexContext(cp, s);
  let f = wordBreakOf(cp, s, complexContext);
  if (complexContext) f |= F_COMPLEX_CONTEXT;
  if (RE_HAN.test(s)) f |= F_HAN;
  if (RE_HIRAGANA.test(s)) f |= F_HIRAGANA;
  if (RE_HANGUL.test(s)) f |= F_HANGUL;
  if (RE_EXTENDED_PICTOGRAPHIC.test(s) || (RE_EMOJI.test(s) && !isEmojiRkam(cp, s))) f |= F_EMOJI_CHAR;
  if (RE_EMOJI_MODIFIER_BASE.test(s)) f |= F_EMOJI_MODIFIER_BASE;
  if (RE_EMOJI_MODIFIER.test(s)) f |= F_EMOJI_MODIFIER;
  if ((cp >= 0x30 && cp <= 0x39) || cp === 0x23 || cp === 0x2a) f |= F_KEYCAP_BASE;
  if (cp === 0x20e3) f |= F_KEYCAP;
  if (cp === 0xfe0f) f |= F_EMOJI_PRESENTATION;
  if (cp === 0xfe0e) f |= F_TEXT_PRESENTATION;
  if (cp >= 0xe0020 && cp <= 0xe007e) f |= F_TAG_SPEC;
  if (cp === 0xe007f) f |= F_TAG_TERM;
  return f;
}
