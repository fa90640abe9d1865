/**
 * Which entries of one segment a completion suggestion matches, as ranges of entries with the
 * boost their score multiplies by (0: the weight alone). A prefix is one binary search and one
 * range; fuzzy and regex queries visit the candidate terms in order (fuzzy-prefix.ts; a regex
 * tests each term under its literal prefix) and merge neighbouring runs of equal boost.
 */
import { forEachAcceptedTerm, prefixRange, type SegmentField } from '../../index/index.js';
import type { CompletionMatch } from './exec-suggest.js';
import { fuzzyPrefixMatches } from './fuzzy-prefix.js';

export type RangeSink = (from: number, to: number, boost: number) => void;

/** Collects term ordinals (ascending) into entry ranges, merging adjacent terms with the same boost. */
class TermRanges {
  private from = -1;
  private to = -1;
  private boost = 0;
  constructor(private readonly entryStart: Uint32Array, private readonly sink: RangeSink) {}
  /** Terms [from, to), all with `boost`. */
  add(from: number, to: number, boost: number): void {
    if (from === this.to && boost === this.boost) {
      this.to = to;
      return;
    }
    this.flush();
    this.from = from;
    this.to = to;
    this.boost = boost;
  }
  flush(): void {
    if (this.from >= 0 && this.entryStart[this.to] > this.entryStart[this.from]) this.sink(this.entryStart[this.from], this.entryStart[this.to], this.boost);
    this.from = this.to = -1;
  }
}

/** `shouldStop`: the search deadline, polled while a regex expands to the dictionary's forms. */
export function matchingRanges(match: CompletionMatch, field: SegmentField, shouldStop: () => boolean, sink: RangeSink): void {
  const start = field.completion!.entryStart;
  switch (match.kind) {
    case 'none':
      return;
    case 'prefix': {
      const [from, to] = prefixRange(field, match.form);
      if (start[to] > start[from]) sink(start[from], start[to], 0);
      return;
    }
    case 'fuzzy': {
      const ranges = new TermRanges(start, sink);
      fuzzyPrefixMatches(field, match.form, match.options, (from, to, boost) => ranges.add(from, to, boost));
      ranges.flush();
      return;
    }
    case 'regex': {
      const ranges = new TermRanges(start, sink);
      forEachAcceptedTerm(field, match.automaton, shouldStop, (from, to) => ranges.add(from, to, 0));
      ranges.flush();
      return;
    }
  }
}
