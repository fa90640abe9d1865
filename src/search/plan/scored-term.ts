/** The scored term query every full-text and term-level builder ends in, by the field's similarity. */
import { DEFAULT_SIMILARITY } from '../../index/index.js';
import { averageFieldLength, bm25Idf } from '../bm25.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec, type TermExec } from './exec-nodes.js';

/**
 * A term on a text/keyword field with index-wide statistics: BM25 (with the field similarity's
 * k1 and b), or under the `boolean` similarity the query boost for every match (Lucene
 * BooleanSimilarity).
 */
export function scoredTerm(ctx: PlanContext, field: string, term: string, boost: number, docFreqOverride?: number): Exec {
  const df = docFreqOverride ?? ctx.stats.docFreq(field, term);
  if (df === 0 && docFreqOverride === undefined) return MATCH_NONE;
  const fs = ctx.stats.fieldStats(field);
  const exec: TermExec = {
    kind: 'term',
    field,
    term,
    weight: Math.fround(Math.fround(boost) * bm25Idf(df, fs.docCount)),
    avgdl: averageFieldLength(fs.sumTotalTermFreq, fs.docCount),
  };
  return withSimilarity(ctx, field, exec, boost);
}

/** Applies the field's similarity to a BM25 term or phrase exec. */
export function withSimilarity<T extends Exec & { readonly kind: 'term' | 'phrase' }>(ctx: PlanContext, field: string, exec: T, boost: number): Exec {
  const similarity = ctx.mapping.fields.get(field)?.similarity ?? DEFAULT_SIMILARITY;
  if (similarity.type === 'boolean') return { kind: 'constant', filter: exec, score: Math.fround(boost) };
  if (similarity.k1 === DEFAULT_SIMILARITY.k1 && similarity.b === DEFAULT_SIMILARITY.b) return exec;
  return { ...exec, k1: similarity.k1, b: similarity.b };
}

