/**
 * The `buckets_path` syntax (ES AggregationPath.parse) and the pipelines' order at one level (ES
 * AggregatorFactories.Builder.resolvePipelineAggregatorOrder), below the HTTP tests.
 */
import { describe, expect, it } from 'vitest';
import { parseAggregationPath, pathAsStrings } from '../../../src/dsl/aggs/aggregation-path.js';
import { resolvePipelineOrder } from '../../../src/dsl/aggs/pipeline-validation.js';
import { parseAggregations } from '../../../src/dsl/aggs/registry.js';

describe('parseAggregationPath', () => {
  it('splits on >, reads a value after the last dot and keys in brackets, as ES does', () => {
    expect(pathAsStrings(parseAggregationPath('a>b>c.avg'))).toEqual(['a', 'b', 'c', 'avg']);
    expect(pathAsStrings(parseAggregationPath("sale_type['hat']>sales"))).toEqual(['sale_type', "'hat'", 'sales']);
    expect(pathAsStrings(parseAggregationPath('pcts[99.9]'))).toEqual(['pcts', '99.9']);
    expect(pathAsStrings(parseAggregationPath('a.b>c'))).toEqual(['a.b', 'c']);
    expect(pathAsStrings(parseAggregationPath(' a > b '))).toEqual(['a', 'b']);
    expect(pathAsStrings(parseAggregationPath('_count'))).toEqual(['_count']);
  });

  it('fails on a malformed element with ES\'s message', () => {
    expect(() => parseAggregationPath('a>.b')).toThrow('Invalid path element [.b] in path [a>.b]');
    expect(() => parseAggregationPath('a>b.')).toThrow('Invalid path element [b.] in path [a>b.]');
    expect(() => parseAggregationPath('a[]')).toThrow('Invalid path element [a[]] in path [a[]]');
    expect(() => parseAggregationPath('a[b')).toThrow('Invalid path element [a[b] in path [a[b]');
  });
});

describe('resolvePipelineOrder', () => {
  it('puts each pipeline after the ones it reads, else keeps the request order', () => {
    const level = parseAggregations({
      h: { histogram: { field: 'n', interval: 1 }, aggs: {
        c: { cumulative_sum: { buckets_path: 'd' } },
        s: { serial_diff: { buckets_path: '_count' } },
        d: { derivative: { buckets_path: 'm' } },
        m: { max: { field: 'n' } },
      } },
    });
    expect(resolvePipelineOrder(level[0].subs).map((p) => p.name)).toEqual(['d', 'c', 's']);
  });
});
