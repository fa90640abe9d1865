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

function shardPartial(index: InProcessIndex, aggsJson: unknown): CompositePartial {
  const aggs = planAggregations({
    mapping: index.resolved, defaultFields: [], maxRegexLength: DEFAULT_MAX_REGEX_LENGTH, stats: new SegmentStatsSource(index.segments), now: 0,
    index: { name: 'harness', uuid: 'harness' },
  }, parseAggregations(aggsJson));
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
