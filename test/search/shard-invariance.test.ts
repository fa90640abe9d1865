/**
 * Index-wide statistics make results independent of sharding: for random documents and random
 * queries, an index with 1 shard and indices with 3 and 8 shards return the same ids, in the same
 * order, with the same scores (within float tolerance) and the same totals — through the whole
 * server (routing, refresh in workers, per-shard query phase, coordinator merge); collapsed on a
 * keyword and on a numeric field, the same groups with the same best hits.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi'];
const word = fc.integer({ min: 0, max: 999 }).map((u) => WORDS[Math.floor(((u / 1000) ** 2) * WORDS.length)]);
const text = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((w) => w.join(' '));

const doc = fc.record({
  title: text(1, 6),
  body: text(3, 40),
  tag: fc.constantFrom('red', 'green', 'blue', 'black'),
  year: fc.integer({ min: 1990, max: 2025 }),
});

const query: fc.Arbitrary<unknown> = fc.oneof(
  text(1, 4).map((q) => ({ match: { body: q } })),
  text(1, 3).map((q) => ({ match: { body: { query: q, operator: 'and' } } })),
  text(2, 4).map((q) => ({ match: { body: { query: q, minimum_should_match: '60%' } } })),
  text(1, 3).map((q) => ({ multi_match: { query: q, fields: ['title^2', 'body'] } })),
  text(1, 3).map((q) => ({ multi_match: { query: q, fields: ['title', 'body'], type: 'most_fields' } })),
  text(1, 3).map((q) => ({ multi_match: { query: q, fields: ['title', 'body'], type: 'cross_fields', tie_breaker: 0.3 } })),
  text(2, 2).map((q) => ({ match_phrase: { body: { query: q, slop: 1 } } })),
  fc.tuple(text(1, 3), fc.constantFrom('red', 'green', 'blue'), fc.integer({ min: 1990, max: 2025 })).map(([q, tag, year]) => ({
    bool: { must: [{ match: { body: q } }], should: [{ term: { tag } }], filter: [{ range: { year: { gte: year } } }] },
  })),
  fc.tuple(word, word).map(([a, b]) => ({ query_string: { query: `${a} OR title:${b}`, default_field: 'body' } })),
  fc.tuple(word, word).map(([a, b]) => ({ bool: { should: [{ term: { body: a } }, { term: { title: b } }], must_not: [{ term: { tag: 'black' } }] } })),
);

describe('shard-count invariance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ threads: 2 });
  });
  afterAll(async () => t.close());

  it('gives the same hits, order, scores and totals with 1, 3 and 8 shards', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { minLength: 5, maxLength: 150 }), fc.array(query, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 30 }), async (docs, queries, size) => {
        round++;
        const names = [1, 3, 8].map((shards) => ({ shards, name: `inv-${round}-${shards}` }));
        for (const { shards, name } of names) {
          const created = await t.request('PUT', `/${name}`, {
            settings: { number_of_shards: shards },
            mappings: { properties: { title: { type: 'text' }, body: { type: 'text' }, tag: { type: 'keyword' }, year: { type: 'integer' } } },
          });
          expect(created.status).toBe(200);
          const lines = docs.flatMap((d, i) => [{ index: { _index: name, _id: String(i) } }, d]);
          const bulk = await t.bulk('/_bulk', lines, '?refresh=true');
          expect(bulk.body.errors).toBe(false);
        }
        for (const q of queries) {
          const results = [];
          for (const { name } of names) {
            const res = await t.request('POST', `/${name}/_search`, { query: q, size, track_total_hits: true });
            expect(res.status).toBe(200);
            results.push(res.body.hits);
          }
          const [one, ...others] = results;
          for (const other of others) {
            expect(other.total).toEqual(one.total);
            expect(other.hits.map((h: any) => h._id)).toEqual(one.hits.map((h: any) => h._id));
            other.hits.forEach((h: any, i: number) => expect(h._score).toBeCloseTo(one.hits[i]._score, 5));
          }
          // Collapsed: each shard's top groups merged give the same groups and best hits.
          for (const collapse of [{ field: 'tag' }, { field: 'year' }]) {
            const collapsed = [];
            for (const { name } of names) {
              const res = await t.request('POST', `/${name}/_search`, { query: q, size, collapse, _source: false });
              expect(res.status).toBe(200);
              collapsed.push(res.body.hits.hits.map((h: any) => [h._id, h.fields]));
            }
            for (const other of collapsed.slice(1)) expect(other).toEqual(collapsed[0]);
          }
        }
        for (const { name } of names) await t.request('DELETE', `/${name}`);
      }),
      { numRuns: 25, seed: 42 },
    );
  });
});
