/**
 * Pipeline aggregation bodies (ES PipelineAggregationBuilder parsers), each with ES's own parser
 * style and messages: the sibling `*_bucket` family (BucketMetricsParser), `derivative` and
 * `serial_diff` (hand-written token parsers), `cumulative_sum` and `bucket_sort` (object parsers).
 * `format` (a Java DecimalFormat pattern) is refused: the server has no DecimalFormat.
 */
import { IllegalArgumentError, ParsingError, XContentParseError, previewInput } from '../../errors/index.js';
import { parseTimeValue } from '../../common/time-value.js';
import { tokenName } from '../json-body.js';
import { doubleValue, forEachEntry, intValue, isObject, parsingField, type JsonObject } from '../parse-helpers.js';
import { parseSort } from '../sort.js';
import type { AggNode, BucketMetricsType, BucketSortKey, GapPolicy, PipelineAgg } from './agg-nodes.js';
import { parseAggBody } from './agg-parse.js';
import { CALENDAR_UNITS } from './date-histogram.js';

const DEFAULTS = {
  bucketsPaths: [] as string[], gapPolicy: 'skip' as GapPolicy, sigma: 2, percents: [1, 5, 25, 50, 75, 95, 99], keyed: true,
  unitMillis: null, lag: 1, sort: [] as BucketSortKey[], from: 0, size: null,
};

/** percentiles_bucket `percents`: bounded like percentiles' keys. */
const MAX_PERCENTS = 10_000;

const MAX_SORT_KEYS = 100;

/** Everything after the name: every pipeline has no sub-aggregations (ES refuses them when it builds the tree). */
type PipelineParser = (name: string, body: unknown, subs: readonly AggNode[]) => PipelineAgg;

export const PIPELINE_PARSERS: Readonly<Record<string, PipelineParser>> = {
  avg_bucket: (n, b, s) => parseBucketMetrics('avg_bucket', n, b, s),
  sum_bucket: (n, b, s) => parseBucketMetrics('sum_bucket', n, b, s),
  min_bucket: (n, b, s) => parseBucketMetrics('min_bucket', n, b, s),
  max_bucket: (n, b, s) => parseBucketMetrics('max_bucket', n, b, s),
  stats_bucket: (n, b, s) => parseBucketMetrics('stats_bucket', n, b, s),
  extended_stats_bucket: (n, b, s) => parseBucketMetrics('extended_stats_bucket', n, b, s),
  percentiles_bucket: (n, b, s) => parseBucketMetrics('percentiles_bucket', n, b, s),
  derivative: (n, b, s) => parseSequential('derivative', n, b, s),
  serial_diff: (n, b, s) => parseSequential('serial_diff', n, b, s),
  cumulative_sum: parseCumulativeSum,
  bucket_sort: parseBucketSort,
};

function noSubs(name: string, subs: readonly AggNode[]): void {
  if (subs.length > 0) throw new IllegalArgumentError(`Aggregation [${name}] cannot define sub-aggregations`);
}

function refuseFormat(type: string): never {
  throw new IllegalArgumentError(`[format] of [${type}] aggregations is not supported by this server yet`);
}

/** BucketHelpers.GapPolicy.parse: a ParsingException naming the accepted values. */
function readGapPolicy(text: string): GapPolicy {
  if (text === 'skip' || text === 'insert_zeros' || text === 'keep_values') return text;
  throw new ParsingError(`Invalid gap policy: [${previewInput(text)}], accepted values: [insert_zeros, skip, keep_values]`);
}

/** A `buckets_path` array's entries (ES reads each with parser.text(): scalars only). */
function readPathArray(name: string, v: unknown[]): string[] {
  return v.map((item) => {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return String(item);
    throw new ParsingError(`Unexpected token ${tokenName(item)} in [${name}].`);
  });
}

/**
 * BucketMetricsParser: strings (`buckets_path`, `gap_policy`, `format`), a `buckets_path` array,
 * and each type's own tokens (`sigma`, `percents`, `keyed`); anything else is "Unexpected token".
 * Only the first path counts (ES builds the factory from `bucketsPaths[0]`).
 */
function parseBucketMetrics(type: BucketMetricsType, name: string, body: unknown, subs: readonly AggNode[]): PipelineAgg {
  noSubs(name, subs);
  let paths: string[] | null = null;
  let gapPolicy: GapPolicy = 'skip';
  let sigma = DEFAULTS.sigma;
  let percents = DEFAULTS.percents;
  let keyed = DEFAULTS.keyed;
  forEachEntry(body as JsonObject, (k, v) => {
    if (typeof v === 'string' && k === 'format') refuseFormat(type);
    else if (typeof v === 'string' && k === 'buckets_path') paths = [v];
    else if (typeof v === 'string' && k === 'gap_policy') gapPolicy = readGapPolicy(v);
    else if (Array.isArray(v) && k === 'buckets_path') paths = readPathArray(name, v);
    else if (type === 'extended_stats_bucket' && k === 'sigma' && typeof v === 'number') sigma = v;
    else if (type === 'percentiles_bucket' && k === 'percents' && Array.isArray(v)) percents = readPercents(v);
    else if (type === 'percentiles_bucket' && k === 'keyed' && typeof v === 'boolean') keyed = v;
    else throw new ParsingError(`Unexpected token ${tokenName(v)} [${k}] in [${name}]`);
  });
  const path = firstPath(name, paths, `Missing required field [buckets_path] for aggregation [${name}]`);
  if (sigma < 0) throw new IllegalArgumentError('sigma must be a non-negative double');
  if (percents.some((p) => !(p >= 0 && p <= 100))) throw new IllegalArgumentError('percents must only contain non-null doubles from 0.0-100.0 inclusive');
  return { ...DEFAULTS, kind: 'pipeline', type, name, subs: [], bucketsPaths: [path], gapPolicy, sigma, percents, keyed };
}

function readPercents(v: unknown[]): number[] {
  if (v.length > MAX_PERCENTS) throw new IllegalArgumentError(`[percents] must hold at most [${MAX_PERCENTS}] values but held [${v.length}]`);
  return v.map((p) => (p === null ? NaN : doubleValue(p)));
}

/** The one path a factory is built from; an empty array has none. */
function firstPath(name: string, paths: string[] | null, missing: string): string {
  if (paths === null) throw new ParsingError(missing);
  if (paths.length === 0) throw new IllegalArgumentError(`buckets_path must contain a single entry for aggregation [${name}]`);
  return paths[0];
}

/**
 * DerivativePipelineAggregationBuilder.parse / SerialDiffPipelineAggregationBuilder.parse:
 * "Unknown key for a VALUE_STRING in [name]: [k]." for members of a known token type, "Unexpected
 * token" for the others; `unit` (derivative) is a calendar unit or a time value, `lag` (serial_diff)
 * a positive integer.
 */
function parseSequential(type: 'derivative' | 'serial_diff', name: string, body: unknown, subs: readonly AggNode[]): PipelineAgg {
  noSubs(name, subs);
  let paths: string[] | null = null;
  let gapPolicy: GapPolicy = 'skip';
  let unitMillis: number | null = null;
  let lag = DEFAULTS.lag;
  forEachEntry(body as JsonObject, (k, v) => {
    const unknown = (): never => { throw new ParsingError(`Unknown key for a ${tokenName(v)} in [${name}]: [${k}].`); };
    if (typeof v === 'string') {
      if (k === 'format') refuseFormat(type);
      else if (k === 'buckets_path') paths = [v];
      else if (k === 'gap_policy') gapPolicy = readGapPolicy(v);
      else if (k === 'unit' && type === 'derivative') unitMillis = readUnit(v);
      else unknown();
    } else if (typeof v === 'number') {
      if (k !== 'lag' || type !== 'serial_diff') unknown();
      lag = intValue(v);
      if (lag <= 0) throw new ParsingError(`Lag must be a positive, non-zero integer.  Value supplied was${lag} in [${name}]: [${k}].`);
    } else if (Array.isArray(v)) {
      if (k === 'buckets_path') paths = readPathArray(name, v);
      else unknown();
    } else {
      throw new ParsingError(`Unexpected token ${tokenName(v)} in [${name}].`);
    }
  });
  const path = firstPath(name, paths, `Missing required field [buckets_path] for derivative aggregation [${name}]`);
  return { ...DEFAULTS, kind: 'pipeline', type, name, subs: [], bucketsPaths: [path], gapPolicy, unitMillis, lag };
}

/**
 * DerivativePipelineAggregationBuilder.createInternal: a calendar unit's base duration (a year is
 * 365.2425 days, a quarter a fourth of it, a month a twelfth), else a time value. ES checks it when
 * it builds the pipeline; the value is known now, so it fails now.
 */
const UNIT_MILLIS: Readonly<Record<string, number>> = {
  y: 31_556_952_000, q: 7_889_238_000, M: 2_629_746_000, w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000,
};

function readUnit(text: string): number {
  const calendar = Object.prototype.hasOwnProperty.call(CALENDAR_UNITS, text) ? CALENDAR_UNITS[text] : undefined;
  if (calendar !== undefined) return UNIT_MILLIS[calendar];
  try {
    return parseTimeValue(text, 'DerivativePipelineAggregationBuilder.unit');
  } catch (e) {
    throw new IllegalArgumentError((e as Error).message.replace(`[${text}]`, `[${previewInput(text)}]`));
  }
}

/** CumulativeSumPipelineAggregationBuilder.PARSER: `buckets_path` (a string or strings) and `format`. */
function parseCumulativeSum(name: string, body: unknown, subs: readonly AggNode[]): PipelineAgg {
  noSubs(name, subs);
  let paths: string[] | null = null;
  parseAggBody('cumulative_sum', body, {
    buckets_path: (v) => { paths = readStringArray('cumulative_sum', 'buckets_path', v); },
    format: () => refuseFormat('cumulative_sum'),
  });
  if (paths === null) throw new IllegalArgumentError('Required [buckets_path]');
  return { ...DEFAULTS, kind: 'pipeline', type: 'cumulative_sum', name, subs: [], bucketsPaths: paths };
}

/** ObjectParser's string array: one string or an array of them. */
function readStringArray(owner: string, field: string, v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v as string[];
  throw new XContentParseError(`[${owner}] ${field} doesn't support values of type: ${tokenName(Array.isArray(v) ? v.find((s) => typeof s !== 'string') : v)}`);
}

/**
 * BucketSortPipelineAggregationBuilder.PARSER: `sort` (field sorts only: `_key`, `_count` or a
 * path, ascending unless told), `from` ≥ 0, `size` > 0, `gap_policy`.
 */
function parseBucketSort(name: string, body: unknown, subs: readonly AggNode[]): PipelineAgg {
  noSubs(name, subs);
  let sort: BucketSortKey[] = [];
  let from = 0;
  let size: number | null = null;
  let gapPolicy: GapPolicy = 'skip';
  parseAggBody('bucket_sort', body, {
    sort: (v) => {
      // ObjectParser's OBJECT_ARRAY: one sort object or a list, not a bare string.
      if (!isObject(v) && !Array.isArray(v)) throw valueTypeError('sort', v);
      sort = parsingField('bucket_sort', 'sort', () => readSortKeys(v));
    },
    from: (v) => {
      from = parsingField('bucket_sort', 'from', () => intValue(v));
      if (from < 0) throw new XContentParseError('[bucket_sort] failed to parse field [from]', new IllegalArgumentError(`[from] must be a non-negative integer: [${from}]`));
    },
    size: (v) => {
      size = parsingField('bucket_sort', 'size', () => intValue(v));
      if (size <= 0) throw new XContentParseError('[bucket_sort] failed to parse field [size]', new IllegalArgumentError(`[size] must be a positive integer: [${size}]`));
    },
    gap_policy: (v) => {
      if (typeof v !== 'string') throw valueTypeError('gap_policy', v);
      gapPolicy = parsingField('bucket_sort', 'gap_policy', () => readGapPolicy(v.toLowerCase()));
    },
  });
  return { ...DEFAULTS, kind: 'pipeline', type: 'bucket_sort', name, subs: [], bucketsPaths: sort.map((s) => s.path), sort, from, size, gapPolicy };
}

/** ObjectParser refusing a token its field does not take. */
function valueTypeError(field: string, v: unknown): XContentParseError {
  return new XContentParseError(`[bucket_sort] ${field} doesn't support values of type: ${tokenName(v)}`);
}

/**
 * SortBuilder.fromXContent, then "[bucket_sort] only supports field based sorting" for `_score` and
 * the like. Every key is resolved in every bucket, so their number is bounded (ES has no bound).
 */
function readSortKeys(v: unknown): BucketSortKey[] {
  if (Array.isArray(v) && v.length > MAX_SORT_KEYS) throw new IllegalArgumentError(`[sort] of [bucket_sort] must hold at most [${MAX_SORT_KEYS}] keys but held [${v.length}]`);
  return parseSort(v).map((s) => {
    if (s.kind !== 'field') throw new IllegalArgumentError(`[bucket_sort] only supports field based sorting; incompatible sort: [${s.kind === 'score' ? '_score' : `_${s.kind}`}]`);
    return { path: s.field, desc: s.order === 'desc' };
  });
}
