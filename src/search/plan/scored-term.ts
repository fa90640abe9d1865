/** The BM25-scored term query every full-text and term-level builder ends in. */
import { averageFieldLength, bm25Idf } from '../bm25.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec, type TermExec } from './exec-nodes.js';

/** A BM25-scored term on a text/keyword field with index-wide statistics. */
export function scoredTerm(ctx: PlanContext, field: string, term: string, boost: number, docFreqOverride?: number): Exec {
  const df = docFreqOverride ?? ctx.stats.docFreq(field, term);
  if (df === 0 && docFreqOverride === undefined) return MATCH_NONE;
  const fs = ctx.stats.fieldStats(field);
  const exec: TermExec = {
    t: 'term',
    field,
    term,
    weight: Math.fround(Math.fround(boost) * bm25Idf(df, fs.docCount)),
    avgdl: averageFieldLength(fs.sumTotalTermFreq, fs.docCount),
  };
  return exec;
}

