/**
 * `range` and `date_range` (ES RangeAggregationBuilder, DateRangeAggregationBuilder): `ranges` of
 * `{key?, from?, to?}` (from inclusive, to exclusive), `keyed`, and for dates `format` (of the
 * bounds and of `*_as_string`). Date bounds stay strings until the field's format is known.
 */
import { IllegalArgumentError, XContentParseError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { booleanValue, doubleValue, forEachEntry, isObject, readString } from '../parse-helpers.js';
import type { AggNode, RangeAgg, RangeSpec } from './agg-nodes.js';
import { parseAggBody, readDateFormat, readField, readMissing, requireField } from './agg-parse.js';

function parseBound(kind: RangeAgg['kind'], member: string, v: unknown): number | string | null {
  if (v === null) return null;
  if (kind === 'date_range') {
    if (typeof v === 'string' || typeof v === 'number') return v;
  } else if (typeof v === 'number' || typeof v === 'string') {
    return doubleValue(v);
  }
  throw new XContentParseError(`[${kind === 'range' ? 'range' : 'date_range'}] failed to parse field [${member}]`,
    new IllegalArgumentError(`[${member}] doesn't support values of type: ${tokenName(v)}`));
}

function parseRangeEntry(kind: RangeAgg['kind'], v: unknown): RangeSpec {
  if (!isObject(v)) throw new XContentParseError(`[range] failed to parse field [ranges]`, new IllegalArgumentError(`range must be an object, found [${tokenName(v)}]`));
  let key: string | null = null;
  let from: number | string | null = null;
  let to: number | string | null = null;
  forEachEntry(v, (k, x) => {
    if (k === 'key') key = readString('range', k, x);
    else if (k === 'from') from = parseBound(kind, k, x);
    else if (k === 'to') to = parseBound(kind, k, x);
    else throw new XContentParseError(`[range] unknown field [${k}]`, undefined, 'key');
  });
  return { key, from, to };
}

export function parseRangeAgg(kind: RangeAgg['kind'], name: string, body: unknown, subs: readonly AggNode[]): RangeAgg {
  let field: string | null = null;
  let ranges: RangeSpec[] = [];
  let keyed = false;
  let format: string | null = null;
  let missing: RangeAgg['missing'] = null;
  const handlers: Record<string, (v: unknown) => void> = {
    field: (v) => { field = readField(kind, v); },
    ranges: (v) => {
      if (!Array.isArray(v)) throw new XContentParseError(`[${kind}] ranges doesn't support values of type: ${tokenName(v)}`);
      ranges = v.map((r) => parseRangeEntry(kind, r));
    },
    keyed: (v) => { keyed = booleanValue(v); },
    missing: (v) => { missing = readMissing(kind, v); },
  };
  if (kind === 'date_range') handlers.format = (v) => { format = readDateFormat(kind, v); };
  parseAggBody(kind, body, handlers);
  if (ranges.length === 0) throw new IllegalArgumentError(`No [ranges] specified for the [${name}] aggregation`);
  return { kind, name, subs, field: requireField(field), ranges, keyed, format, missing };
}
