/**
 * `date_histogram` (ES DateHistogramAggregationBuilder): exactly one of `calendar_interval`
 * (minute, hour, day, week, month, quarter, year, or `1m`…`1y`) and `fixed_interval` (a time value:
 * `30s`, `12h`, `7d`), with `time_zone`, `offset` (`+6h`, `-1d`), `format`, `min_doc_count`
 * (default 0: empty buckets fill the gaps, out to `extended_bounds`), `keyed`, `order` by
 * `_key`/`_count` and `missing`. ES 8 no longer takes the old `interval`.
 */
import { parseTimeZone, DateParseError } from '../../common/dates/index.js';
import { parseTimeValue } from '../../common/time-value.js';
import { IllegalArgumentError, XContentParseError, previewInput } from '../../errors/index.js';
import { booleanValue, forEachEntry, intValue, isObject, readString } from '../parse-helpers.js';
import type { AggNode, DateHistogramAgg, DateRoundingSpec, TermsOrder } from './agg-nodes.js';
import { parseAggBody, readDateFormat, readField, readFirstOrder, readMissing, requireField } from './agg-parse.js';
import { parseOrderEntry } from './terms.js';

const TYPE = 'date_histogram';

/** ES DateHistogramAggregationBuilder.DATE_FIELD_UNITS: every name a calendar interval may have. */
export const CALENDAR_UNITS: Readonly<Record<string, NonNullable<DateHistogramAgg['calendarUnit']>>> = {
  year: 'y', '1y': 'y', quarter: 'q', '1q': 'q', month: 'M', '1M': 'M', week: 'w', '1w': 'w',
  day: 'd', '1d': 'd', hour: 'h', '1h': 'h', minute: 'm', '1m': 'm', second: 's', '1s': 's',
};

function failedField(field: string, cause: string): XContentParseError {
  return new XContentParseError(`[${TYPE}] failed to parse field [${field}]`, new IllegalArgumentError(cause));
}

/** `+6h`, `-1d`, `90m`: a signed time value in ms (DateHistogramAggregationBuilder.parseStringOffset). */
function parseOffset(v: unknown): number {
  if (typeof v === 'number') return v;
  const text = readString(TYPE, 'offset', v).trim();
  const negative = text.startsWith('-');
  const body = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  try {
    const ms = parseTimeValue(body, 'date_histogram.offset');
    return negative ? -ms : ms;
  } catch (e) {
    throw failedField('offset', (e as Error).message);
  }
}

function boundValue(v: unknown): string | number | null {
  if (v === null || typeof v === 'string' || typeof v === 'number') return v;
  throw new XContentParseError(`[extended_bounds] failed to parse field [min]`);
}

/** The members of a date rounding and what they resolve to (see dateRoundingMembers). */
export interface DateRoundingMembers {
  readonly handlers: Record<string, (v: unknown) => void>;
  /** The rounding, once the body is read: exactly one interval must have been given. */
  resolve(): DateRoundingSpec;
}

/**
 * `calendar_interval`, `fixed_interval`, `offset`, `time_zone` and `format`: what a
 * date_histogram aggregation and composite's date_histogram source (ES DateIntervalWrapper and
 * the shared builder members) both read, with the same messages.
 */
export function dateRoundingMembers(): DateRoundingMembers {
  let calendar: string | null = null;
  let fixed: string | null = null;
  let offsetMillis = 0;
  let timeZone: string | null = null;
  let format: string | null = null;
  return {
    handlers: {
      calendar_interval: (v) => { calendar = readString(TYPE, 'calendar_interval', v); },
      fixed_interval: (v) => { fixed = readString(TYPE, 'fixed_interval', v); },
      offset: (v) => { offsetMillis = parseOffset(v); },
      time_zone: (v) => {
        const id = readString(TYPE, 'time_zone', v);
        try {
          timeZone = parseTimeZone(id).id;
        } catch (e) {
          if (!(e instanceof DateParseError)) throw e;
          throw failedField('time_zone', e.message);
        }
      },
      format: (v) => { format = readDateFormat(TYPE, v); },
    },
    resolve: () => {
      if (calendar !== null && fixed !== null) throw new IllegalArgumentError('Cannot use [fixed_interval] with [calendar_interval] configuration option.');
      let calendarUnit: DateHistogramAgg['calendarUnit'] = null;
      let fixedMillis = 0;
      if (calendar !== null) {
        const unit = CALENDAR_UNITS[calendar as string];
        if (unit === undefined) throw failedField('calendar_interval', `The supplied interval [${previewInput(String(calendar))}] could not be parsed as a calendar interval.`);
        calendarUnit = unit;
      } else if (fixed !== null) {
        try {
          fixedMillis = parseTimeValue(fixed, 'date_histogram.fixedInterval');
        } catch (e) {
          throw failedField('fixed_interval', (e as Error).message);
        }
        if (!(fixedMillis > 0)) throw failedField('fixed_interval', `Zero or negative time interval not supported`);
      } else {
        throw new IllegalArgumentError('Invalid interval specified, must be non-null and non-empty');
      }
      return { calendarUnit, fixedMillis, offsetMillis, timeZone, format };
    },
  };
}

export function parseDateHistogram(name: string, body: unknown, subs: readonly AggNode[]): DateHistogramAgg {
  let field: string | null = null;
  let minDocCount = 0;
  let keyed = false;
  let order: TermsOrder = { key: '_key', desc: false };
  let missing: string | number | null = null;
  let extendedBounds: DateHistogramAgg['extendedBounds'] = null;
  const rounding = dateRoundingMembers();
  parseAggBody(TYPE, body, {
    field: (v) => { field = readField(TYPE, v); },
    ...rounding.handlers,
    min_doc_count: (v) => {
      minDocCount = intValue(v);
      if (minDocCount < 0) throw failedField('min_doc_count', `[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`);
    },
    keyed: (v) => { keyed = booleanValue(v); },
    order: (v) => {
      order = readFirstOrder(v, (o) => parseOrderEntry(name, o), order);
      if (order.key !== '_key' && order.key !== '_count') throw new IllegalArgumentError(`ordering [${TYPE}] buckets by a sub-aggregation is not supported by this server yet`);
    },
    missing: (v) => {
      const m = readMissing(TYPE, v);
      missing = typeof m === 'boolean' ? String(m) : m;
    },
    extended_bounds: (v) => {
      if (!isObject(v)) throw new XContentParseError(`[${TYPE}] failed to parse field [extended_bounds]`);
      const bounds = { min: null as string | number | null, max: null as string | number | null };
      forEachEntry(v, (k, b) => {
        if (k !== 'min' && k !== 'max') throw new XContentParseError(`[extended_bounds] unknown field [${k}]`, undefined, 'key');
        bounds[k] = boundValue(b);
      });
      extendedBounds = bounds;
    },
  });
  const fieldName = requireField(field);
  const { calendarUnit, fixedMillis, offsetMillis, timeZone, format } = rounding.resolve();
  return { kind: TYPE, name, subs, field: fieldName, calendarUnit, fixedMillis, offsetMillis, timeZone, format, minDocCount, keyed, order, missing, extendedBounds };
}
