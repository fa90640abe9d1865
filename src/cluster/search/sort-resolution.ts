/**
 * Request `sort` specs → executable sort keys for one index, by field type (ES FieldSortBuilder):
 * keyword fields sort by term, numbers/dates/booleans by value, text fields fail with ES's
 * fielddata error, unmapped fields fail unless `unmapped_type` is given.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { SortSpec } from '../../dsl/index.js';
import { fielddataError, resolveSortKeys, type ExecSort, type SortValue } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';

/** The same error aggregations raise; one definition, in search/. */
export { fielddataError };

export function resolveSort(specs: readonly SortSpec[], index: IndexService, indexPos = 0): ExecSort[] {
  return resolveSortKeys(specs, index.resolvedMapping, index, indexPos);
}

/** `search_after` values converted to the sort keys' types. */
export function resolveSearchAfter(values: readonly unknown[], keys: readonly ExecSort[]): SortValue[] {
  if (values.length !== keys.length) {
    throw new IllegalArgumentError(`search_after has ${values.length} value(s) but sort has ${keys.length}.`);
  }
  return keys.map((k, i) => {
    const v = values[i];
    if (k.kind === 'keyword' || (k.kind === 'script' && k.type === 'string')) return v === null ? null : String(v);
    const n = typeof v === 'number' ? v : Number(v);
    if (Number.isNaN(n)) throw new IllegalArgumentError(`Failed to parse search_after value for field [${k.kind === 'numeric' ? k.field : k.kind}].`);
    // Scores are float32 and shown as the shortest decimal that reads back as one: read it back so.
    return k.kind === 'score' ? Math.fround(n) : n;
  });
}
