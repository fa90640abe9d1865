/**
 * The unified highlighter's fragmenting: Java BreakIterator-like sentence and word boundaries, and
 * ES's BoundedBreakIteratorScanner as Lucene's FieldHighlighter calls it (preceding(start + 1), then
 * following(start), matches in increasing order).
 */
import { describe, expect, it } from 'vitest';
import { sentenceBoundaries, wordBoundaries } from '../../src/search/highlight/break-iterators.js';
import { passageBounds } from '../../src/search/highlight/passage-bounds.js';

/** The text cut at every boundary `following` walks through. */
function pieces(text: string, b: { following(offset: number): number }): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = b.following(start);
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/** The passage FieldHighlighter cuts for a match starting at `start`. */
function passage(text: string, mode: 'sentence' | 'word' | 'whole', fragmentSize: number, ...starts: number[]): string[] {
  const bounds = passageBounds(text, mode, fragmentSize);
  return starts.map((s) => text.slice(Math.max(bounds.preceding(s + 1), 0), bounds.following(s)));
}

describe('sentence boundaries', () => {
  it('end a sentence after terminators, closing marks and spaces', () => {
    expect(pieces('It rained. "Really?!" she asked.  Yes!', sentenceBoundaries('It rained. "Really?!" she asked.  Yes!')))
      .toEqual(['It rained. ', '"Really?!" ', 'she asked.  ', 'Yes!']);
  });

  it('keep periods that do not end a sentence: decimals, abbreviations before lowercase, initialisms', () => {
    const text = 'Pi is 3.14 e.g. in math. The U.S. team won.';
    expect(pieces(text, sentenceBoundaries(text))).toEqual(['Pi is 3.14 e.g. in math. ', 'The U.S. team won.']);
  });

  it('treat newlines as spaces and U+2029 as a paragraph end', () => {
    const text = 'one\ntwo\u2029three';
    expect(pieces(text, sentenceBoundaries(text))).toEqual(['one\ntwo\u2029', 'three']);
  });
});

describe('word boundaries', () => {
  it('surround words (with inner apostrophes and number separators), space runs and each other character', () => {
    const text = "don't pay 1,000.50  now!";
    expect(pieces(text, wordBoundaries(text))).toEqual(["don't", ' ', 'pay', ' ', '1,000.50', '  ', 'now', '!']);
  });
});

describe('passage bounds', () => {
  const text = 'Short one. A much longer second sentence that goes on and on for quite a while indeed. End.';

  it('take as many whole sentences as fit in fragment_size', () => {
    expect(passage(text, 'sentence', 100, 0)).toEqual([text]);
    expect(passage(text, 'sentence', 90, 0)).toEqual(['Short one. A much longer second sentence that goes on and on for quite a while indeed. ']);
    expect(passage(text, 'sentence', 20, 0)).toEqual(['Short one. ']);
  });

  it('cut a sentence longer than fragment_size at words, around the match', () => {
    const at = text.indexOf('goes');
    // Left of the match first (from the word before start − 20), then what is left of the budget.
    expect(passage(text, 'sentence', 20, at)).toEqual(['second sentence that goes']);
  });

  it('continue in the same window for a later match', () => {
    const first = text.indexOf('much');
    const second = text.indexOf('quite');
    expect(passage(text, 'sentence', 30, first, second)).toEqual(['A much longer second sentence that', ' goes on and on for quite a while']);
  });

  it('are one word with the word scanner and the whole value for whole', () => {
    expect(passage(text, 'word', 100, text.indexOf('longer'))).toEqual(['longer']);
    expect(passage(text, 'whole', 5, 3)).toEqual([text]);
  });
});
