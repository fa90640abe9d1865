/**
 * `multi_terms` (ES MultiTermsAggregationBuilder): `terms` (2 to 128 `{field, missing}`), `size`,
 * `shard_size`, `min_doc_count` (at least 1), `shard_min_doc_count`, `order`,
 * `show_term_doc_count_error`, `collect_mode`. Setters' failures are wrapped as ObjectParser wraps
 * them ("[multi_terms] failed to parse field [x]").
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { booleanValue, fieldError, intValue, mapItems, parsingField, readString } from '../parse-helpers.js';
import type { AggNode, FieldConfig, MultiTermsAgg, TermsOrder } from './agg-nodes.js';
import { parseAggBody } from './agg-parse.js';
import { parseFieldConfig } from './field-config.js';
import { DEFAULT_TERMS_SIZE, parseOrderEntry } from './terms.js';

/** MultiTermsAggregationBuilder.MAX_TERMS_SIZE. */
export const MAX_MULTI_TERMS = 128;

/** XContentParser.longValue() for the count members: an integral value, else the int parser's errors. */
function longValue(v: unknown): number {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  return intValue(v);
}

export function parseMultiTerms(name: string, body: unknown, subs: readonly AggNode[]): MultiTermsAgg {
  let terms: FieldConfig[] | null = null;
  let size = DEFAULT_TERMS_SIZE;
  let shardSize: number | null = null;
  let minDocCount = 1;
  let order: TermsOrder[] = [{ key: '_count', desc: true }];
  let showTermDocCountError = false;
  const check = (field: string, ok: boolean, reason: string): void => {
    if (!ok) throw fieldError('multi_terms', field, reason);
  };
  parseAggBody('multi_terms', body, {
    terms: (v) => {
      const list = mapItems(v, (t) => parseFieldConfig('multi_terms', 'terms', t));
      check('terms', list.length >= 2, `The [terms] parameter in the aggregation [${name}] must be present and have at least 2 fields or scripts.${list.length === 1 ? ' For a single field user terms aggregation.' : ''}`);
      check('terms', list.length <= MAX_MULTI_TERMS, `The [terms] parameter in the aggregation [${name}] cannot have more than ${MAX_MULTI_TERMS} fields or scripts. Found [${list.length}].`);
      terms = list;
    },
    size: (v) => {
      size = parsingField('multi_terms', 'size', () => intValue(v));
      check('size', size > 0, `[size] must be greater than 0. Found [${size}] in [${name}]`);
    },
    shard_size: (v) => {
      shardSize = parsingField('multi_terms', 'shard_size', () => intValue(v));
      check('shard_size', shardSize > 0, `[shardSize] must be greater than 0. Found [${shardSize}] in [${name}]`);
    },
    min_doc_count: (v) => {
      minDocCount = parsingField('multi_terms', 'min_doc_count', () => longValue(v));
      check('min_doc_count', minDocCount >= 1, `[minDocCount] must be greater than or equal to 1. Found [${minDocCount}] in [${name}]`);
    },
    shard_min_doc_count: (v) => {
      const n = parsingField('multi_terms', 'shard_min_doc_count', () => longValue(v));
      check('shard_min_doc_count', n >= 0, `[shardMinDocCount] must be greater than or equal to 0. Found [${n}] in [${name}]`);
    },
    order: (v) => { order = mapItems(v, (o) => parseOrderEntry(name, o)); },
    show_term_doc_count_error: (v) => { showTermDocCountError = parsingField('multi_terms', 'show_term_doc_count_error', () => booleanValue(v)); },
    collect_mode: (v) => {
      const mode = readString('multi_terms', 'collect_mode', v);
      if (mode !== 'depth_first' && mode !== 'breadth_first') throw new IllegalArgumentError(`Unknown \`collect_mode\` [${mode}]`);
    },
  });
  if (terms === null) throw new IllegalArgumentError(`The [terms] parameter in the aggregation [${name}] must be present and have at least 2 fields or scripts.`);
  // As terms: a count order ends with the key ascending, so ties come out in a stable order.
  if (!order.some((o) => o.key === '_key')) order = [...order, { key: '_key', desc: false }];
  return { kind: 'multi_terms', name, subs, terms, size, shardSize, order, minDocCount, showTermDocCountError };
}
