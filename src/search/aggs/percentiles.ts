/**
 * The t-digest metrics: `percentiles`, `percentile_ranks` and `median_absolute_deviation` (ES
 * TDigestPercentilesAggregator, TDigestPercentileRanksAggregator, MedianAbsoluteDeviationAggregator
 * and their Internal… results): every value of every matching doc goes into the bucket's digest
 * (tdigest.ts), `missing` standing in for docs without one; the coordinator merges the shards'
 * digests and computes each key's value, or the one deviation.
 */
import type { Segment } from '../../index/index.js';
import type { DocLists } from './doc-lists.js';
import type { ExecPercentiles, PercentilesPartial } from './exec-aggs.js';
import { forEachNumericValues } from './field-values.js';
import { formatAsString, javaDouble } from './key-format.js';
import { DigestBuilder, medianAbsoluteDeviation, percentileRank, quantile, reduceDigests } from './tdigest.js';

export function collectPercentiles(agg: ExecPercentiles, segments: readonly Segment[], docs: DocLists): PercentilesPartial {
  const digest = new DigestBuilder(agg.compression);
  forEachNumericValues(segments, docs, agg.source, (values, start, end) => {
    for (let i = start; i < end; i++) digest.add(values[i]);
  });
  return digest.build();
}

export function reducePercentiles(agg: ExecPercentiles, parts: readonly PercentilesPartial[]): PercentilesPartial {
  return reduceDigests(parts, agg.compression);
}

/** A key's value: the percentile at `key` percent, or the percent of values at or below `key`. */
function valueAt(agg: ExecPercentiles, digest: PercentilesPartial, key: number): number {
  return agg.type === 'percentiles' ? quantile(digest, key / 100) : percentileRank(digest, key);
}

/** The value a bucket order path names (`p.50`, `ranks.99`, `mad`); NaN when the digest is empty, as ES's. */
export function percentilesSortValue(agg: ExecPercentiles, digest: PercentilesPartial, key: number | undefined): number {
  if (digest.count === 0) return NaN;
  return agg.type === 'median_absolute_deviation' ? medianAbsoluteDeviation(digest) : valueAt(agg, digest, key!);
}

/**
 * AbstractInternalTDigestPercentiles.doXContentBody: `values` keyed by Java's Double.toString of
 * each key ("50.0"), or a list of `{key, value}`; values null when no value was collected;
 * `_as_string` forms for formatted fields (dates, booleans).
 */
export function renderPercentiles(agg: ExecPercentiles, digest: PercentilesPartial): Record<string, unknown> {
  const empty = digest.count === 0;
  if (agg.type === 'median_absolute_deviation') {
    // InternalMedianAbsoluteDeviation.doXContentBody: `value`, null when nothing was collected.
    const value = empty ? null : medianAbsoluteDeviation(digest);
    const asString = value === null ? null : formatAsString(agg.source, value);
    return asString === null ? { value } : { value, value_as_string: asString };
  }
  const entries = agg.keys.map((key) => {
    const value = empty ? null : valueAt(agg, digest, key);
    return { key, value, asString: value === null ? null : formatAsString(agg.source, value) };
  });
  if (!agg.keyed) return { values: entries.map(({ key, value, asString }) => (asString === null ? { key, value } : { key, value, value_as_string: asString })) };
  const values: Record<string, unknown> = {};
  for (const { key, value, asString } of entries) {
    const name = javaDouble(key);
    values[name] = value;
    if (asString !== null) values[`${name}_as_string`] = asString;
  }
  return { values };
}
