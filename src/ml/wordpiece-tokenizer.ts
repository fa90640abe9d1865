/**
 * BERT's uncased tokenizer, id-for-id with Hugging Face `BertTokenizer` (sparse-encoder.md §4), so
 * the built-in model and user models over the same vocabulary see the same tokens:
 *
 * - BasicTokenizer: drop U+0000, U+FFFD and every control/format/unassigned character (Unicode
 *   category C*, except tab, CR and LF, which are whitespace); whitespace is space, tab, CR, LF and
 *   category Zs; CJK ideographs and punctuation (ASCII symbols and category P*) become words of their
 *   own; each word is lowercased, NFD-normalised and stripped of combining marks (Mn).
 * - WordPiece: greedy longest match from the start of each word, later pieces looked up as `##x`;
 *   a word with no full match, or longer than 100 code points, becomes `[UNK]`.
 *
 * The sequence is `[CLS] … [SEP]` cut to 512 positions, so at most 510 content pieces count.
 */
import type { Vocabulary } from './vocabulary.js';

/** Positions of a sequence, `[CLS]` and `[SEP]` included (ELSER: "the first 512 tokens"). */
export const MAX_SEQUENCE_LENGTH = 512;
export const MAX_CONTENT_PIECES = MAX_SEQUENCE_LENGTH - 2;
const MAX_INPUT_CHARS_PER_WORD = 100;

/** A word of the basic tokenizer and its wordpiece ids (`[UNK]` alone when it has no full match). */
export interface TokenizedWord {
  readonly word: string;
  readonly pieces: readonly number[];
}

export interface TokenizedText {
  /** Words whose pieces fit in the first 510 content positions (the last one possibly cut). */
  readonly words: readonly TokenizedWord[];
  /** Content pieces counted (≤ 510). */
  readonly pieceCount: number;
  /** The text had more pieces than fit. */
  readonly truncated: boolean;
}

const CONTROL = /\p{C}/u;
const SPACE_SEPARATOR = /\p{Zs}/u;
const PUNCTUATION = /\p{P}/u;
const COMBINING_MARK = /\p{Mn}/gu;
/** Fast path: a run of plain lowercase ASCII letters and digits needs none of the Unicode work. */
const PLAIN_WORD = /^[a-z0-9]+$/;

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || SPACE_SEPARATOR.test(ch);
}

function isControl(ch: string): boolean {
  return ch !== '\t' && ch !== '\n' && ch !== '\r' && CONTROL.test(ch);
}

function isPunctuation(cp: number, ch: string): boolean {
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126) || PUNCTUATION.test(ch);
}

function isCjk(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x20000 && cp <= 0x2a6df)
    || (cp >= 0x2a700 && cp <= 0x2b73f) || (cp >= 0x2b740 && cp <= 0x2b81f) || (cp >= 0x2b820 && cp <= 0x2ceaf)
    || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x2f800 && cp <= 0x2fa1f);
}

/** Lowercase and strip accents, then split punctuation off into words of their own. */
function pushNormalized(token: string, out: string[]): void {
  let text = token.toLowerCase();
  if (!PLAIN_WORD.test(text)) text = text.normalize('NFD').replace(COMBINING_MARK, '');
  let current = '';
  for (const ch of text) {
    if (isPunctuation(ch.codePointAt(0)!, ch)) {
      if (current !== '') out.push(current);
      out.push(ch);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current !== '') out.push(current);
}

/** Anything but printable ASCII, tab, LF and CR sends a text down the general (Unicode) path. */
const NOT_PLAIN_ASCII = /[^\t\n\r\x20-\x7e]/;
const WORD = 0;
const SPACE = 1;
const PUNCT = 2;
/** Class of each printable ASCII code (and tab, LF, CR): what BERT's rules make of it. */
const ASCII_CLASS = new Uint8Array(128).map((_, cp) => {
  if (cp === 0x20 || cp === 0x09 || cp === 0x0a || cp === 0x0d) return SPACE;
  return isPunctuation(cp, String.fromCharCode(cp)) ? PUNCT : WORD;
});

/**
 * The same rules for printable-ASCII text (most English), without per-character regular
 * expressions or string building: words are slices of the lowercased text.
 */
function basicTokenizeAscii(text: string, out: string[]): string[] {
  const lower = text.toLowerCase();
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const cls = ASCII_CLASS[lower.charCodeAt(i)];
    if (cls === WORD) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) out.push(lower.slice(start, i));
    start = -1;
    if (cls === PUNCT) out.push(lower[i]);
  }
  if (start >= 0) out.push(lower.slice(start));
  return out;
}

/** BERT's BasicTokenizer (do_lower_case, tokenize_chinese_chars, strip_accents as lowercase). */
export function basicTokenize(text: string): string[] {
  const out: string[] = [];
  if (!NOT_PLAIN_ASCII.test(text)) return basicTokenizeAscii(text, out);
  let current = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0 || cp === 0xfffd || isControl(ch)) continue;
    if (isWhitespace(ch)) {
      if (current !== '') pushNormalized(current, out);
      current = '';
    } else if (isCjk(cp)) {
      if (current !== '') pushNormalized(current, out);
      current = '';
      out.push(ch);
    } else {
      current += ch;
    }
  }
  if (current !== '') pushNormalized(current, out);
  return out;
}

const SURROGATE = /[\ud800-\udfff]/;

/** Greedy longest-match-first WordPiece of one basic-tokenizer word. */
export function wordpiece(vocab: Vocabulary, word: string): number[] {
  const whole = vocab.ids.get(word);
  if (whole !== undefined) return [whole];
  // Code points, so a character outside the BMP is one character as in Python; a word without
  // surrogates is its own code-point array and is sliced directly.
  const chars: string | string[] = SURROGATE.test(word) ? Array.from(word) : word;
  if (chars.length > MAX_INPUT_CHARS_PER_WORD) return [vocab.unkId];
  const slice = (from: number, to: number): string => (typeof chars === 'string' ? chars.slice(from, to) : chars.slice(from, to).join(''));
  const pieces: number[] = [];
  let start = 0;
  while (start < chars.length) {
    let end = chars.length;
    let found = -1;
    while (start < end) {
      const id = (start > 0 ? vocab.continuationIds : vocab.ids).get(slice(start, end));
      if (id !== undefined) {
        found = id;
        break;
      }
      end--;
    }
    if (found < 0) return [vocab.unkId];
    pieces.push(found);
    start = end;
  }
  return pieces;
}

/** Words remembered per vocabulary: text repeats its words, and most words repeat across texts. */
const WORD_CACHE_SIZE = 65_536;
const wordCaches = new WeakMap<Vocabulary, Map<string, readonly number[]>>();

function cachedWordpiece(vocab: Vocabulary, word: string): readonly number[] {
  let cache = wordCaches.get(vocab);
  if (!cache) wordCaches.set(vocab, (cache = new Map()));
  let pieces = cache.get(word);
  if (pieces === undefined) {
    // Emptied when full rather than LRU-ordered: cheap, and a natural text's common words refill it at once.
    if (cache.size >= WORD_CACHE_SIZE) cache.clear();
    pieces = wordpiece(vocab, word);
    cache.set(word, pieces);
  }
  return pieces;
}

/** Words and pieces of a text, cut to the first 510 content pieces as BERT truncates (`truncate: first`). */
export function tokenize(vocab: Vocabulary, text: string): TokenizedText {
  const words: TokenizedWord[] = [];
  let pieceCount = 0;
  for (const word of basicTokenize(text)) {
    const pieces = cachedWordpiece(vocab, word);
    const room = MAX_CONTENT_PIECES - pieceCount;
    if (pieces.length > room) {
      if (room > 0) words.push({ word, pieces: pieces.slice(0, room) });
      return { words, pieceCount: MAX_CONTENT_PIECES, truncated: true };
    }
    words.push({ word, pieces });
    pieceCount += pieces.length;
  }
  return { words, pieceCount, truncated: false };
}

/** The model input ids: `[CLS]`, the content pieces, `[SEP]` (what `BertTokenizer.encode` returns). */
export function inputIds(vocab: Vocabulary, tokenized: TokenizedText): number[] {
  return [vocab.clsId, ...tokenized.words.flatMap((w) => w.pieces), vocab.sepId];
}
