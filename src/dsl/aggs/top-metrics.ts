/**
 * `top_metrics` (ES TopMetricsAggregationBuilder, a ConstructingObjectParser): `sort` (exactly
 * one, required), `metrics` (one `{field, missing}` or a list, required) and `size` (default 1; its
 * bound, `index.top_metrics_max_size`, is checked when planning, per index, as ES's factory does).
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { intValue, mapItems } from '../parse-helpers.js';
import { parseSort, type SortSpec } from '../sort.js';
import type { AggNode, FieldConfig, TopMetricsAgg } from './agg-nodes.js';
import { parseAggBody } from './agg-parse.js';
import { parseFieldConfig } from './field-config.js';

export const DEFAULT_TOP_METRICS_SIZE = 1;

export function parseTopMetrics(name: string, body: unknown, subs: readonly AggNode[]): TopMetricsAgg {
  let sort: SortSpec[] | null = null;
  let size = DEFAULT_TOP_METRICS_SIZE;
  let metrics: FieldConfig[] | null = null;
  parseAggBody('top_metrics', body, {
    sort: (v) => { sort = parseSort(v); },
    size: (v) => { size = intValue(v); },
    metrics: (v) => { metrics = mapItems(v, (m) => parseFieldConfig('top_metrics', 'metrics', m)); },
  });
  // ConstructingObjectParser: the required arguments, then the builder's own checks.
  const missing = [sort === null ? 'sort' : null, metrics === null ? 'metrics' : null].filter((m) => m !== null);
  if (missing.length > 0) throw new IllegalArgumentError(`Required [${missing.join(', ')}]`);
  if (size < 1) throw new IllegalArgumentError(`[size] must be more than 0 but was [${size}]`);
  const sorts: SortSpec[] = sort!;
  if (sorts.length !== 1) throw new IllegalArgumentError('[sort] must contain exactly one sort');
  return { kind: 'top_metrics', name, subs, sort: sorts[0], size, metrics: metrics! };
}
