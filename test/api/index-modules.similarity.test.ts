/**
 * Similarity settings — https://www.elastic.co/guide/en/elasticsearch/reference/8.15/index-modules-similarity.html
 * and the `similarity` mapping parameter: BM25 with its k1, b and discount_overlaps, and boolean,
 * scored exactly as Lucene's BM25Similarity and BooleanSimilarity (float32 arithmetic, the
 * lengths decoded from one-byte norms). The index settings are the ones LangChain's BM25
 * retriever sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intToByte4, LENGTH_TABLE } from '../../src/index/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const f = Math.fround;

/** Lucene BM25Similarity's score, step by step in float32. */
function bm25(k1: number, b: number, docCount: number, docFreq: number, freq: number, length: number, avgdl: number): number {
  const idf = f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
  const normInverse = f(1 / f(f(k1) * f(f(1 - f(b)) + f(f(f(b) * LENGTH_TABLE[intToByte4(length)]) / avgdl))));
  return f(idf - f(idf / f(1 + f(freq * normInverse))));
}

const scores = async (index: string, query: Record<string, unknown>) => {
  const res = await t.request('POST', `/${index}/_search`, { query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // Scores render as Java prints floats (shortest form); read back as float32 they are exact.
  return Object.fromEntries(res.body.hits.hits.map((h: { _id: string; _score: number }) => [h._id, f(h._score)]));
};

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { content: 'the quick brown fox', plain: 'the quick brown fox', tags: 'quick fox' }],
  ['2', { content: 'fox fox', plain: 'fox fox', tags: 'fox' }],
  ['3', { content: 'a lazy dog sleeps all day long', plain: 'a lazy dog sleeps all day long', tags: 'dog' }],
];

describe('BM25 with k1 and b, as LangChain\'s BM25 retriever creates it', () => {
  beforeAll(async () => {
    const res = await t.request('PUT', '/sim-bm25', {
      settings: {
        analysis: { analyzer: { default: { type: 'standard' } } },
        similarity: { custom_bm25: { type: 'BM25', k1: 2.0, b: 0.5 }, bool_sim: { type: 'boolean' } },
      },
      mappings: {
        properties: {
          content: { type: 'text', similarity: 'custom_bm25' },
          plain: { type: 'text' },
          tags: { type: 'text', similarity: 'bool_sim' },
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await seed(t, 'sim-bm25', DOCS);
  });

  it('scores a field with its k1 and b exactly', async () => {
    const avgdl = f(13 / 3); // 4 + 2 + 7 tokens over 3 documents
    expect(await scores('sim-bm25', { match: { content: 'fox' } })).toEqual({
      1: bm25(2, 0.5, 3, 2, 1, 4, avgdl),
      2: bm25(2, 0.5, 3, 2, 2, 2, avgdl),
    });
    // The same text under the default similarity (k1 1.2, b 0.75) scores differently.
    const plain = await scores('sim-bm25', { match: { plain: 'fox' } });
    expect(plain).toEqual({ 1: bm25(1.2, 0.75, 3, 2, 1, 4, avgdl), 2: bm25(1.2, 0.75, 3, 2, 2, 2, avgdl) });
    expect(plain['2']).not.toBe(bm25(2, 0.5, 3, 2, 2, 2, avgdl));
  });

  it('phrases use the same k1 and b', async () => {
    const avgdl = f(13 / 3);
    const idf = (df: number) => f(Math.log(1 + (3 - df + 0.5) / (df + 0.5)));
    const weight = f(idf(1) + idf(1)); // "quick" and "brown" each in one document
    const normInverse = f(1 / f(2 * f(f(1 - f(0.5)) + f(f(f(0.5) * LENGTH_TABLE[intToByte4(4)]) / avgdl))));
    expect(await scores('sim-bm25', { match_phrase: { content: 'quick brown' } })).toEqual({ 1: f(weight - f(weight / f(1 + normInverse))) });
  });

  it('boolean similarity scores each matching term with its boost, whatever its frequency', async () => {
    expect(await scores('sim-bm25', { match: { tags: 'quick fox' } })).toEqual({ 1: 2, 2: 1 });
    expect(await scores('sim-bm25', { match: { tags: { query: 'fox', boost: 3 } } })).toEqual({ 1: 3, 2: 3 });
  });
});

describe('discount_overlaps', () => {
  const create = async (name: string, discount: boolean) => {
    const res = await t.request('PUT', `/${name}`, {
      settings: {
        analysis: { filter: { syn: { type: 'synonym', synonyms: ['tv, television'] } }, analyzer: { syn: { tokenizer: 'whitespace', filter: ['syn'] } } },
        similarity: { s: { type: 'BM25', discount_overlaps: discount } },
      },
      mappings: { properties: { f: { type: 'text', analyzer: 'syn', similarity: 's' } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await seed(t, name, [['1', { f: 'tv stand' }], ['2', { f: 'a stand for a lamp' }]]);
  };

  it('stacked synonym tokens do not count in the length unless discount_overlaps is false', async () => {
    await create('sim-discount', true);
    await create('sim-no-discount', false);
    // sumTotalTermFreq counts every token (stacked ones too): 3 + 5 over 2 documents.
    const avgdl = f(8 / 2);
    expect(await scores('sim-discount', { match: { f: 'stand' } })).toEqual({
      1: bm25(1.2, 0.75, 2, 2, 1, 2, avgdl), 2: bm25(1.2, 0.75, 2, 2, 1, 5, avgdl),
    });
    expect(await scores('sim-no-discount', { match: { f: 'stand' } })).toEqual({
      1: bm25(1.2, 0.75, 2, 2, 1, 3, avgdl), 2: bm25(1.2, 0.75, 2, 2, 1, 5, avgdl),
    });
  });
});

describe('errors', () => {
  const create = (name: string, similarity: Record<string, unknown>) => t.request('PUT', `/${name}`, { settings: { similarity } });

  it('refuses bad similarity definitions with ES\'s and Lucene\'s messages', async () => {
    expectEsError(await create('sim-bad-1', { s: { type: 'nope' } }), 400, 'illegal_argument_exception', 'Unknown Similarity type [nope] for [s]');
    expectEsError(await create('sim-bad-2', { s: { k1: 1 } }), 400, 'illegal_argument_exception', 'Similarity [s] must have an associated type');
    expectEsError(await create('sim-bad-3', { s: { type: 'BM25', k1: -1 } }), 400, 'illegal_argument_exception',
      'illegal k1 value: -1.0, must be a non-negative finite value');
    expectEsError(await create('sim-bad-4', { s: { type: 'BM25', b: 2 } }), 400, 'illegal_argument_exception', 'illegal b value: 2.0, must be between 0 and 1');
    expectEsError(await create('sim-bad-5', { s: { type: 'BM25', k: 2 } }), 400, 'illegal_argument_exception',
      'Unknown settings for similarity of type [BM25]: [k]');
    expectEsError(await create('sim-bad-6', { BM25: { type: 'BM25' } }), 400, 'illegal_argument_exception', 'Cannot redefine built-in Similarity [BM25]');
  });

  it('the built-in names work without settings', async () => {
    const res = await t.request('PUT', '/sim-builtin', { mappings: { properties: { a: { type: 'text', similarity: 'boolean' }, b: { type: 'text', similarity: 'BM25' } } } });
    expect(res.status).toBe(200);
    await seed(t, 'sim-builtin', [['1', { a: 'x y', b: 'x y' }]]);
    expect(await scores('sim-builtin', { match: { a: 'x y' } })).toEqual({ 1: 2 });
  });
});
