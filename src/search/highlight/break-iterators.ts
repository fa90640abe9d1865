/**
 * Text boundaries as java.text.BreakIterator (Locale.ROOT) gives them to ES's unified highlighter:
 * sentences (`getSentenceInstance`) and words (`getWordInstance`). Boundaries are computed once per
 * field value that has a match, as a sorted offset list that always holds 0 and the text's length;
 * `preceding`/`following` are BreakIterator's: the last boundary before, the first after an offset.
 *
 * Sentence rules follow the JDK's (and Unicode UAX #29's) main cases: `!`/`?` (and their CJK forms)
 * end a sentence together with trailing closing punctuation and spaces; `.` does so only when what
 * follows the spaces can start a sentence (not a lowercase letter; not a digit or an upper-case
 * letter right after the period, as in "3.14" or "U.S"); U+2029 ends a paragraph. Newlines are
 * spaces, as in the JDK. Word boundaries surround runs of letters and digits (keeping `'` between
 * letters and `.`/`,` between digits), runs of whitespace, and every other character.
 */

/** BreakIterator.DONE. */
export const DONE = -1;

export class Boundaries {
  constructor(private readonly offsets: readonly number[]) {}

  /** The last boundary < offset, or DONE. */
  preceding(offset: number): number {
    const i = this.firstAtLeast(offset);
    return i === 0 ? DONE : this.offsets[i - 1];
  }

  /** The first boundary > offset, or DONE (boundaries are whole offsets: > offset is ≥ offset + 1). */
  following(offset: number): number {
    const i = this.firstAtLeast(offset + 1);
    return i === this.offsets.length ? DONE : this.offsets[i];
  }

  /** Index of the first boundary ≥ offset (binary search). */
  private firstAtLeast(offset: number): number {
    const b = this.offsets;
    let lo = 0;
    let hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

const TERMINATOR = /[!?\u0964\u0965\u3002\uff01\uff1f]/u;
const PERIOD = /[.\uff0e]/u;
/** Closing punctuation and quotes that stay with the sentence they end. */
const CLOSE = /[\p{Pe}\p{Pf}"']/u;
/** Opening punctuation and quotes that may precede a sentence start. */
const OPEN = /[\p{Ps}\p{Pi}"']/u;
const SPACE = /[\t\n\v\f\r\u2028\p{Zs}]/u;
const PARAGRAPH = '\u2029';

const LOWER_OR_DIGIT = /[\p{Ll}\p{N}]/u;
/** Marks and format characters, which the JDK's rules skip. */
const IGNORED = /[\p{Mn}\p{Me}\p{Cf}]/u;
const UPPER = /\p{Lu}/u;

/** What may start a sentence after a period: not lowercase, not a digit, not space or punctuation of the rules. */
function startsSentence(c: string): boolean {
  return !LOWER_OR_DIGIT.test(c) && !SPACE.test(c) && !OPEN.test(c) && !CLOSE.test(c) && !TERMINATOR.test(c) && !PERIOD.test(c)
    && c !== PARAGRAPH && !IGNORED.test(c);
}

export function sentenceBoundaries(text: string): Boundaries {
  const out = [0];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    if (c === PARAGRAPH) {
      if (i + 1 < n) out.push(i + 1);
      i++;
      continue;
    }
    const terminator = TERMINATOR.test(c);
    if (!terminator && !PERIOD.test(c)) {
      i++;
      continue;
    }
    // A run of terminators ("?!", "...") ends one sentence, with its closing marks and spaces.
    let j = i + 1;
    let hard = terminator;
    while (j < n && (TERMINATOR.test(text[j]) || PERIOD.test(text[j]))) if (TERMINATOR.test(text[j++])) hard = true;
    while (j < n && CLOSE.test(text[j])) j++;
    const spaceStart = j;
    while (j < n && SPACE.test(text[j])) j++;
    if (j >= n) break;
    if (hard || periodEnds(text, i, spaceStart, j)) out.push(j);
    i = j;
  }
  if (n > 0) out.push(n);
  return new Boundaries(out);
}

/** Whether the period at `at` ends a sentence whose next one would start at `next`. */
function periodEnds(text: string, at: number, spaceStart: number, next: number): boolean {
  let k = next;
  while (k < text.length && OPEN.test(text[k])) k++;
  if (k >= text.length || !startsSentence(text[k])) return false;
  // "U.S": an upper-case letter right after a period that follows a letter continues the sentence.
  if (next === spaceStart && at > 0 && LETTER.test(text[at - 1]) && UPPER.test(text[next])) return false;
  return true;
}

export function wordBoundaries(text: string): Boundaries {
  const out = [0];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    let j = i + 1;
    if (WORD_CHAR.test(c)) {
      while (j < n) {
        if (WORD_CHAR.test(text[j])) j++;
        else if (j + 1 < n && joinsWord(text[j - 1], text[j], text[j + 1])) j += 2;
        else break;
      }
    } else if (SPACE.test(c)) {
      while (j < n && SPACE.test(text[j])) j++;
    } else if (c >= '\ud800' && c <= '\udbff' && j < n) {
      j++; // a surrogate pair is one character
    }
    out.push(j);
    i = j;
  }
  return new Boundaries(out);
}

/** `'` between letters ("don't"), `.` or `,` between digits ("3.14", "1,000") keep a word whole. */
function joinsWord(before: string, mid: string, after: string): boolean {
  if (mid === "'" || mid === '\u2019') return LETTER.test(before) && LETTER.test(after);
  if (mid === '.' || mid === ',') return DIGIT.test(before) && DIGIT.test(after);
  return false;
}
