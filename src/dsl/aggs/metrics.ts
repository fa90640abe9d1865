/**
 * Metric aggregations over one field (ES min, max, avg, sum, value_count, cardinality, `stats`,
 * which reports the first five at once, and `extended_stats`, which adds the variance and standard
 * deviation): a field and an optional `missing`. `cardinality` is exact here, so `precision_threshold` is accepted and
 * checked but changes nothing.
 */
import { IllegalArgumentError, XContentParseError } from '../../errors/index.js';
import { doubleValue, intValue, readString } from '../parse-helpers.js';
import type { AggNode, MetricAgg, MetricKind } from './agg-nodes.js';
import { parseAggBody, readField, readMissing, requireField } from './agg-parse.js';

export function parseMetric(kind: MetricKind, name: string, body: unknown, subs: readonly AggNode[]): MetricAgg {
  let field: string | null = null;
  let missing: MetricAgg['missing'] = null;
  const handlers: Record<string, (v: unknown) => void> = {
    field: (v) => { field = readField(kind, v); },
    missing: (v) => { missing = readMissing(kind, v); },
    format: () => { throw new IllegalArgumentError(`[format] of [${kind}] aggregations is not supported by this server yet`); },
  };
  if (kind === 'cardinality') {
    handlers.precision_threshold = (v) => {
      const n = intValue(v);
      if (n < 0) throw new XContentParseError('[cardinality] failed to parse field [precision_threshold]', new IllegalArgumentError(`[precisionThreshold] must be greater than or equal to 0. Found [${n}] in [${name}]`));
    };
    handlers.execution_hint = (v) => { readString(kind, 'execution_hint', v); };
  }
  let sigma: number | undefined;
  if (kind === 'extended_stats') {
    handlers.sigma = (v) => {
      sigma = doubleValue(v);
      if (!(sigma >= 0)) throw new IllegalArgumentError(`[sigma] must be greater than or equal to 0. Found [${sigma}] in [${name}]`);
    };
  }
  parseAggBody(kind, body, handlers);
  return kind === 'extended_stats' ? { kind, name, subs, field: requireField(field), missing, sigma: sigma ?? 2 } : { kind, name, subs, field: requireField(field), missing };
}
