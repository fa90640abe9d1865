/**
 * ES's ScriptQuery: a two-phase scan of every doc of the segment, live ones only (Lucene checks
 * acceptDocs before `matches()`), each kept when the filter script returns true, scored constantly.
 * Under a conjunction, an exclusion or a function's filter it is asked `matchesAt` the docs the
 * other clauses propose, so the script runs on those alone, as Lucene runs a TwoPhaseIterator.
 */
import { isLive, type LiveDocs } from '../../index/index.js';
import type { SegmentScript } from '../script/script-program.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';

export class ScriptFilterScorer extends Scorer {
  constructor(private readonly maxDoc: number, private readonly script: SegmentScript, private readonly live: LiveDocs, private readonly constantScore: number) {
    super();
  }

  private settle(d: number): number {
    for (; d < this.maxDoc; d++) if (isLive(this.live, d) && this.script(d, 0) === true) return (this.doc = d);
    return (this.doc = NO_MORE_DOCS);
  }

  override matchesAt(doc: number): boolean {
    if (!isLive(this.live, doc) || this.script(doc, 0) !== true) return false;
    this.doc = doc;
    return true;
  }

  nextDoc(): number {
    return this.settle(this.doc + 1);
  }
  advance(target: number): number {
    return this.settle(target);
  }
  score(): number {
    return this.constantScore;
  }
  maxScore(): number {
    return this.constantScore;
  }
  cost(): number {
    return this.maxDoc;
  }
}
