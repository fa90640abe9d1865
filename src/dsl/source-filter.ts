/**
 * `_source` filtering: true/false, "field", ["a", "b.*"], {includes, excludes} (+ legacy
 * include/exclude), as in ES FetchSourceContext. The path matching itself is in common/source-filter.
 */
import { ParsingError } from '../errors/index.js';
import { forEachEntry, isObject, mapItems, readString } from './parse-helpers.js';

import type { SourceFilter } from '../common/source-filter.js';

export type { SourceFilter };
export { filterSource, compilePathPatterns } from '../common/source-filter.js';

export const FETCH_ALL: SourceFilter = { fetch: true, includes: [], excludes: [] };

export function parseSourceFilter(json: unknown): SourceFilter {
  if (typeof json === 'boolean') return json ? FETCH_ALL : { fetch: false, includes: [], excludes: [] };
  if (typeof json === 'string') return { fetch: true, includes: [json], excludes: [] };
  if (Array.isArray(json)) return { fetch: true, includes: mapItems(json, (x) => readString('_source', 'includes', x)), excludes: [] };
  if (isObject(json)) {
    let includes: string[] = [];
    let excludes: string[] = [];
    forEachEntry(json, (k, v) => {
      if (k === 'includes' || k === 'include') includes = mapItems(v, (x) => readString('_source', k, x));
      else if (k === 'excludes' || k === 'exclude') excludes = mapItems(v, (x) => readString('_source', k, x));
      else throw new ParsingError(`Unknown key for a START_ARRAY in [${k}].`);
    });
    return { fetch: true, includes, excludes };
  }
  throw new ParsingError(`Expected one of [VALUE_BOOLEAN, VALUE_STRING, START_ARRAY, START_OBJECT] but found [${json === null ? 'VALUE_NULL' : 'VALUE_NUMBER'}]`);
}

/** URL params `_source`, `_source_includes`, `_source_excludes` (ES RestSearchAction / RestGetAction). */
export function parseSourceParams(source: string | undefined, includes: string | undefined, excludes: string | undefined): SourceFilter | null {
  if (source === undefined && includes === undefined && excludes === undefined) return null;
  let fetch = true;
  let inc: string[] = [];
  if (source !== undefined) {
    if (source === 'false') fetch = false;
    else if (source !== 'true' && source !== '') inc = source.split(',');
  }
  if (includes !== undefined) inc = includes.split(',');
  const exc = excludes !== undefined ? excludes.split(',') : [];
  return { fetch, includes: inc, excludes: exc };
}

