/**
 * `weighted_avg` (ES WeightedAvgAggregationBuilder): a `value` and a `weight` source, each
 * `{field, missing}`. Whether both are given is checked when planning, as ES checks it when it
 * builds the aggregator; `format` (a Java DecimalFormat) and `value_type` are refused.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { AggNode, FieldConfig, WeightedAvgAgg } from './agg-nodes.js';
import { parseAggBody } from './agg-parse.js';
import { parseFieldConfig } from './field-config.js';

export function parseWeightedAvg(name: string, body: unknown, subs: readonly AggNode[]): WeightedAvgAgg {
  let value: FieldConfig | null = null;
  let weight: FieldConfig | null = null;
  parseAggBody('weighted_avg', body, {
    value: (v) => { value = parseFieldConfig('weighted_avg', 'value', v); },
    weight: (v) => { weight = parseFieldConfig('weighted_avg', 'weight', v); },
    format: () => { throw new IllegalArgumentError('[format] of [weighted_avg] aggregations is not supported by this server yet'); },
  });
  return { kind: 'weighted_avg', name, subs, value, weight };
}
