/**
 * Where a passage around a match starts and ends, as the break iterator ES hands Lucene's
 * FieldHighlighter decides it: FieldHighlighter asks `preceding(start + 1)` for the passage start
 * and then `following(start)` for its end, match after match in increasing order, within one field
 * value (Lucene's SplittingBreakIterator keeps passages inside a value).
 *
 * - `sentence` with fragment_size > 0: ES's BoundedBreakIteratorScanner — as many whole sentences as
 *   fit in fragment_size from the sentence holding the match; a sentence that alone is too long is cut
 *   at word boundaries around the match. fragment_size is a soft limit: the last word is kept whole.
 * - `sentence` with fragment_size ≤ 0: one sentence.
 * - `word`: one word (ES ignores fragment_size there).
 * - `whole`: the whole value (number_of_fragments 0, and fields that are not tokenized: ES's
 *   CustomSeparatorBreakIterator).
 */
import { Boundaries, sentenceBoundaries, wordBoundaries } from './break-iterators.js';

export type PassageMode = 'sentence' | 'word' | 'whole';

export interface PassageBounds {
  /** Passage start for a match starting at `offset - 1` (BreakIterator.preceding). */
  preceding(offset: number): number;
  /** Passage end for a match starting at `offset`, after `preceding(offset + 1)`. */
  following(offset: number): number;
}

export function passageBounds(text: string, mode: PassageMode, fragmentSize: number): PassageBounds {
  switch (mode) {
    case 'whole':
      return { preceding: () => 0, following: () => text.length };
    case 'word':
      return wordBoundaries(text);
    case 'sentence':
      return fragmentSize > 0 ? new BoundedSentences(text, fragmentSize) : sentenceBoundaries(text);
  }
}

/** ES BoundedBreakIteratorScanner over one value's text. */
class BoundedSentences implements PassageBounds {
  private readonly main: Boundaries;
  private inner: Boundaries | null = null;
  private windowStart = -1;
  private windowEnd = -1;
  private innerStart = -1;
  private innerEnd = 0;

  constructor(private readonly text: string, private readonly maxLen: number) {
    this.main = sentenceBoundaries(text);
  }

  /** Word boundaries, only needed for sentences longer than fragment_size. */
  private words(): Boundaries {
    return (this.inner ??= wordBoundaries(this.text));
  }

  preceding(offset: number): number {
    const textEnd = this.text.length;
    if (offset > this.windowStart && offset < this.windowEnd) {
      // The next match in the same window continues after the previous passage.
      this.innerStart = this.innerEnd;
      this.innerEnd = this.windowEnd;
    } else {
      this.innerStart = Math.max(this.main.preceding(offset), 0);
      const targetEnd = offset + Math.max(0, this.maxLen - (offset - this.innerStart));
      this.innerEnd = targetEnd + 1 > textEnd ? textEnd : this.main.preceding(targetEnd + 1);
      // No sentence ends within the budget: take the first break after it.
      if (this.innerStart === this.innerEnd) this.innerEnd = targetEnd >= textEnd ? textEnd : this.main.following(targetEnd);
      this.windowStart = this.innerStart;
      this.windowEnd = this.innerEnd;
    }
    if (this.innerEnd - this.innerStart > this.maxLen) {
      // Too long: words to the left of the match first, then what remains of the budget to the right.
      if (offset - this.maxLen > this.innerStart) this.innerStart = Math.max(this.innerStart, this.words().preceding(offset - this.maxLen));
      const remaining = Math.max(0, this.maxLen - (offset - this.innerStart));
      if (offset + remaining < this.windowEnd) this.innerEnd = Math.min(this.windowEnd, this.words().following(offset + remaining));
    }
    return this.innerStart;
  }

  following(): number {
    return this.innerEnd;
  }
}
