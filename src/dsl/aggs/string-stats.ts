/**
 * `string_stats` (ES StringStatsAggregationBuilder): `field` (a keyword), `missing`,
 * `show_distribution`. `format` (a Java DecimalFormat for its `_as_string` values) is refused.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { booleanValue, parsingField } from '../parse-helpers.js';
import type { AggNode, StringStatsAgg } from './agg-nodes.js';
import { parseAggBody, readField, readMissing, requireField } from './agg-parse.js';

export function parseStringStats(name: string, body: unknown, subs: readonly AggNode[]): StringStatsAgg {
  let field: string | null = null;
  let missing: StringStatsAgg['missing'] = null;
  let showDistribution = false;
  parseAggBody('string_stats', body, {
    field: (v) => { field = readField('string_stats', v); },
    missing: (v) => { missing = readMissing('string_stats', v); },
    show_distribution: (v) => { showDistribution = parsingField('string_stats', 'show_distribution', () => booleanValue(v)); },
    format: () => { throw new IllegalArgumentError('[format] of [string_stats] aggregations is not supported by this server yet'); },
  });
  return { kind: 'string_stats', name, subs, field: requireField(field), missing, showDistribution };
}
