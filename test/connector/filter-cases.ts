/**
 * The filter matrix of the connector suite: `all` / `any` / `none` over value, numeric-range and
 * date-range fields, each with the plain-JS predicate a matching product satisfies. The scenarios
 * run every case twice: on a field without a facet (the connector puts it in `query.bool.filter`)
 * and on a faceted field (it goes to `post_filter` and into the facet wrappers' filters).
 */
import type { Filter, FilterValueRange } from '@elastic/search-ui';
import { fieldValues, inRange, type Product } from './products.js';

/** Range facet options, as a Search UI app configures them (reference §8). */
export const PRICE_RANGES: FilterValueRange[] = [
  { to: 50, name: 'Under 50' },
  { from: 50, to: 500, name: '50 to 500' },
  { from: 500, name: '500 and up' },
];
export const DATE_RANGES: FilterValueRange[] = [
  { from: '2024-01-01', name: '2024' },
  { from: '2023-01-01', to: '2023-12-31', name: '2023' },
  { to: '2022-12-31', name: 'Before 2023' },
];

export interface FilterCase {
  readonly name: string;
  readonly filter: Filter;
  /**
   * The same filter as a Search UI app sends it for a range facet: the option's name, which the
   * connector looks up in the facet's `ranges`. Absent when the values are used as they are.
   */
  readonly facetValues?: Filter['values'];
  readonly matches: (p: Product) => boolean;
}

const option = (ranges: FilterValueRange[], name: string): FilterValueRange => {
  const found = ranges.find((r) => r.name === name);
  if (!found) throw new Error(`no range option [${name}]`);
  return found;
};
const price = (name: string) => option(PRICE_RANGES, name);
const date = (name: string) => option(DATE_RANGES, name);
const has = (field: string, value: string | number | boolean) => (p: Product) => fieldValues(p, field).includes(value);
const within = (field: string, range: FilterValueRange) => (p: Product) => inRange(p, field, range as { from?: number | string; to?: number | string });

export const FILTER_CASES: readonly FilterCase[] = [
  { name: 'value, all of one', filter: { field: 'category', type: 'all', values: ['laptops'] }, matches: has('category', 'laptops') },
  {
    name: 'value, all of two (a multi-valued field)',
    filter: { field: 'tags', type: 'all', values: ['wireless', 'bluetooth'] },
    matches: (p) => has('tags', 'wireless')(p) && has('tags', 'bluetooth')(p),
  },
  { name: 'value, any', filter: { field: 'tags', type: 'any', values: ['gaming', 'outdoor'] }, matches: (p) => has('tags', 'gaming')(p) || has('tags', 'outdoor')(p) },
  { name: 'value, none', filter: { field: 'category', type: 'none', values: ['accessories', 'audio'] }, matches: (p) => !has('category', 'accessories')(p) && !has('category', 'audio')(p) },
  // Products without tags match: must_not excludes only documents that have the value.
  { name: 'value, none (documents without the field match)', filter: { field: 'tags', type: 'none', values: ['wireless'] }, matches: (p) => !has('tags', 'wireless')(p) },
  { name: 'a boolean as the value', filter: { field: 'in_stock', type: 'all', values: [false] }, matches: (p) => !p.in_stock },
  { name: 'numbers as values, any', filter: { field: 'stock', type: 'any', values: [0, 2, 150] }, matches: (p) => [0, 2, 150].includes(p.stock) },
  {
    name: 'numeric range, all (both bounds inclusive: 500 is in)',
    filter: { field: 'price', type: 'all', values: [price('50 to 500')] },
    facetValues: ['50 to 500'],
    matches: within('price', price('50 to 500')),
  },
  {
    name: 'numeric range, any of two',
    filter: { field: 'price', type: 'any', values: [price('Under 50'), price('500 and up')] },
    facetValues: ['Under 50', { name: '500 and up' }],
    matches: (p) => within('price', price('Under 50'))(p) || within('price', price('500 and up'))(p),
  },
  { name: 'numeric range, none', filter: { field: 'price', type: 'none', values: [price('500 and up')] }, facetValues: ['500 and up'], matches: (p) => !within('price', price('500 and up'))(p) },
  // V8's Date.parse accepts "100", so the connector sends these bounds as strings (reference §3.4).
  {
    name: 'numeric range with bounds given as strings',
    filter: { field: 'price', type: 'all', values: [{ name: '100 to 300', from: '100', to: '300' }] },
    matches: (p) => p.price >= 100 && p.price <= 300,
  },
  {
    name: 'date range, all (an upper bound without time covers its whole day)',
    filter: { field: 'release_date', type: 'all', values: [date('2023')] },
    facetValues: ['2023'],
    matches: within('release_date', date('2023')),
  },
  {
    name: 'date range, any of two',
    filter: { field: 'release_date', type: 'any', values: [date('2024'), date('Before 2023')] },
    facetValues: ['2024', 'Before 2023'],
    matches: (p) => within('release_date', date('2024'))(p) || within('release_date', date('Before 2023'))(p),
  },
  { name: 'date range, none (a product without a date matches)', filter: { field: 'release_date', type: 'none', values: [date('2024')] }, facetValues: ['2024'], matches: (p) => !within('release_date', date('2024'))(p) },
  {
    name: 'date range with date math',
    filter: { field: 'release_date', type: 'all', values: [{ name: 'before 2023 by date math', to: '2023-01-01||-1d/d' }] },
    matches: (p) => p.release_date !== undefined && Date.parse(p.release_date) < Date.parse('2023-01-01'),
  },
];
