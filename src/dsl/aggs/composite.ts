/**
 * `composite` (ES CompositeAggregationBuilder, CompositeValuesSourceParserHelper): `sources`, an
 * array of single-key objects `{"<name>": {"<type>": {...}}}` with the types `terms`, `histogram`
 * and `date_histogram`; `size` (default 10) and `after`, the previous page's `after_key`. `after`
 * is only read as an object here: ES checks it against the sources once their field types are
 * known (search/aggs/plan-composite.ts).
 */
import { IllegalArgumentError, ParsingError, XContentParseError, previewInput } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { booleanValue, doubleValue, intValue, isObject, mapItems, parsingField, readString } from '../parse-helpers.js';
import type { AggNode, CompositeAgg, CompositeSourceSpec, MissingOrder } from './agg-nodes.js';
import { parseAggBody, readField, requireField } from './agg-parse.js';
import { dateRoundingMembers } from './date-histogram.js';

const TYPE = 'composite';
export const DEFAULT_COMPOSITE_SIZE = 10;

/** XContentParserUtils.ensureExpectedToken's message. */
function unexpected(expected: string, found: string): ParsingError {
  return new ParsingError(`Failed to parse object: expecting token of type [${expected}] but found [${found}]`);
}

/** `{"<key>": <value>}` read token by token as CompositeValuesSourceParserHelper.fromXContent does. */
function singleEntry(v: unknown): [string, Record<string, unknown>] {
  if (!isObject(v)) throw unexpected('START_OBJECT', tokenName(v));
  const keys = Object.keys(v);
  if (keys.length === 0) throw unexpected('FIELD_NAME', 'END_OBJECT');
  if (keys.length > 1) throw unexpected('END_OBJECT', 'FIELD_NAME');
  const value = v[keys[0]];
  if (!isObject(value)) throw unexpected('START_OBJECT', tokenName(value));
  return [keys[0], value];
}

/** SortOrder.fromString / MissingOrder.fromString: Enum.valueOf of the upper-cased text. */
function enumValue<T extends string>(parser: string, field: string, v: unknown, values: readonly T[], javaEnum: string): T {
  const text = readString(parser, field, v);
  return parsingField(parser, field, () => {
    const value = text.toLowerCase() as T;
    if (!values.includes(value)) throw new IllegalArgumentError(`No enum constant ${javaEnum}.${previewInput(text.toUpperCase())}`);
    return value;
  });
}

function parseSource(item: unknown): CompositeSourceSpec {
  const [name, def] = singleEntry(item);
  const [type, body] = singleEntry(def);
  if (type !== 'terms' && type !== 'histogram' && type !== 'date_histogram') throw new ParsingError(`invalid source type: ${previewInput(type)}`);
  let field: string | null = null;
  let missingBucket = false;
  let missingOrder: MissingOrder = 'default';
  let desc = false;
  let interval = 0;
  const date = type === 'date_histogram' ? dateRoundingMembers() : null;
  const handlers: Record<string, (v: unknown) => void> = {
    field: (v) => { field = readField(type, v); },
    missing_bucket: (v) => { missingBucket = parsingField(type, 'missing_bucket', () => booleanValue(v)); },
    missing_order: (v) => {
      missingOrder = enumValue(type, 'missing_order', v, ['default', 'first', 'last'], 'org.elasticsearch.search.aggregations.bucket.composite.MissingOrder');
    },
    order: (v) => { desc = enumValue(type, 'order', v, ['asc', 'desc'], 'org.elasticsearch.search.sort.SortOrder') === 'desc'; },
  };
  if (type === 'histogram') {
    handlers.interval = (v) => {
      interval = parsingField(type, 'interval', () => {
        const value = doubleValue(v);
        if (!(value > 0) || !Number.isFinite(value)) throw new IllegalArgumentError('[interval] must be greater than 0 for [histogram] source');
        return value;
      });
    };
  }
  if (date !== null) Object.assign(handlers, date.handlers);
  parseAggBody(type, body, handlers);
  const fieldName = requireField(field);
  // HistogramValuesSourceBuilder starts at 0 and only its setter checks: no interval would divide by zero.
  if (type === 'histogram' && interval === 0) throw new IllegalArgumentError('[interval] must be greater than 0 for [histogram] source');
  return { name, type, field: fieldName, desc, missingBucket, missingOrder, interval, date: date === null ? null : date.resolve() };
}

/** CompositeAggregationBuilder.validateSources. */
function validateSources(sources: readonly CompositeSourceSpec[]): void {
  if (sources.length === 0) throw new IllegalArgumentError('Composite [sources] cannot be null or empty');
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const s of sources) {
    if (seen.has(s.name)) duplicates.add(s.name);
    seen.add(s.name);
  }
  if (duplicates.size > 0) throw new IllegalArgumentError(`Composite source names must be unique, found duplicates: [${[...duplicates].join(', ')}]`);
}

export function parseComposite(name: string, body: unknown, subs: readonly AggNode[]): CompositeAgg {
  let sources: CompositeSourceSpec[] | null = null;
  let size = DEFAULT_COMPOSITE_SIZE;
  let after: Record<string, unknown> | null = null;
  parseAggBody(TYPE, body, {
    // The builder is constructed (and its sources validated) as soon as `sources` is read.
    sources: (v) => { sources = parsingField(TYPE, 'sources', () => {
      const parsed = mapItems(v, parseSource);
      validateSources(parsed);
      return parsed;
    }); },
    size: (v) => {
      size = parsingField(TYPE, 'size', () => {
        const value = intValue(v);
        if (value <= 0) throw new IllegalArgumentError(`[size] must be greater than 0. Found [${value}] in [${name}]`);
        return value;
      });
    },
    after: (v) => {
      if (!isObject(v)) throw new XContentParseError(`[${TYPE}] after doesn't support values of type: ${tokenName(v)}`);
      after = v;
    },
  });
  if (sources === null) throw new IllegalArgumentError('Required [sources]');
  return { kind: TYPE, name, subs, sources, size, after };
}
