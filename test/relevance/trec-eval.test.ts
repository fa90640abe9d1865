import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareUtf8, evaluate, judgedQueries, loadBeir, loadQrels, trecOrder } from '../support/trec-eval.js';
import type { Qrels, RankedDoc, Run } from '../support/trec-eval.js';

function qrelsOf(entries: Record<string, Record<string, number>>): Qrels {
  return new Map(Object.entries(entries).map(([q, docs]) => [q, new Map(Object.entries(docs))]));
}

function runOf(entries: Record<string, Array<[string, number]>>): Run {
  return new Map(Object.entries(entries).map(([q, hits]) => [q, hits.map(([docId, score]) => ({ docId, score }))]));
}

/** The first n ideal-DCG discounts 1/log2(i + 2). */
const discount = (i: number) => 1 / Math.log2(i + 2);

describe('evaluate', () => {
  it('computes NDCG@10 with linear gains, Recall@100 and MRR@10 on a graded query', () => {
    // Ranked: d3 (judged 0), d1 (1), dx (unjudged), d2 (2).
    const run = runOf({ q: [['d3', 0.9], ['d1', 0.8], ['dx', 0.7], ['d2', 0.6]] });
    const e = evaluate(run, qrelsOf({ q: { d1: 1, d2: 2, d3: 0 } }));
    // DCG = 1/log2(3) + 2/log2(5) = 0.6309298 + 0.8613531 = 1.4922829; ideal = 2/log2(2) + 1/log2(3) = 2.6309298.
    expect(e.ndcg10).toBeCloseTo(1.4922829 / 2.6309298, 6);
    expect(e.ndcg10).toBeCloseTo(0.567207, 5);
    expect(e.recall100).toBe(1);
    expect(e.mrr10).toBe(0.5);
    expect(e.queries).toBe(1);
  });

  it('ranks by score, not by the order the run lists hits in', () => {
    const run = runOf({ q: [['d2', 0.1], ['d1', 0.9]] });
    const e = evaluate(run, qrelsOf({ q: { d1: 1 } }));
    expect(e.ndcg10).toBe(1);
    expect(e.mrr10).toBe(1);
  });

  it('breaks score ties by document id descending, as trec_eval does', () => {
    // Tied a, b, c rank c, b, a; the relevant a is third.
    const e = evaluate(runOf({ q: [['a', 1], ['b', 1], ['c', 1]] }), qrelsOf({ q: { a: 1 } }));
    expect(e.mrr10).toBeCloseTo(1 / 3, 12);
    expect(e.ndcg10).toBeCloseTo(discount(2), 12); // 1/log2(4) = 0.5
    expect(e.ndcg10).toBeCloseTo(0.5, 12);
  });

  it('compares tied ids as strings, so "9" ranks before "10"', () => {
    const e = evaluate(runOf({ q: [['10', 2.5], ['9', 2.5]] }), qrelsOf({ q: { '10': 1 } }));
    expect(e.mrr10).toBe(0.5);
    expect(trecOrder('q', [{ docId: '10', score: 1 }, { docId: '9', score: 1 }]).map((h) => h.docId)).toEqual(['9', '10']);
  });

  it('drops a hit whose id is the query id before ranking (BEIR), unless told not to', () => {
    const run = runOf({ '7': [['7', 5], ['d1', 3]] });
    const qrels = qrelsOf({ '7': { d1: 1, '7': 1 } });
    const beir = evaluate(run, qrels);
    // d1 moves to rank 1; the self-judgment still counts as a relevant document for the ideal DCG.
    expect(beir.mrr10).toBe(1);
    expect(beir.ndcg10).toBeCloseTo(1 / (1 + discount(1)), 12);
    expect(beir.recall100).toBe(0.5);
    const raw = evaluate(run, qrels, { ignoreIdenticalIds: false });
    expect(raw.ndcg10).toBe(1);
    expect(raw.recall100).toBe(1);
  });

  it('uses every judged relevant document for the ideal DCG, cut at 10', () => {
    const judged: Record<string, number> = {};
    for (let i = 0; i < 12; i++) judged[`r${i}`] = 1;
    const e = evaluate(runOf({ q: [['r0', 1]] }), qrelsOf({ q: judged }));
    let ideal = 0;
    for (let i = 0; i < 10; i++) ideal += discount(i);
    expect(e.ndcg10).toBeCloseTo(1 / ideal, 12);
    expect(e.recall100).toBeCloseTo(1 / 12, 12);
  });

  it('counts relevant documents up to rank 100 for recall and up to rank 10 for NDCG and MRR', () => {
    const hits: Array<[string, number]> = [];
    for (let i = 0; i < 150; i++) hits.push([`n${String(i).padStart(3, '0')}`, 1000 - i]);
    hits[10][0] = 'rel-at-11';
    hits[99][0] = 'rel-at-100';
    hits[100][0] = 'rel-at-101';
    const e = evaluate(runOf({ q: hits }), qrelsOf({ q: { 'rel-at-11': 1, 'rel-at-100': 1, 'rel-at-101': 1 } }));
    expect(e.recall100).toBeCloseTo(2 / 3, 12);
    expect(e.ndcg10).toBe(0);
    expect(e.mrr10).toBe(0);
  });

  it('averages over judged queries with a relevant document that are in the run', () => {
    const qrels = qrelsOf({
      hit: { d1: 1 },
      empty: { d1: 1 },
      absent: { d1: 1 },
      nonrelevant: { d1: 0 },
    });
    const run = runOf({ hit: [['d1', 1]], empty: [], nonrelevant: [['d1', 1]], unjudged: [['d1', 1]] });
    const e = evaluate(run, qrels);
    expect(e.queries).toBe(2);
    expect([...e.perQuery.keys()].sort()).toEqual(['empty', 'hit']);
    expect(e.perQuery.get('empty')).toEqual({ ndcg10: 0, recall100: 0, mrr10: 0 });
    expect(e.ndcg10).toBe(0.5);
    expect(e.missing).toEqual(['absent']);
  });

  it('rejects a run that lists a document twice for one query', () => {
    expect(() => evaluate(runOf({ q: [['d1', 2], ['d1', 1]] }), qrelsOf({ q: { d1: 1 } }))).toThrow(/twice/);
  });
});

describe('compareUtf8', () => {
  it('orders by code point, as strcmp orders UTF-8 bytes', () => {
    expect(compareUtf8('a', 'b')).toBeLessThan(0);
    expect(compareUtf8('ab', 'a')).toBeGreaterThan(0);
    expect(compareUtf8('x', 'x')).toBe(0);
    // U+FF5E sorts before U+1F600 in UTF-8, though its UTF-16 unit is the larger one.
    expect(compareUtf8('\uff5e', '\u{1f600}')).toBeLessThan(0);
  });
});

describe('loading BEIR folders', () => {
  it('reads qrels with CRLF line ends and a header line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'beir-'));
    const path = join(dir, 'test.tsv');
    writeFileSync(path, 'query-id\tcorpus-id\tscore\r\n1\t31715818\t1\r\n3\t14717500\t1\r\n3\t99\t0\r\n');
    const qrels = loadQrels(path);
    expect([...qrels.keys()]).toEqual(['1', '3']);
    expect(qrels.get('1')!.get('31715818')).toBe(1);
    expect(qrels.get('3')!.get('99')).toBe(0);
  });

  it('reads corpus, queries and qrels from a folder and lists the judged queries', () => {
    const dir = mkdtempSync(join(tmpdir(), 'beir-'));
    mkdirSync(join(dir, 'qrels'));
    writeFileSync(join(dir, 'corpus.jsonl'), '{"_id":"10","title":"T","text":"body"}\n{"_id":"11","text":"no title"}\n');
    writeFileSync(join(dir, 'queries.jsonl'), '{"_id":"1","text":"first"}\n{"_id":"2","text":"second"}\n{"_id":"3","text":"third"}\n');
    writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\r\n3\t10\t1\r\n1\t11\t2\r\n2\t11\t0\r\n');
    const ds = loadBeir(dir);
    expect(ds.corpus.get('10')).toEqual({ title: 'T', text: 'body' });
    expect(ds.corpus.get('11')).toEqual({ title: '', text: 'no title' });
    expect(judgedQueries(ds)).toEqual([
      { id: '1', text: 'first' },
      { id: '3', text: 'third' },
    ]);
  });

  const scifact = '/work/shared/data/beir/scifact';
  it.skipIf(!existsSync(scifact))('reads the SciFact test split: 300 queries, 339 judgments', () => {
    const qrels = loadQrels(join(scifact, 'qrels', 'test.tsv'));
    expect(qrels.size).toBe(300);
    expect([...qrels.values()].reduce((n, m) => n + m.size, 0)).toBe(339);
  });
});

describe('trecOrder', () => {
  it('does not modify the run it is given', () => {
    const hits: RankedDoc[] = [{ docId: 'a', score: 1 }, { docId: 'b', score: 2 }];
    trecOrder('q', hits);
    expect(hits.map((h) => h.docId)).toEqual(['a', 'b']);
  });
});
