/**
 * `filter` (a query: the bucket is the matching documents), `missing` (the documents without a
 * value for a field: a filter that no `exists` query matches) and `filters` (ES
 * FiltersAggregationBuilder: named filters → keyed buckets, an array → anonymous buckets,
 * `other_bucket`, `other_bucket_key`) and `global` (every live document, whatever the query).
 */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { booleanValue, forEachEntry, isObject, readString, within } from '../parse-helpers.js';
import { parseQuery } from '../queries/registry.js';
import type { QueryNode } from '../query-nodes.js';
import type { AggNode, FilterAgg, FiltersAgg, GlobalAgg } from './agg-nodes.js';
import { parseAggBody, readField, requireField } from './agg-parse.js';

export function parseFilterAgg(name: string, body: unknown, subs: readonly AggNode[]): FilterAgg {
  return { kind: 'filter', name, subs, filter: parseQuery(body) };
}

/** ES MissingAggregationBuilder: one bucket of the documents with no value for `field` (all of them when it is unmapped). */
export function parseMissingAgg(name: string, body: unknown, subs: readonly AggNode[]): FilterAgg {
  let field: string | null = null;
  parseAggBody('missing', body, { field: (v) => { field = readField('missing', v); } });
  const exists: QueryNode = { kind: 'exists', field: requireField(field), boost: 1, name: null };
  return { kind: 'filter', name, subs, filter: { kind: 'bool', must: [], should: [], filter: [], mustNot: [exists], minimumShouldMatch: null, boost: 1, name: null } };
}

/** ES GlobalAggregationBuilder: an empty body; where it may sit is checked when planning, as ES's factory does. */
export function parseGlobalAgg(name: string, body: unknown, subs: readonly AggNode[]): GlobalAgg {
  parseAggBody('global', body, {});
  return { kind: 'global', name, subs };
}

export const DEFAULT_OTHER_BUCKET_KEY = '_other_';

export function parseFiltersAgg(name: string, body: unknown, subs: readonly AggNode[]): FiltersAgg {
  if (!isObject(body)) throw new ParsingError(`Expected [START_OBJECT] under [filters], but got a [${tokenName(body)}]`);
  let named = true;
  let keys: string[] = [];
  let filters: QueryNode[] = [];
  let other = false;
  let otherKey: string | null = null;
  let given = false;
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'filters':
        given = true;
        if (Array.isArray(v)) {
          named = false;
          filters = v.map((q, i) => within(i, () => parseQuery(q)));
          keys = filters.map((_, i) => String(i));
        } else if (isObject(v)) {
          forEachEntry(v, (key, q) => {
            keys.push(key);
            filters.push(parseQuery(q));
          });
        } else {
          throw new ParsingError(`Unknown token ${tokenName(v)} in [filters] while parsing filters aggregation [${name}]`);
        }
        break;
      case 'other_bucket': other = booleanValue(v); break;
      case 'other_bucket_key':
        otherKey = readString('filters', k, v);
        other = true;
        break;
      case 'keyed': throw new IllegalArgumentError('[keyed] of [filters] aggregations is not supported by this server yet');
      default: throw new ParsingError(`Unknown key for a ${tokenName(v)} in [${name}]: [${k}].`);
    }
  });
  if (!given) throw new ParsingError(`Missing [filters] in filters aggregation [${name}]`);
  if (named) {
    // FiltersAggregationBuilder sorts keyed filters by key (Java String order = UTF-16 code units).
    const order = keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
    keys = order.map((i) => keys[i]);
    filters = order.map((i) => filters[i]);
  }
  return { kind: 'filters', name, subs, named, keys, filters, otherBucketKey: other ? otherKey ?? DEFAULT_OTHER_BUCKET_KEY : null };
}
