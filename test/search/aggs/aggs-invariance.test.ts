/**
 * Aggregations do not depend on sharding and count what a brute-force pass over the documents
 * counts: random documents (multi-valued keywords, numbers, some deleted, several refreshes so
 * shards hold several segments) in indices of 1, 3 and 8 shards, random queries and post filters;
 * terms, range, histogram, filter, metrics (percentiles and median_absolute_deviation too) and a sub-aggregation must agree everywhere,
 * and paging a composite aggregation with after_key must give every brute-force bucket once, in order.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const TAGS = ['red', 'green', 'blue', 'black', 'white'];
interface Doc { tag: string[]; price: number[] }
const docArb = fc.record({
  tag: fc.array(fc.constantFrom(...TAGS), { maxLength: 3 }),
  price: fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 3 }),
});

let t: TestApp;
let docs: Doc[];
const deleted = new Set<number>();
const INDICES = ['inv1', 'inv3', 'inv8'];

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  docs = fc.sample(docArb, { numRuns: 300, seed: 42 });
  for (const [i, name] of INDICES.entries()) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: [1, 3, 8][i] }, mappings: { properties: { tag: { type: 'keyword' }, price: { type: 'long' } } } });
  }
  // Three batches, each refreshed: several segments per shard; then deletes.
  for (let from = 0; from < docs.length; from += 100) {
    const lines: unknown[] = [];
    for (let d = from; d < from + 100; d++) for (const name of INDICES) lines.push({ index: { _index: name, _id: String(d) } }, docs[d]);
    expect((await t.bulk('/_bulk', lines, '?refresh=true')).body.errors).toBe(false);
  }
  const lines: unknown[] = [];
  for (let d = 0; d < docs.length; d += 7) {
    deleted.add(d);
    for (const name of INDICES) lines.push({ delete: { _index: name, _id: String(d) } });
  }
  expect((await t.bulk('/_bulk', lines, '?refresh=true')).body.errors).toBe(false);
}, 60_000);
afterAll(async () => t.close());

/** The brute-force terms buckets (count then key) of docs matching `keep`. */
function bruteTerms(keep: (d: Doc) => boolean): Array<{ key: string; doc_count: number }> {
  const counts = new Map<string, number>();
  docs.forEach((d, i) => {
    if (deleted.has(i) || !keep(d)) return;
    for (const tag of new Set(d.tag)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  });
  return [...counts].map(([key, doc_count]) => ({ key, doc_count })).sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : 1));
}

/** ES's exact percentile of a small sample (its Dist.quantile): linear interpolation at q·(n−1); null when empty. */
function bruteQuantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const index = q * (sorted.length - 1);
  const low = Math.floor(index);
  return low >= sorted.length - 1 ? sorted[sorted.length - 1] : sorted[low] + (index - low) * (sorted[low + 1] - sorted[low]);
}

describe('aggregations over random documents', () => {
  it('agree across 1, 3 and 8 shards and with a brute-force count', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...TAGS), fc.integer({ min: 0, max: 99 }), fc.constantFrom(...TAGS), async (qTag, limit, pfTag) => {
      const body = {
        size: 3,
        query: { bool: { should: [{ term: { tag: qTag } }, { range: { price: { lt: limit } } }] } },
        post_filter: { term: { tag: pfTag } },
        aggs: {
          tags: { terms: { field: 'tag' }, aggs: { avg: { avg: { field: 'price' } } } },
          prices: { range: { field: 'price', ranges: [{ to: 25 }, { from: 25, to: 75 }, { from: 75 }] } },
          hist: { histogram: { field: 'price', interval: 20 } },
          stats: {
            filter: { term: { tag: pfTag } },
            aggs: {
              max: { max: { field: 'price' } }, n: { value_count: { field: 'price' } }, c: { cardinality: { field: 'price' } },
              pct: { percentiles: { field: 'price', percents: [0, 10, 50, 90, 100], keyed: false } },
              mad: { median_absolute_deviation: { field: 'price' } },
            },
          },
        },
      };
      const [one, ...others] = await Promise.all(INDICES.map((name) => t.request('POST', `/${name}/_search`, body)));
      expect(one.status).toBe(200);
      for (const o of others) {
        expect(o.body.aggregations).toEqual(one.body.aggregations);
        expect(o.body.hits.total).toEqual(one.body.hits.total);
      }
      const matches = (d: Doc) => d.tag.includes(qTag) || d.price.some((p) => p < limit);
      expect(one.body.aggregations.tags.buckets.map((b: { key: string; doc_count: number }) => ({ key: b.key, doc_count: b.doc_count }))).toEqual(bruteTerms(matches));
      const live = docs.filter((d, i) => !deleted.has(i) && matches(d));
      expect(one.body.hits.total.value).toBe(live.filter((d) => d.tag.includes(pfTag)).length);
      expect(one.body.aggregations.prices.buckets.map((b: { doc_count: number }) => b.doc_count)).toEqual(
        [[-Infinity, 25], [25, 75], [75, Infinity]].map(([lo, hi]) => live.filter((d) => d.price.some((p) => p >= lo && p < hi)).length),
      );
      const inFilter = live.filter((d) => d.tag.includes(pfTag));
      const prices = inFilter.flatMap((d) => d.price);
      expect(one.body.aggregations.stats).toEqual({
        doc_count: inFilter.length, max: { value: prices.length ? Math.max(...prices) : null }, n: { value: prices.length }, c: { value: new Set(prices).size },
        pct: { values: [0, 10, 50, 90, 100].map((key) => ({ key, value: bruteQuantile(prices, key / 100) })) },
        mad: { value: prices.length ? bruteQuantile(prices.map((p) => Math.abs(bruteQuantile(prices, 0.5)! - p)), 0.5) : null },
      });
    }), { numRuns: 12, seed: 7 });
  }, 60_000);
});

/** Brute-force composite buckets of (tag, price histogram 20) over docs matching `keep`, tags descending, missing tags last. */
function bruteComposite(keep: (d: Doc) => boolean): Array<{ key: { tag: string | null; p: number }; doc_count: number }> {
  const counts = new Map<string, number>();
  docs.forEach((d, i) => {
    if (deleted.has(i) || !keep(d)) return;
    const tags: Array<string | null> = d.tag.length === 0 ? [null] : [...new Set(d.tag)];
    const ps = [...new Set(d.price.map((p) => Math.floor(p / 20) * 20))];
    for (const tag of tags) for (const p of ps) counts.set(JSON.stringify([tag, p]), (counts.get(JSON.stringify([tag, p])) ?? 0) + 1);
  });
  const order = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? 1 : -1);
  return [...counts]
    .map(([k, doc_count]) => { const [tag, p] = JSON.parse(k) as [string | null, number]; return { key: { tag, p }, doc_count }; })
    .sort((x, y) => order(x.key.tag, y.key.tag) || x.key.p - y.key.p);
}

describe('composite over random documents', () => {
  it('pages every bucket once, in order, identically on 1, 3 and 8 shards', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...TAGS), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 7 }), async (qTag, limit, size) => {
      const query = { bool: { should: [{ term: { tag: qTag } }, { range: { price: { lt: limit } } }] } };
      const sources = [
        { tag: { terms: { field: 'tag', order: 'desc', missing_bucket: true } } },
        { p: { histogram: { field: 'price', interval: 20 } } },
      ];
      const pages = await Promise.all(INDICES.map(async (name) => {
        const seen: unknown[] = [];
        let after: unknown;
        for (let page = 0; page < 100; page++) {
          const res = await t.request('POST', `/${name}/_search`, { size: 0, query, aggs: { c: { composite: { size, sources, ...(after === undefined ? {} : { after }) } } } });
          expect(res.status).toBe(200);
          const c = res.body.aggregations.c;
          if (c.buckets.length === 0) return seen;
          seen.push(...c.buckets);
          after = c.after_key;
        }
        return seen;
      }));
      const expected = bruteComposite((d) => d.tag.includes(qTag) || d.price.some((p) => p < limit));
      for (const seen of pages) expect(seen).toEqual(expected);
    }), { numRuns: 8, seed: 11 });
  }, 60_000);
});
