/**
 * The `rank_feature` query on features of `rank_features` fields (ES RankFeatureQueryBuilder over
 * Lucene FeatureField): saturation (given pivot, and the default pivot from index statistics), log,
 * sigmoid and linear scores computed here with Java's float/double steps, boost, bool composition,
 * `positive_score_impact: false`, 1 vs 3 shards, and ES's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;
const f = Math.fround;
const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'red apple', topics: { sports: 4, politics: 1 }, inv: { age: 2 } }],
  ['2', { title: 'green apple', topics: { sports: 16 }, inv: { age: 8 } }],
  ['3', { title: 'apple pie', topics: { politics: 30 } }],
  ['4', { title: 'banana', topics: { sports: 1.5 } }],
];
const MAPPINGS = { properties: { title: { type: 'text' }, topics: { type: 'rank_features' }, inv: { type: 'rank_features', positive_score_impact: false } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['rf1', 1], ['rf3', 3]] as const) {
    expect((await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS })).status).toBe(200);
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

const search = (query: unknown, index = 'rf1') => t.request('POST', `/${index}/_search`, { query });
const hits = (res: TestResponse) => res.body.hits.hits.map((h: { _id: string; _score: number }) => [h._id, f(h._score)]);

/** What Lucene stores: the float's bits with the low 15 dropped. */
function stored(w: number): number {
  const a = new Float32Array([w]);
  new Uint32Array(a.buffer)[0] &= 0xffff8000;
  return a[0];
}
const codeOf = (w: number) => new Uint32Array(new Float32Array([w]).buffer)[0] >>> 15;
const saturation = (s: number, pivot: number, w = 1) => f(f(w) * f(1 - f(f(pivot) / f(stored(s) + f(pivot)))));

describe('rank_feature', () => {
  it('scores saturation with a given pivot: S / (S + pivot) in float', async () => {
    const res = await search({ rank_feature: { field: 'topics.sports', saturation: { pivot: 4 } } });
    expect(res.status).toBe(200);
    expect(hits(res)).toEqual([['2', saturation(16, 4)], ['1', saturation(4, 4)], ['4', saturation(1.5, 4)]]);
    expect(res.body.hits.total).toEqual({ value: 3, relation: 'eq' });
  });

  it('defaults to saturation with the pivot from index-wide statistics (mean stored code), the same with 1 or 3 shards', async () => {
    const codes = [4, 16, 1.5].map(codeOf);
    const avg = f(codes.reduce((a, b) => a + b, 0) / codes.length);
    const pivot = new Float32Array(new Uint32Array([Math.trunc(avg) << 15]).buffer)[0];
    const expected = [['2', saturation(16, pivot)], ['1', saturation(4, pivot)], ['4', saturation(1.5, pivot)]];
    for (const index of ['rf1', 'rf3']) expect(hits(await search({ rank_feature: { field: 'topics.sports' } }, index))).toEqual(expected);
  });

  it('scores log, sigmoid and linear as Lucene does, with boost', async () => {
    const log = await search({ rank_feature: { field: 'topics.politics', log: { scaling_factor: 2 }, boost: 3 } });
    expect(hits(log)).toEqual([['3', f(3 * Math.log(f(2 + stored(30))))], ['1', f(3 * Math.log(f(2 + stored(1))))]]);
    const sigmoid = await search({ rank_feature: { field: 'topics.sports', sigmoid: { pivot: 7, exponent: 0.6 } } });
    const sig = (s: number) => {
      const pa = Math.pow(7, f(0.6));
      return f(1 - pa / (Math.pow(stored(s), f(0.6)) + pa));
    };
    expect(hits(sigmoid)).toEqual([['2', sig(16)], ['1', sig(4)], ['4', sig(1.5)]]);
    const linear = await search({ rank_feature: { field: 'topics.sports', linear: {}, boost: 0.5 } });
    expect(hits(linear)).toEqual([['2', f(0.5 * stored(16))], ['1', f(0.5 * stored(4))], ['4', f(0.5 * stored(1.5))]]);
  });

  it('reads positive_score_impact: false fields as stored (the inverse), so smaller values rank higher', async () => {
    const res = await search({ rank_feature: { field: 'inv.age', linear: {} } });
    expect(hits(res)).toEqual([['1', stored(f(1 / 2))], ['2', stored(f(1 / 8))]]);
  });

  it('composes in bool: a text query boosted by a feature', async () => {
    const res = await search({ bool: { must: { match: { title: 'apple' } }, should: { rank_feature: { field: 'topics.sports', saturation: { pivot: 4 } } } } });
    const plain = await search({ match: { title: 'apple' } });
    const bm25 = new Map<string, number>(hits(plain));
    const expected = ['1', '2', '3'].map((id) => {
      const s = DOCS.find(([d]) => d === id)![1].topics as Record<string, number>;
      return [id, f(bm25.get(id)! + (s.sports === undefined ? 0 : saturation(s.sports, 4)))] as [string, number];
    }).sort((a, b) => b[1] - a[1]);
    expect(hits(res)).toEqual(expected);
  });

  it('matches nothing on an unmapped name, a missing feature, or a non-rank_features parent', async () => {
    for (const field of ['nope', 'topics.nope', 'title.x', 'nope.x']) {
      const res = await search({ rank_feature: { field } });
      expect(res.status).toBe(200);
      expect(res.body.hits.hits).toEqual([]);
    }
  });

  it("gives ES's errors", async () => {
    const onMapped = await search({ rank_feature: { field: 'title' } });
    expectErrorType(onMapped, 400, 'search_phase_execution_exception');
    expect(onMapped.body.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: 'failed to create query: [rank_feature] query only works on [rank_feature] fields and features of [rank_features] fields, not [text]',
    });
    for (const [fn, reason] of [
      [{ log: { scaling_factor: 0.5 } }, 'scalingFactor must be >= 1, got: 0.5'],
      [{ saturation: { pivot: 0 } }, 'pivot must be > 0, got: 0.0'],
      [{ sigmoid: { pivot: 2, exponent: -1 } }, 'exp must be > 0, got: -1.0'],
    ] as const) {
      const res = await search({ rank_feature: { field: 'topics.sports', ...fn } });
      expect(res.body.error.root_cause[0].reason).toBe(`failed to create query: ${reason}`);
    }
    expectErrorType(await search({ rank_feature: { field: 'topics.sports', log: { scaling_factor: 2 }, linear: {} } }), 400, 'illegal_argument_exception',
      'Can only specify one of [log], [saturation], [sigmoid] and [linear]');
    expectErrorType(await search({ rank_feature: { saturation: {} } }), 400, 'illegal_argument_exception', 'Required [field]');
    const unknown = await search({ rank_feature: { field: 'topics.sports', pivot: 3 } });
    expectErrorType(unknown, 400, 'x_content_parse_exception');
    expect(unknown.body.error.reason).toMatch(/\[feature\] unknown field \[pivot\]/);
    const missing = await search({ rank_feature: { field: 'topics.sports', sigmoid: { pivot: 2 } } });
    expectErrorType(missing, 400, 'x_content_parse_exception');
    expect(missing.body.error.reason).toMatch(/\[feature\] failed to parse field \[sigmoid\]/);
    expect(missing.body.error.caused_by.reason).toBe('Required [exponent]');
    expectErrorType(await search({ rank_feature: { field: 'topics.sports', log: 2 } }), 400, 'x_content_parse_exception');
    expectErrorType(await search({ rank_feature: 'topics.sports' }), 400, 'parsing_exception');
  });
});
