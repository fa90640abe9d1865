/**
 * Search UI filters → ES clauses (reference §3.4): `all` → `bool.filter`, `any` → `bool.should`,
 * one clause per value (a scalar is a `term`, `{from, to}` a `range` with inclusive bounds). Where
 * this connector differs from Elastic's 1.24.2 (reference §0): `none` is refused with an error
 * naming the field, and on a range-facet field a value is always looked up by its option name
 * (configured bounds win; `from`/`to` given with the filter are ignored).
 */
import type { FacetConfiguration, FieldValue, Filter, FilterValue, FilterValueRange } from './types.js';

export type Clause = Record<string, unknown>;

const OCCUR = { all: 'filter', any: 'should' } as const;

/** ES date math (`now-1d/d`, `2023-01-01||+1M`) or something `Date.parse` reads: kept as a string bound. */
const DATE_MATH = /^(?:now|\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?)?\|\|)(?:[+-]\d+[yMwdhHms])*(?:\/[yMwdhHms])?$/;

export function filterClause(filter: Filter, facet: FacetConfiguration | undefined): Clause {
  const occur = occurOf(filter);
  if (!Array.isArray(filter.values)) throw new Error(`Filter on field [${String(filter.field)}] has no [values] array`);
  const values =
    facet?.type === 'range'
      ? filter.values.map((v) => rangeClause(filter.field, optionNamed(filter.field, facet, v)))
      : filter.values.map((v) => valueClause(filter.field, v));
  return { bool: { [occur]: values } };
}

function occurOf(filter: Filter): 'filter' | 'should' {
  const type = filter.type ?? 'all';
  if (type === 'none') {
    throw new Error(`The "none" filter type is not supported by the threadsearch connector (filter on field [${filter.field}]); use "all" or "any", or exclude in queryConfig through postProcessRequestBodyFn`);
  }
  const occur = OCCUR[type as keyof typeof OCCUR];
  if (occur === undefined) throw new Error(`Unknown filter type [${String(type).slice(0, 40)}] on field [${filter.field}]: expected "all" or "any"`);
  return occur;
}

function valueClause(field: string, value: FilterValue): Clause {
  if (isRange(value)) return rangeClause(field, value);
  return { term: { [field]: value } };
}

function isRange(value: FilterValue): value is FilterValueRange {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The configured option whose name the value carries (a string, or an object's `name`). */
function optionNamed(field: string, facet: FacetConfiguration, value: FilterValue): FilterValueRange {
  if (facet.center !== undefined) throw new Error(`Geo distance facet [${field}] is not supported by the threadsearch connector`);
  const name = isRange(value) ? value.name : value;
  const option = facet.ranges?.find((r) => r.name === name);
  if (!option) throw new Error(`Range for ${field} with value ${String(name).slice(0, 100)} not found in facet configuration`);
  return option;
}

export function rangeClause(field: string, range: FilterValueRange): Clause {
  const bounds: Record<string, unknown> = {};
  if ('from' in range && range.from !== undefined) bounds.gte = bound(range.from);
  if ('to' in range && range.to !== undefined) bounds.lte = bound(range.to);
  return { range: { [field]: bounds } };
}

/** Dates (and anything `Date.parse` takes, such as "100") stay strings; the server coerces them. */
function bound(value: FieldValue): string | number {
  if (typeof value === 'string' && (DATE_MATH.test(value) || !Number.isNaN(Date.parse(value)))) return value;
  return Number(value);
}
