/**
 * ES `asciifolding` (Lucene ASCIIFoldingFilter): letters, digits and symbols outside Basic Latin
 * become their ASCII equivalents when one exists (é → e, ß → ss, ﬁ → fi, ① → 1); others stay.
 *
 * Lucene's table is a hand-written switch over ~1,300 code points. Here the bulk of it — a letter
 * with diacritics — comes from Unicode canonical and compatibility decomposition (NFKD) keeping
 * the ASCII base, and the letters that do not decompose (ø, đ, ł, æ, œ, þ, ß, ı …) from the table
 * below, which follows Lucene's mappings for them.
 */
import type { TokenFilter } from './token-stream.js';
import { liftTermFilter, type StreamFilter, type Token } from './token-graph.js';

const SPECIAL: Readonly<Record<string, string>> = {
  'Æ': 'AE', 'æ': 'ae', 'Ð': 'D', 'ð': 'd', 'Ø': 'O', 'ø': 'o', 'Þ': 'TH', 'þ': 'th', 'ß': 'ss', 'Đ': 'D', 'đ': 'd',
  'Ħ': 'H', 'ħ': 'h', 'ı': 'i', 'Ĳ': 'IJ', 'ĳ': 'ij', 'ĸ': 'q', 'Ŀ': 'L', 'ŀ': 'l', 'Ł': 'L', 'ł': 'l', 'ŉ': "'n",
  'Ŋ': 'N', 'ŋ': 'n', 'Œ': 'OE', 'œ': 'oe', 'Ŧ': 'T', 'ŧ': 't', 'ſ': 's', 'ƀ': 'b', 'Ɓ': 'B', 'Ƃ': 'B', 'ƃ': 'b',
  'Ƈ': 'C', 'ƈ': 'c', 'Ɖ': 'D', 'Ɗ': 'D', 'Ƌ': 'D', 'ƌ': 'd', 'Ǝ': 'E', 'Ɛ': 'E', 'Ƒ': 'F', 'ƒ': 'f', 'Ɠ': 'G',
  'ƕ': 'hv', 'Ɩ': 'I', 'Ɨ': 'I', 'Ƙ': 'K', 'ƙ': 'k', 'ƚ': 'l', 'Ɯ': 'M', 'Ɲ': 'N', 'ƞ': 'n', 'Ɵ': 'O', 'Ƣ': 'OI',
  'ƣ': 'oi', 'Ƥ': 'P', 'ƥ': 'p', 'ƫ': 't', 'Ƭ': 'T', 'ƭ': 't', 'Ʈ': 'T', 'Ʋ': 'V', 'Ƴ': 'Y', 'ƴ': 'y', 'Ƶ': 'Z',
  'ƶ': 'z', 'Ǥ': 'G', 'ǥ': 'g', 'ȡ': 'd', 'Ȥ': 'Z', 'ȥ': 'z', 'ȴ': 'l', 'ȵ': 'n', 'ȶ': 't', 'ȷ': 'j', 'ȸ': 'db',
  'ȹ': 'qp', 'Ⱥ': 'A', 'Ȼ': 'C', 'ȼ': 'c', 'Ƚ': 'L', 'Ⱦ': 'T', 'ȿ': 's', 'ɀ': 'z', 'Ƀ': 'B', 'Ʉ': 'U', 'Ɇ': 'E',
  'ɇ': 'e', 'Ɉ': 'J', 'ɉ': 'j', 'Ɍ': 'R', 'ɍ': 'r', 'Ɏ': 'Y', 'ɏ': 'y', 'ɓ': 'b', 'ɕ': 'c', 'ɖ': 'd', 'ɗ': 'd',
  'ɛ': 'e', 'ɟ': 'j', 'ɠ': 'g', 'ɡ': 'g', 'ɢ': 'G', 'ɦ': 'h', 'ɧ': 'h', 'ɨ': 'i', 'ɪ': 'I', 'ɫ': 'l', 'ɬ': 'l',
  'ɭ': 'l', 'ɱ': 'm', 'ɲ': 'n', 'ɳ': 'n', 'ɴ': 'N', 'ɶ': 'OE', 'ɼ': 'r', 'ɽ': 'r', 'ɾ': 'r', 'ʀ': 'R', 'ʂ': 's',
  'ʈ': 't', 'ʉ': 'u', 'ʋ': 'v', 'ʏ': 'Y', 'ʐ': 'z', 'ʑ': 'z', 'ʙ': 'B', 'ʛ': 'G', 'ʜ': 'H', 'ʝ': 'j', 'ʟ': 'L',
  'ʠ': 'q', 'ʣ': 'dz', 'ʥ': 'dz', 'ʦ': 'ts', 'ʪ': 'ls', 'ʫ': 'lz', 'ᴀ': 'A', 'ᴁ': 'AE', 'ᴃ': 'B', 'ᴄ': 'C',
  'ᴅ': 'D', 'ᴆ': 'D', 'ᴇ': 'E', 'ᴊ': 'J', 'ᴋ': 'K', 'ᴌ': 'L', 'ᴍ': 'M', 'ᴏ': 'O', 'ᴘ': 'P', 'ᴛ': 'T', 'ᴜ': 'U',
  'ᴠ': 'V', 'ᴡ': 'W', 'ᴢ': 'Z', 'ẜ': 's', 'ẝ': 's', 'ẞ': 'SS', 'ẟ': 'd', 'Ỻ': 'LL', 'ỻ': 'll', 'Ỽ': 'V', 'ỽ': 'v',
  'Ỿ': 'Y', 'ỿ': 'y', 'ⱡ': 'l', 'Ɫ': 'L', 'Ᵽ': 'P', 'Ɽ': 'R', 'ⱥ': 'a', 'ⱦ': 't', 'Ⱨ': 'H', 'ⱨ': 'h', 'Ⱪ': 'K',
  'ⱪ': 'k', 'Ⱬ': 'Z', 'ⱬ': 'z', 'Ɱ': 'M', 'ⱱ': 'v', 'Ⱳ': 'W', 'ⱳ': 'w', 'ⱴ': 'v', 'ⱸ': 'e', 'ⱺ': 'o', 'ⱻ': 'E',
  'ⱼ': 'j', 'Ꝺ': 'D', 'ꝺ': 'd', 'Ꝼ': 'F', 'ꝼ': 'f', 'Ᵹ': 'G', 'Ꞃ': 'R', 'ꞃ': 'r', 'Ꞅ': 'S', 'ꞅ': 's', 'Ꞇ': 'T',
  'ꞇ': 't', 'Ꜳ': 'AA', 'ꜳ': 'aa', 'Ꜵ': 'AO', 'ꜵ': 'ao', 'Ꜷ': 'AU', 'ꜷ': 'au', 'Ꜹ': 'AV', 'ꜹ': 'av', 'Ꜽ': 'AY',
  'ꜽ': 'ay', 'Ꝏ': 'OO', 'ꝏ': 'oo', 'Ꝡ': 'VY', 'ꝡ': 'vy', 'ꜰ': 'F', 'ꜱ': 'S',
  // Punctuation and symbols Lucene folds
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'", '\u2035': "'", '\u2039': "'", '\u203a': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u2036': '"', '\u00ab': '"', '\u00bb': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u207b': '-', '\u208b': '-',
  '\u2044': '/', '\u2215': '/', '\u00d7': '*', '\u2212': '-',
};

const RE_COMBINING = /\p{M}/u;

function foldChar(ch: string): string {
  const special = SPECIAL[ch];
  if (special !== undefined) return special;
  const decomposed = ch.normalize('NFKD');
  let out = '';
  for (const part of decomposed) {
    if (part.charCodeAt(0) < 0x80) out += part;
    else if (RE_COMBINING.test(part)) continue;
    else {
      const s = SPECIAL[part];
      if (s === undefined) return ch; // no ASCII equivalent: Lucene keeps the character
      out += s;
    }
  }
  return out === '' ? ch : out;
}

const cache = new Map<string, string>();

/** Folds one term; ASCII-only terms are returned as they are. */
export const asciiFold: TokenFilter = (term) => {
  let i = 0;
  while (i < term.length && term.charCodeAt(i) < 0x80) i++;
  if (i === term.length) return term;
  let out = term.slice(0, i);
  for (const ch of term.slice(i)) {
    if (ch.charCodeAt(0) < 0x80) {
      out += ch;
      continue;
    }
    let folded = cache.get(ch);
    if (folded === undefined) {
      folded = foldChar(ch);
      if (cache.size < 65536) cache.set(ch, folded);
    }
    out += folded;
  }
  return out;
};

/** `preserve_original`: the folded term, then the original stacked on it when they differ. */
export function asciiFoldingFilter(preserveOriginal: boolean): StreamFilter {
  if (!preserveOriginal) return liftTermFilter(asciiFold);
  return (stream) => {
    const out: Token[] = [];
    for (const t of stream.tokens) {
      const folded = asciiFold(t.term)!;
      out.push({ ...t, term: folded });
      if (folded !== t.term) out.push({ ...t, posInc: 0 });
    }
    return { tokens: out, finalIncrement: stream.finalIncrement };
  };
}
