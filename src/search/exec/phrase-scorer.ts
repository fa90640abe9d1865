/**
 * Phrase matching over positions (Lucene ExactPhraseMatcher / SloppyPhraseMatcher): candidate docs
 * come from the conjunction of the terms' postings; the phrase frequency is the number of exact
 * occurrences, or for `slop` > 0 the sum of 1 / (1 + match length) over non-overlapping matches
 * whose span (max − min of position − offset) is within the slop. Scored by BM25 on that frequency.
 * A position may hold several alternative terms (the expansions of match_phrase_prefix).
 */
import { NO_NORMS_BYTE } from '../../index/index.js';
import { bm25Score } from '../bm25.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';
import type { TermScorer } from './term-scorer.js';

/** One phrase position: its alternative terms and its offset in the phrase. */
export interface PhraseSlot {
  readonly alternatives: TermScorer[];
  readonly offset: number;
}

export class PhraseScorer extends Scorer {
  private phraseFreq = 0;
  /** Reused per doc: each slot's positions (minus offset), ascending. */
  private readonly slotPositions: number[][];

  constructor(
    private readonly slots: PhraseSlot[],
    private readonly slop: number,
    private readonly weight: number,
    private readonly cache: Float64Array,
    private readonly norms: Uint8Array | null,
  ) {
    super();
    for (const s of slots) for (const t of s.alternatives) t.nextDoc();
    this.slotPositions = slots.map(() => []);
  }

  private slotDoc(s: PhraseSlot): number {
    let min = NO_MORE_DOCS;
    for (const t of s.alternatives) if (t.doc < min) min = t.doc;
    return min;
  }

  private slotAdvance(s: PhraseSlot, target: number): number {
    for (const t of s.alternatives) if (t.doc < target) t.advance(target);
    return this.slotDoc(s);
  }

  private findNext(target: number): number {
    let doc = target;
    for (;;) {
      let agreed = true;
      for (const s of this.slots) {
        const d = this.slotAdvance(s, doc);
        if (d === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
        if (d > doc) {
          doc = d;
          agreed = false;
          break;
        }
      }
      if (!agreed) continue;
      this.phraseFreq = this.computeFreq(doc);
      if (this.phraseFreq > 0) return (this.doc = doc);
      doc++;
    }
  }

  nextDoc(): number {
    return this.findNext(this.doc + 1);
  }

  advance(target: number): number {
    return this.findNext(target);
  }

  private loadPositions(doc: number): void {
    this.slots.forEach((s, i) => {
      const out = this.slotPositions[i];
      out.length = 0;
      for (const t of s.alternatives) {
        if (t.doc !== doc) continue;
        const [from, to] = t.positionRange();
        const pos = t.positionsArray;
        for (let k = from; k < to; k++) out.push(pos[k] - s.offset);
      }
      if (s.alternatives.length > 1) out.sort((a, b) => a - b);
    });
  }

  private computeFreq(doc: number): number {
    this.loadPositions(doc);
    return this.slop === 0 ? this.exactFreq() : this.sloppyFreq();
  }

  private exactFreq(): number {
    const [first, ...rest] = this.slotPositions;
    let freq = 0;
    const idx = rest.map(() => 0);
    for (const p of first) {
      let all = true;
      for (let r = 0; r < rest.length; r++) {
        const list = rest[r];
        while (idx[r] < list.length && list[idx[r]] < p) idx[r]++;
        if (idx[r] >= list.length) return freq;
        if (list[idx[r]] !== p) all = false;
      }
      if (all) freq++;
    }
    return freq;
  }

  private sloppyFreq(): number {
    const lists = this.slotPositions;
    const idx = lists.map(() => 0);
    let freq = 0;
    for (;;) {
      let min = Infinity;
      let max = -Infinity;
      let minSlot = 0;
      for (let i = 0; i < lists.length; i++) {
        const p = lists[i][idx[i]];
        if (p < min) {
          min = p;
          minSlot = i;
        }
        if (p > max) max = p;
      }
      const span = max - min;
      if (span <= this.slop) freq += 1 / (1 + span);
      if (++idx[minSlot] >= lists[minSlot].length) return freq;
    }
  }

  /** The current doc's phrase frequency (sloppy matches weigh 1/(distance+1)), for explanations. */
  freq(): number {
    return this.phraseFreq;
  }

  score(): number {
    const norm = this.norms === null ? NO_NORMS_BYTE : this.norms[this.doc];
    return bm25Score(this.weight, Math.fround(this.phraseFreq), this.cache[norm]);
  }

  maxScore(): number {
    // BM25 is bounded by its weight as the frequency grows.
    return this.weight;
  }

  cost(): number {
    let c = Infinity;
    for (const s of this.slots) {
      let sc = 0;
      for (const t of s.alternatives) sc += t.cost();
      c = Math.min(c, sc);
    }
    return c;
  }
}
