/**
 * A shard's composite partial holds at most `size` buckets, however many keys its docs have (ES's
 * CompositeValuesCollectorQueue): the first `size` keys after `after`, in key order, with their
 * exact counts and their own sub-aggregation partials only.
 */
import { describe, expect, it } from 'vitest';
import { parseAggregations } from '../../../src/dsl/aggs/registry.js';
import { planAggregations, type CompositePartial } from '../../../src/search/index.js';
import { DEFAULT_MAX_REGEX_LENGTH } from '../../../src/common/pattern/index.js';
import { SegmentStatsSource } from '../../../src/search/index.js';
import { InProcessIndex } from '../../support/engine-harness.js';
import { IllegalArgumentError } from '../../../src/errors/index.js';
import { MAX_EXTRA_KEY_STEPS } from '../../../src/search/aggs/plan-composite.js';

function shardPartial(index: InProcessIndex, aggsJson: unknown, maxExtraKeySteps?: number): CompositePartial {
  const planned = planAggregations({
    mapping: index.resolved, defaultFields: [], maxRegexLength: DEFAULT_MAX_REGEX_LENGTH, stats: new SegmentStatsSource(index.segments), now: 0,
    index: { name: 'harness', uuid: 'harness' },
  }, parseAggregations(aggsJson));
  const aggs = maxExtraKeySteps === undefined ? planned : planned.map((a) => ({ ...a, maxExtraKeySteps }));
  const result = index.searchPlan(index.plan({ match_all: {} }), { aggs: { aggs, query: index.plan({ match_all: {} }) } });
  return result.aggs![0] as CompositePartial;
}

describe('composite on one shard', () => {
  const index = new InProcessIndex({ properties: { n: { type: 'long' }, tag: { type: 'keyword' } } });
  // 3 segments, 3,000 docs, 1,000 distinct n values (each 3 times), two tags per doc.
  for (let seg = 0; seg < 3; seg++) {
    index.addSegment(Array.from({ length: 1000 }, (_, i) => ({ id: `${seg}-${i}`, source: { n: (i * 7919) % 1000, tag: [`t${i % 3}`, `u${i % 5}`] } })));
  }

  it('keeps only the first size keys after after, with exact counts', () => {
    const p = shardPartial(index, { c: { composite: { size: 4, after: { n: 500 }, sources: [{ n: { terms: { field: 'n' } } }] } } });
    expect(p.keys).toEqual([[501], [502], [503], [504]]);
    expect(p.counts).toEqual([3, 3, 3, 3]);
    expect(p.subs).toEqual([]);
  });

  it('orders multi-valued combinations and collects sub-aggregations for the kept buckets only', () => {
    const p = shardPartial(index, {
      c: { composite: { size: 3, sources: [{ tag: { terms: { field: 'tag', order: 'desc' } } }, { n: { histogram: { field: 'n', interval: 100 } } }] }, aggs: { m: { max: { field: 'n' } } } },
    });
    expect(p.keys).toEqual([['u4', 0], ['u4', 100], ['u4', 200]]);
    expect(p.counts).toEqual([60, 60, 60]);
    expect(p.subs.length).toBe(3);
    expect(p.subs.map((s) => (s[0] as { max: number }).max)).toEqual([96, 196, 296]);
  });
});

describe('composite over multi-valued sources', () => {
  // 20 docs, each with 16 values in one keyword field: four sources on it make 65,536 keys per doc.
  const index = new InProcessIndex({ properties: { v: { type: 'keyword' } } });
  index.addSegment(Array.from({ length: 20 }, (_, d) => ({ id: `d${d}`, source: { v: Array.from({ length: 16 }, (_, i) => `v${(i * 7 + d) % 40}`) } })));
  const body = { c: { composite: { size: 65536, sources: ['a', 'b', 'c', 'd'].map((name) => ({ [name]: { terms: { field: 'v' } } })) } } };

  it('plans the bound on key steps past one value per source', () => {
    const aggs = planAggregations({
      mapping: index.resolved, defaultFields: [], maxRegexLength: DEFAULT_MAX_REGEX_LENGTH, stats: new SegmentStatsSource(index.segments), now: 0,
      index: { name: 'harness', uuid: 'harness' },
    }, parseAggregations(body));
    expect((aggs[0] as { maxExtraKeySteps: number }).maxExtraKeySteps).toBe(MAX_EXTRA_KEY_STEPS);
  });

  it('fails the shard with a clear 400 once a pass takes more key steps than the bound, instead of walking every combination', () => {
    let error: unknown = null;
    try {
      shardPartial(index, body, 100_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IllegalArgumentError);
    expect((error as IllegalArgumentError).status).toBe(400);
    expect((error as Error).message).toBe('[composite] aggregation [c] would combine more than [100000] values of multi-valued sources on a shard: narrow the query, lower [size] or use fewer multi-valued sources');
  });

  it('single-valued docs never count against it', () => {
    const single = new InProcessIndex({ properties: { n: { type: 'long' }, t: { type: 'keyword' } } });
    single.addSegment(Array.from({ length: 500 }, (_, i) => ({ id: `s${i}`, source: { n: i, t: `t${i % 7}` } })));
    const p = shardPartial(single, { c: { composite: { size: 1000, sources: [{ t: { terms: { field: 't' } } }, { n: { terms: { field: 'n' } } }] } } }, 0);
    expect(p.counts.length).toBe(500);
  });
});
