/**
 * ES's ScriptScoreQuery scorer: each document of the sub-query scored by the script — its value
 * cast to float, refused when negative or NaN ("Must be a non-negative score!"), times the boost —
 * and dropped under `min_score` (MinScoreScorer, on the boosted score). The sub-query is scored
 * only when the script reads `_score`. Scores are not bounded ahead (getMaxScore is Float.MAX_VALUE).
 */
import { javaFloatToString } from '../../common/float-json.js';
import { IllegalArgumentError } from '../../errors/index.js';
import type { LiveDocs } from '../../index/index.js';
import type { ScriptScoreExec } from '../plan/exec-nodes.js';
import type { SegmentScript } from '../script/script-program.js';
import { PerDocScoreScorer } from './per-doc-score-scorer.js';
import type { Scorer } from './scorer.js';

export class ScriptScoreScorer extends PerDocScoreScorer {
  constructor(sub: Scorer, private readonly script: SegmentScript, private readonly exec: ScriptScoreExec, live: LiveDocs = null) {
    super(sub, live);
  }

  /** The boosted score of the sub-scorer's doc `d`, or NaN under min_score. */
  protected scoreOf(d: number): number {
    const value = this.script(d, this.exec.script.needsScore ? this.sub.score() : 0) as number;
    const score = Math.fround(value);
    if (score < 0 || Number.isNaN(score)) {
      throw new IllegalArgumentError(`script_score script returned an invalid score [${javaFloatToString(score)}] for doc [${d}]. Must be a non-negative score!`);
    }
    const boosted = Math.fround(score * this.exec.boost);
    return this.exec.minScore !== null && boosted < this.exec.minScore ? NaN : boosted;
  }
}
