/**
 * The IR evaluator: BEIR dataset loading and NDCG@10 / Recall@100 / MRR@10 computed the way
 * pytrec_eval (trec_eval 9) and BEIR compute them, so our figures compare with published ones:
 *
 * - the run's own order is ignored: hits are ranked by score descending, ties by document id
 *   *descending* in byte order (trec_eval's comp_sim_docno: `strcmp(p2->docno, p1->docno)`);
 * - a hit whose document id equals the query id is dropped first (BEIR's ignore_identical_ids);
 * - relevant means judgment ≥ 1 (trec_eval's default relevance_level);
 * - NDCG@10 has linear gain (the judgment value) and discount log2(rank + 1), and its ideal DCG
 *   ranks every judged document of the query (retrieved or not) by judgment, cut at 10 (the sum is
 *   `_rank_eval`'s, src/search/rank-eval, with trec_eval's gain);
 * - Recall@100 = relevant in the top 100 / all relevant; MRR@10 = 1 / rank of the first relevant
 *   document in the top 10, else 0;
 * - queries without a relevant judgment are skipped; so are queries absent from the run (as
 *   pytrec_eval does; they are listed in `missing`). A query the engine answered with nothing must be
 *   in the run with an empty list, and then scores 0.
 */
import { discountedCumulativeGain, linearGain } from '../../src/search/index.js';
import { hasRelevant, judgedQueries, loadBeir, loadQrels, type BeirDataset, type BeirDoc, type Qrels } from '../../src/cli/beir.js';

export { judgedQueries, loadBeir, loadQrels };
export type { BeirDataset, BeirDoc, Qrels };

export interface RankedDoc {
  docId: string;
  score: number;
}

export type Run = Map<string, readonly RankedDoc[]>;

export interface QueryMetrics {
  ndcg10: number;
  recall100: number;
  mrr10: number;
}

export interface Evaluation extends QueryMetrics {
  /** Queries averaged over. */
  queries: number;
  perQuery: Map<string, QueryMetrics>;
  /** Judged queries (with a relevant document) absent from the run, hence not averaged. */
  missing: string[];
}

export interface EvaluateOptions {
  /** BEIR drops hits whose id equals the query id (default true). */
  ignoreIdenticalIds?: boolean;
}

/** strcmp order on the UTF-8 bytes, i.e. code point order (UTF-16 unit order differs for surrogates). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    const surrogate = (ca >= 0xd800 && ca <= 0xdfff) || (cb >= 0xd800 && cb <= 0xdfff);
    return surrogate ? a.codePointAt(i)! - b.codePointAt(i)! : ca - cb;
  }
  return a.length - b.length;
}

/** The hits in trec_eval order (score desc, then doc id desc), self-hits removed; throws on duplicates. */
export function trecOrder(queryId: string, hits: readonly RankedDoc[], ignoreIdenticalIds = true): RankedDoc[] {
  const kept = ignoreIdenticalIds ? hits.filter((h) => h.docId !== queryId) : hits.slice();
  kept.sort((x, y) => (x.score !== y.score ? y.score - x.score : compareUtf8(y.docId, x.docId)));
  // trec_eval refuses runs with a document twice; a duplicate here is an engine bug.
  const seen = new Set<string>();
  for (const h of kept) {
    if (seen.has(h.docId)) throw new Error(`evaluate: query ${queryId} lists document ${h.docId} twice`);
    seen.add(h.docId);
  }
  return kept;
}

/** Metrics of one query, given its hits in trec order and its judgments. */
export function queryMetrics(ranked: readonly RankedDoc[], judged: ReadonlyMap<string, number>): QueryMetrics {
  let mrr = 0;
  let relRet100 = 0;
  const depth = Math.min(ranked.length, 100);
  for (let i = 0; i < depth; i++) {
    const rel = judged.get(ranked[i].docId) ?? 0;
    if (rel >= 1) {
      relRet100++;
      if (mrr === 0 && i < 10) mrr = 1 / (i + 1);
    }
  }
  // trec_eval's gain is the judgment itself, and only positive judgments count.
  const gain = (docId: string) => Math.max(0, judged.get(docId) ?? 0);
  const dcg = discountedCumulativeGain(ranked.slice(0, 10).map((h) => gain(h.docId)), linearGain);
  const gains = [...judged.values()].filter((r) => r > 0).sort((x, y) => y - x);
  const idcg = discountedCumulativeGain(gains.slice(0, 10), linearGain);
  let numRel = 0;
  for (const rel of judged.values()) if (rel >= 1) numRel++;
  return {
    ndcg10: idcg > 0 ? dcg / idcg : 0,
    recall100: numRel > 0 ? relRet100 / numRel : 0,
    mrr10: mrr,
  };
}

export function evaluate(run: Run, qrels: Qrels, options: EvaluateOptions = {}): Evaluation {
  const ignoreIdenticalIds = options.ignoreIdenticalIds ?? true;
  const perQuery = new Map<string, QueryMetrics>();
  const missing: string[] = [];
  let ndcg = 0;
  let recall = 0;
  let mrr = 0;
  for (const [queryId, judged] of qrels) {
    if (!hasRelevant(judged)) continue;
    const hits = run.get(queryId);
    if (hits === undefined) {
      missing.push(queryId);
      continue;
    }
    const m = queryMetrics(trecOrder(queryId, hits, ignoreIdenticalIds), judged);
    perQuery.set(queryId, m);
    ndcg += m.ndcg10;
    recall += m.recall100;
    mrr += m.mrr10;
  }
  const n = perQuery.size;
  return {
    ndcg10: n > 0 ? ndcg / n : 0,
    recall100: n > 0 ? recall / n : 0,
    mrr10: n > 0 ? mrr / n : 0,
    queries: n,
    perQuery,
    missing,
  };
}
