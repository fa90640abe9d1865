/**
 * What function_score and script_score share (ES's FunctionScoreQuery / ScriptScoreQuery scorers):
 * each live document the sub-scorer matches gets a score computed for it alone, and a document whose
 * score is NaN (under `min_score`) is skipped. Deleted documents are never scored — their functions
 * or scripts could fail where the live version would not. Scores are not bounded ahead (maxScore is
 * Infinity), so no pruning applies below these scorers.
 */
import { isLive, type LiveDocs } from '../../index/index.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';

export abstract class PerDocScoreScorer extends Scorer {
  private current = 0;

  constructor(protected readonly sub: Scorer, private readonly live: LiveDocs) {
    super();
  }

  /** The score of the sub-scorer's current doc `d`, or NaN to skip it. */
  protected abstract scoreOf(d: number): number;

  private settle(d: number): number {
    while (d !== NO_MORE_DOCS) {
      if (isLive(this.live, d)) {
        const s = this.scoreOf(d);
        if (!Number.isNaN(s)) {
          this.current = s;
          return (this.doc = d);
        }
      }
      d = this.sub.nextDoc();
    }
    return (this.doc = NO_MORE_DOCS);
  }

  nextDoc(): number {
    return this.settle(this.sub.nextDoc());
  }
  advance(target: number): number {
    return this.settle(this.sub.advance(target));
  }
  score(): number {
    return this.current;
  }
  maxScore(): number {
    return Infinity;
  }
  cost(): number {
    return this.sub.cost();
  }
}
