/**
 * The t-digest metrics. `percentiles` and `percentile_ranks` (ES PercentilesAggregationBuilder,
 * PercentileRanksAggregationBuilder and their AbstractPercentilesAggregationBuilder): `field`,
 * `missing`, `keyed` (default true), `format`, the percents (default 1, 5, 25, 50, 75, 95, 99) or
 * the values to rank (required), and the method: `tdigest` with its `compression` (default 100)
 * and `execution_hint`. `hdr` is checked as ES checks it, then refused: HDR histograms are not built
 * here. `median_absolute_deviation` (ES MedianAbsoluteDeviationAggregationBuilder): `field`,
 * `missing`, `format`, and `compression` (default 1000) and `execution_hint` at its top level.
 */
import { javaDouble } from '../../common/java-double.js';
import { IllegalArgumentError, XContentParseError, previewInput } from '../../errors/index.js';
import { booleanValue, doubleValue, intValue, isObject, mapItems, readString } from '../parse-helpers.js';
import { tokenName } from '../json-body.js';
import type { AggNode, PercentilesAgg } from './agg-nodes.js';
import { parseAggBody, readField, readMissing, requireField } from './agg-parse.js';

type Kind = PercentilesAgg['kind'];
type PercentilesKind = Exclude<Kind, 'median_absolute_deviation'>;

/** PercentilesAggregationBuilder.DEFAULT_PERCENTS. */
const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];

/** ES has no limit but the request size; each key is a value to compute and render, so they are bounded. */
const MAX_KEYS = 10_000;

/** PercentilesConfig.TDigest.DEFAULT_COMPRESSION. */
const DEFAULT_COMPRESSION = 100;

/** TDigestExecutionHint's values. */
const EXECUTION_HINTS = ['default', 'high_accuracy'];

export function parsePercentiles(kind: PercentilesKind, name: string, body: unknown, subs: readonly AggNode[]): PercentilesAgg {
  const keysField = kind === 'percentiles' ? 'percents' : 'values';
  let field: string | null = null;
  let missing: PercentilesAgg['missing'] = null;
  let keyed = true;
  let format: string | null = null;
  let keys: number[] | null | undefined;
  let compression: number | null = null;
  let hdr = false;
  parseAggBody(kind, body, {
    field: (v) => { field = readField(kind, v); },
    missing: (v) => { missing = readMissing(kind, v); },
    keyed: (v) => { keyed = booleanValue(v); },
    format: (v) => { format = readString(kind, 'format', v); },
    [keysField]: (v) => { keys = v === null ? null : readKeys(kind, keysField, v); },
    tdigest: (v) => { compression = readTDigest(kind, v); },
    hdr: (v) => { readHdr(kind, v); hdr = true; },
  });
  // AbstractPercentilesAggregationBuilder's constructing parser.
  if (compression !== null && hdr) throw new IllegalArgumentError('Only one percentiles method should be declared.');
  if (hdr) throw new IllegalArgumentError(`[hdr] of [${kind}] aggregations is not supported by this server yet: use [tdigest]`);
  const sorted = validateKeys(kind, keysField, name, keys);
  return { kind, name, subs, field: requireField(field), keys: sorted, keyed, compression: compression ?? DEFAULT_COMPRESSION, missing, format };
}

function readKeys(kind: PercentilesKind, keysField: string, v: unknown): number[] {
  if (Array.isArray(v) && v.length > MAX_KEYS) {
    throw new XContentParseError(`[${kind}] failed to parse field [${keysField}]`, new IllegalArgumentError(`[${keysField}] must hold at most [${MAX_KEYS}] values but held [${v.length}]`));
  }
  return mapItems(v, (x) => {
    if (typeof x !== 'number' && typeof x !== 'string') {
      throw new XContentParseError(`[${kind}] failed to parse field [${keysField}]`, new XContentParseError(`Current token (${tokenName(x)}) not numeric, can not use numeric value accessors`));
    }
    return doubleValue(x);
  });
}

/**
 * PercentilesAggregationBuilder.validatePercentiles and the abstract builder's constructor: present,
 * not empty, sorted; percents within [0, 100].
 */
function validateKeys(kind: PercentilesKind, keysField: string, name: string, keys: number[] | null | undefined): number[] {
  if (keys === undefined && kind === 'percentiles') return DEFAULT_PERCENTS;
  if (keys === undefined || keys === null) throw new IllegalArgumentError(`[${keysField}] must not be null: [${name}]`);
  if (keys.length === 0) {
    throw new IllegalArgumentError(kind === 'percentiles' ? `[percents] must not be empty: [${name}]` : `[values] must not be an empty array: [${name}]`);
  }
  const sorted = [...keys].sort((a, b) => a - b);
  if (kind === 'percentiles') {
    for (const p of sorted) {
      if (!(p >= 0 && p <= 100)) throw new IllegalArgumentError(`percent must be in [0,100], got [${javaDouble(p)}]: [${name}]`);
    }
  }
  return sorted;
}

/** MedianAbsoluteDeviationAggregationBuilder's parser: `compression` > 0. */
export function parseMedianAbsoluteDeviation(name: string, body: unknown, subs: readonly AggNode[]): PercentilesAgg {
  const kind = 'median_absolute_deviation';
  let field: string | null = null;
  let missing: PercentilesAgg['missing'] = null;
  let format: string | null = null;
  let compression = 1000;
  parseAggBody(kind, body, {
    field: (v) => { field = readField(kind, v); },
    missing: (v) => { missing = readMissing(kind, v); },
    format: (v) => { format = readString(kind, 'format', v); },
    compression: (v) => {
      compression = doubleValue(v);
      if (!(compression > 0)) {
        throw new XContentParseError(`[${kind}] failed to parse field [compression]`, new IllegalArgumentError(`[compression] must be greater than 0. Found [${javaDouble(compression)}] in [${name}]`));
      }
    },
    execution_hint: (v) => { readExecutionHint(kind, v); },
  });
  return { kind, name, subs, field: requireField(field), keys: [], keyed: false, compression, missing, format };
}

/** PercentilesConfig.TDigest's parser: `compression` ≥ 0, `execution_hint` one of ES's. */
function readTDigest(kind: Kind, v: unknown): number {
  let compression = DEFAULT_COMPRESSION;
  parseMethod(kind, 'tdigest', v, {
    compression: (c) => {
      compression = doubleValue(c);
      if (!(compression >= 0)) {
        throw new XContentParseError('[tdigest] failed to parse field [compression]', new IllegalArgumentError(`[compression] must be greater than or equal to 0. Found [${javaDouble(compression)}]`));
      }
    },
    execution_hint: (h) => { readExecutionHint('tdigest', h); },
  });
  return compression;
}

/** TDigestExecutionHint.parse: accepted and checked; both hints give the same digest here. */
function readExecutionHint(owner: string, v: unknown): void {
  const hint = readString(owner, 'execution_hint', v);
  if (!EXECUTION_HINTS.includes(hint.toLowerCase())) {
    throw new XContentParseError(`[${owner}] failed to parse field [execution_hint]`, new IllegalArgumentError(`Invalid execution_hint [${previewInput(hint)}], valid values are [${EXECUTION_HINTS.join(', ')}]`));
  }
}

/** PercentilesConfig.Hdr's parser: `number_of_significant_value_digits` in [0, 5]. */
function readHdr(kind: Kind, v: unknown): void {
  parseMethod(kind, 'hdr', v, {
    number_of_significant_value_digits: (d) => {
      const digits = intValue(d);
      if (digits < 0 || digits > 5) {
        throw new XContentParseError('[hdr] failed to parse field [number_of_significant_value_digits]', new IllegalArgumentError('[numberOfSignificantValueDigits] must be between 0 and 5'));
      }
    },
  });
}

/** A method object (`tdigest`, `hdr`): its members, failing as ES's nested object parser does. */
function parseMethod(kind: Kind, method: string, v: unknown, handlers: Record<string, (v: unknown) => void>): void {
  if (!isObject(v)) throw new XContentParseError(`[${kind}] ${method} doesn't support values of type: ${tokenName(v)}`);
  parseAggBody(method, v, handlers);
}
