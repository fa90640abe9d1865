/**
 * `weighted_avg` (ES WeightedAvgAggregator / InternalWeightedAvg): Σ(value × weight) / Σ weight over
 * the matching docs that have a value and a weight (`missing` stands in for either). Each value of
 * a multi-valued field counts with the doc's weight; a doc with several weights fails the shard, as
 * in ES. The partial is a metric's: `sum` holds Σ value × weight and `weightSum` Σ weight, which
 * the metrics' reduce adds up.
 */
import type { Segment } from '../../index/index.js';
import { AggregationExecutionError } from '../../errors/index.js';
import type { ExecMetric, MetricPartial } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import { segmentValues } from './field-values.js';
import { CompensatedSum } from './compensated-sum.js';

export function collectWeightedAvg(agg: ExecMetric, segments: readonly Segment[], docs: DocLists): MetricPartial {
  const weightSource = agg.weight!;
  const sum = new CompensatedSum();
  const weights = new CompensatedSum();
  let count = 0;
  const valueMissing = typeof agg.source.missing === 'number' ? agg.source.missing : null;
  const weightMissing = typeof weightSource.missing === 'number' ? weightSource.missing : null;
  for (let s = 0; s < segments.length; s++) {
    const list = docs[s];
    const values = segmentValues(segments[s], agg.source);
    const weighting = segmentValues(segments[s], weightSource);
    for (let i = 0; i < list.length; i++) {
      const doc = list[i];
      const vStart = values.offsets && values.numbers ? values.offsets[doc] : 0;
      const vEnd = values.offsets && values.numbers ? values.offsets[doc + 1] : 0;
      if (vStart === vEnd && valueMissing === null) continue;
      const wStart = weighting.offsets && weighting.numbers ? weighting.offsets[doc] : 0;
      const wEnd = weighting.offsets && weighting.numbers ? weighting.offsets[doc + 1] : 0;
      if (wEnd - wStart > 1) {
        // A plain AggregationExecutionException: a 500 in ES.
        throw new AggregationExecutionError('Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.', 500);
      }
      const weight = wStart < wEnd ? weighting.numbers![wStart] : weightMissing;
      if (weight === null) continue;
      if (vStart === vEnd) {
        sum.add(valueMissing! * weight);
        weights.add(weight);
        count++;
        continue;
      }
      for (let j = vStart; j < vEnd; j++) {
        sum.add(values.numbers![j] * weight);
        weights.add(weight);
        count++;
      }
    }
  }
  return { kind: 'metric', count, sum: sum.value, min: Infinity, max: -Infinity, sumOfSquares: 0, distinct: null, weightSum: weights.value };
}
