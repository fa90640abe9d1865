/**
 * `terms` (ES TermsAggregationBuilder): size, shard_size, order by `_count`/`_key`, min_doc_count,
 * missing. Builder setters reject bad sizes with IllegalArgumentException, which ObjectParser wraps
 * as "[terms] failed to parse field [x]".
 */
import { compileRegexp } from '../../common/pattern/index.js';
import { IllegalArgumentError, ParsingError, XContentParseError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { forEachEntry, intValue, isObject, mapItems, readString } from '../parse-helpers.js';
import type { AggNode, TermsAgg, TermsFilter, TermsOrder } from './agg-nodes.js';
import { parseAggBody, readField, readMissing, requireField } from './agg-parse.js';

export const DEFAULT_TERMS_SIZE = 10;

/** ES's `[<name>] must be …` setters, wrapped as ObjectParser wraps a failing setter. */
function checked(type: string, field: string, ok: boolean, reason: string): void {
  if (!ok) throw new XContentParseError(`[${type}] failed to parse field [${field}]`, new IllegalArgumentError(reason));
}

/** One `{ "<key>": "asc|desc" }` (InternalOrder.Parser); `_term` is the old name of `_key`. */
export function parseOrderEntry(agg: string, v: unknown): TermsOrder {
  if (!isObject(v)) throw new ParsingError(`Order elements must be of type object in [${agg}] found token of type [${tokenName(v)}].`);
  let order: TermsOrder | null = null;
  forEachEntry(v, (key, dirValue) => {
    if (typeof dirValue !== 'string') throw new ParsingError(`Unexpected token ${tokenName(dirValue)} for [order]`);
    const dir = dirValue.toLowerCase();
    if (dir !== 'asc' && dir !== 'desc') throw new ParsingError(`Unknown terms order direction [${dirValue}]`);
    const desc = dir === 'desc';
    // `_term` is the pre-6.0 name of `_key`; any other key is a sub-aggregation path, resolved when planning.
    order = { key: key === '_term' ? '_key' : key, desc };
  });
  if (order === null) throw new ParsingError(`Must specify at least one field for [order]`);
  return order;
}

/**
 * `include` / `exclude`: a string is a Lucene regexp over the whole term (ES IncludeExclude builds
 * a Lucene RegExp), compiled here so a bad or too complex one fails the request with Lucene's
 * message; an array lists exact values. Partitions (`{partition, num_partitions}`) are not built yet.
 */
export function parseTermsFilter(member: 'include' | 'exclude', v: unknown): TermsFilter {
  if (typeof v === 'string') {
    compileRegexp(v);
    return { regex: v };
  }
  if (Array.isArray(v)) {
    return {
      values: v.map((x) => {
        if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return x;
        throw new ParsingError(`Unrecognized token for an ${member} [${tokenName(x)}]`);
      }),
    };
  }
  if (isObject(v)) throw new IllegalArgumentError(`[${member}] partitions are not supported by this server yet`);
  throw new ParsingError(`Unrecognized token for an ${member} [${tokenName(v)}]`);
}

export function parseTerms(name: string, body: unknown, subs: readonly AggNode[]): TermsAgg {
  let field: string | null = null;
  let size = DEFAULT_TERMS_SIZE;
  let shardSize: number | null = null;
  let minDocCount = 1;
  let order: TermsOrder[] = [{ key: '_count', desc: true }];
  let missing: TermsAgg['missing'] = null;
  let include: TermsFilter | null = null;
  let exclude: TermsFilter | null = null;
  parseAggBody('terms', body, {
    include: (v) => { include = parseTermsFilter('include', v); },
    exclude: (v) => { exclude = parseTermsFilter('exclude', v); },
    field: (v) => { field = readField('terms', v); },
    size: (v) => {
      size = intValue(v);
      checked('terms', 'size', size > 0, `[size] must be greater than 0. Found [${size}] in [${name}]`);
    },
    shard_size: (v) => {
      shardSize = intValue(v);
      checked('terms', 'shard_size', shardSize > 0, `[shardSize] must be greater than 0. Found [${shardSize}] in [${name}]`);
    },
    min_doc_count: (v) => {
      minDocCount = intValue(v);
      checked('terms', 'min_doc_count', minDocCount >= 0, `[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`);
    },
    shard_min_doc_count: (v) => {
      const n = intValue(v);
      checked('terms', 'shard_min_doc_count', n >= 0, `[shardMinDocCount] must be greater than or equal to 0. Found [${n}] in [${name}]`);
    },
    order: (v) => { order = mapItems(v, (o) => parseOrderEntry(name, o)); },
    missing: (v) => { missing = readMissing('terms', v); },
    // Execution hints choose how ES collects; every mode gives the same exact counts here.
    execution_hint: (v) => { readString('terms', 'execution_hint', v); },
    collect_mode: (v) => {
      const mode = readString('terms', 'collect_mode', v);
      if (mode !== 'depth_first' && mode !== 'breadth_first') throw new IllegalArgumentError(`Unknown \`collect_mode\` [${mode}]`);
    },
    show_term_doc_count_error: () => { throw new IllegalArgumentError('[show_term_doc_count_error] is not supported by this server yet'); },
    format: () => { throw new IllegalArgumentError('[format] of [terms] aggregations is not supported by this server yet'); },
  });
  // ES always ends a count order with the key ascending, so ties come out in a stable order.
  if (!order.some((o) => o.key === '_key')) order = [...order, { key: '_key', desc: false }];
  return { kind: 'terms', name, subs, field: requireField(field), size, shardSize, order, minDocCount, missing, include, exclude };
}

