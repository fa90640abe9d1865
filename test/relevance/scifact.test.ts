/**
 * Relevance check on BEIR SciFact (test split): BM25 with ES defaults, queried as BEIR queried
 * Elasticsearch — `english` analyzer on title and text, `multi_match` best_fields with
 * tie_breaker 0.5 — must reach the BEIR paper's Elasticsearch NDCG@10 of 0.665.
 *
 * The data set is licensed for evaluation only and is never shipped: it is read from
 * ../shared/data/beir/scifact (or $THREADSEARCH_SCIFACT). Without it the test is skipped, loudly.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, judgedQueries, loadBeir, type BeirDataset, type RankedDoc } from '../support/trec-eval.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

export const SCIFACT_DIR = process.env.THREADSEARCH_SCIFACT ?? resolve(import.meta.dirname, '../../../shared/data/beir/scifact');
const available = existsSync(resolve(SCIFACT_DIR, 'corpus.jsonl'));
if (!available) console.warn(`SciFact not found at ${SCIFACT_DIR}: relevance test skipped`);

describe.runIf(available)('BM25 relevance on SciFact', () => {
  let t: TestApp;
  let data: BeirDataset;

  beforeAll(async () => {
    t = await createTestApp({ threads: 2 });
    data = loadBeir(SCIFACT_DIR);
    const created = await t.request('PUT', '/scifact', {
      mappings: { properties: { title: { type: 'text', analyzer: 'english' }, text: { type: 'text', analyzer: 'english' } } },
    });
    expect(created.status).toBe(200);
    const docs = [...data.corpus];
    expect(docs.length).toBe(5183);
    for (let i = 0; i < docs.length; i += 1000) {
      const lines = docs.slice(i, i + 1000).flatMap(([id, d]) => [{ index: { _index: 'scifact', _id: id } }, { title: d.title, text: d.text }]);
      const res = await t.bulk('/_bulk', lines);
      expect(res.body.errors).toBe(false);
    }
    await t.request('POST', '/scifact/_refresh');
  }, 120_000);
  afterAll(async () => t?.close());

  it('reaches NDCG@10 ≥ 0.665 with multi_match best_fields over title and text', async () => {
    const run = new Map<string, RankedDoc[]>();
    for (const q of judgedQueries(data)) {
      const res = await t.request('POST', '/scifact/_search', {
        _source: false,
        size: 100,
        query: { multi_match: { query: q.text, type: 'best_fields', fields: ['title', 'text'], tie_breaker: 0.5 } },
      });
      expect(res.status).toBe(200);
      run.set(q.id, res.body.hits.hits.map((h: { _id: string; _score: number }) => ({ docId: h._id, score: h._score })));
    }
    const result = evaluate(run, data.qrels);
    console.log(`SciFact BM25: NDCG@10 ${result.ndcg10.toFixed(4)}, Recall@100 ${result.recall100.toFixed(4)}, MRR@10 ${result.mrr10.toFixed(4)} over ${result.queries} queries`);
    expect(result.queries).toBe(300);
    expect(result.ndcg10).toBeGreaterThanOrEqual(0.665);
  }, 120_000);

  it('gives through _rank_eval (dcg@10, normalize) the NDCG@10 the evaluator computes from the same searches', async () => {
    const queries = judgedQueries(data);
    const request = (text: string) => ({ query: { multi_match: { query: text, type: 'best_fields', fields: ['title', 'text'], tie_breaker: 0.5 } } });
    const res = await t.request('POST', '/scifact/_rank_eval', {
      requests: queries.map((q) => ({
        id: q.id,
        request: request(q.text),
        ratings: [...data.qrels.get(q.id)!].map(([docId, rating]) => ({ _index: 'scifact', _id: docId, rating })),
      })),
      metric: { dcg: { k: 10, normalize: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body.failures).toEqual({});
    // The evaluator over the hits _rank_eval saw (its own order: score, then id, as trec_eval; no
    // self-hit removal, which _rank_eval does not do). SciFact's judgments are all 1, where
    // _rank_eval's exponential gain and trec_eval's linear gain agree.
    const run = new Map<string, RankedDoc[]>();
    for (const q of queries) {
      run.set(q.id, res.body.details[q.id].hits.map((h: { hit: { _id: string; _score: number } }) => ({ docId: h.hit._id, score: h.hit._score })));
    }
    const evaluated = evaluate(run, data.qrels, { ignoreIdenticalIds: false });
    console.log(`SciFact _rank_eval NDCG@10 ${res.body.metric_score.toFixed(6)}, evaluator ${evaluated.ndcg10.toFixed(6)}`);
    expect(evaluated.queries).toBe(300);
    for (const q of queries) expect(res.body.details[q.id].metric_score).toBeCloseTo(evaluated.perQuery.get(q.id)!.ndcg10, 12);
    expect(res.body.metric_score).toBeCloseTo(evaluated.ndcg10, 12);
  }, 120_000);
});
