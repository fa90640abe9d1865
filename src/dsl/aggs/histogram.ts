/**
 * `histogram` (ES HistogramAggregationBuilder): fixed-width buckets `floor((v - offset) / interval)`,
 * `min_doc_count` (default 0: empty buckets fill the gaps between the first and last key),
 * `keyed`, `order` by `_key`/`_count`.
 */
import { IllegalArgumentError, XContentParseError } from '../../errors/index.js';
import { booleanValue, doubleValue, intValue } from '../parse-helpers.js';
import type { AggNode, HistogramAgg, TermsOrder } from './agg-nodes.js';
import { parseAggBody, readField, readFirstOrder } from './agg-parse.js';
import { parseOrderEntry } from './terms.js';

export function parseHistogram(name: string, body: unknown, subs: readonly AggNode[]): HistogramAgg {
  let field: string | null = null;
  let interval = 0;
  let offset = 0;
  let minDocCount = 0;
  let keyed = false;
  let order: TermsOrder = { key: '_key', desc: false };
  let missing: number | null = null;
  parseAggBody('histogram', body, {
    field: (v) => { field = readField('histogram', v); },
    interval: (v) => {
      interval = doubleValue(v);
      if (!(interval > 0) || !Number.isFinite(interval)) {
        throw new XContentParseError('[histogram] failed to parse field [interval]', new IllegalArgumentError(`[interval] must be >0 for histogram aggregation [${name}]`));
      }
    },
    offset: (v) => { offset = doubleValue(v); },
    min_doc_count: (v) => {
      minDocCount = intValue(v);
      if (minDocCount < 0) {
        throw new XContentParseError('[histogram] failed to parse field [min_doc_count]', new IllegalArgumentError(`[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`));
      }
    },
    keyed: (v) => { keyed = booleanValue(v); },
    order: (v) => {
      order = readFirstOrder(v, (o) => parseOrderEntry(name, o), order);
      if (order.key !== '_key' && order.key !== '_count') throw new IllegalArgumentError(`ordering [histogram] buckets by a sub-aggregation is not supported by this server yet`);
    },
    missing: (v) => { missing = doubleValue(v); },
  });
  if (field === null) throw new IllegalArgumentError('Required one of fields [field, script], but none were specified. ');
  // HistogramAggregationBuilder.doBuild: an interval must have been given.
  if (interval === 0) throw new IllegalArgumentError(`[interval] must be >0 for histogram aggregation [${name}]`);
  return { kind: 'histogram', name, subs, field, interval, offset, minDocCount, keyed, order, missing };
}
