/**
 * `collapse` checked for one index as ES's shards check it (SearchService.parseSource, then
 * CollapseBuilder.build): not in a scroll, `search_after` only when sorting on the collapse field
 * alone, not with `rescore`; the field mapped, keyword or numeric, with doc values. A failure fails
 * that index's shards (the caller wraps it as a shard failure).
 */
import { IllegalArgumentError, SearchError } from '../../errors/index.js';
import type { SearchRequest } from '../../dsl/index.js';
import type { ExecCollapse, FetchField } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';

/**
 * This server's bounds on `inner_hits` expansion (ES has none but the windows): the group searches
 * one page may run (page size × definitions), the group hits it may hold for rendering, and the
 * characters of definition names its hits repeat (each hit names every definition).
 */
export const MAX_GROUP_SEARCHES = 10_000;
export const MAX_GROUP_HITS = 100_000;
export const MAX_GROUP_NAME_CHARS = 10_000_000;

/** Types whose MappedFieldType.collapseType() is NUMERIC (NumberFieldMapper, UnsignedLongFieldMapper). */
const NUMERIC = new Set(['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'unsigned_long']);

export function resolveCollapse(req: SearchRequest, index: IndexService, scroll: boolean): ExecCollapse {
  const c = req.collapse!;
  if (scroll) throw new SearchError('cannot use `collapse` in a scroll context');
  if (req.searchAfter !== null) {
    const sort = req.sort;
    if (sort === null || sort.length !== 1 || sort[0].kind !== 'field' || sort[0].field !== c.field) {
      throw new SearchError('collapse field and sort field must be the same when use `collapse` in conjunction with `search_after`');
    }
  }
  if (req.collapseConflict) throw new SearchError(req.collapseConflict);
  if (c.field === null) throw new IllegalArgumentError('no collapse field specified');
  const field = index.resolvedMapping.fields.get(c.field);
  if (field === undefined) throw new IllegalArgumentError(`no mapping found for \`${c.field}\` in order to collapse on`);
  const kind = field.type === 'keyword' ? 'keyword' : NUMERIC.has(field.type) ? 'numeric' : null;
  if (kind === null) throw new IllegalArgumentError(`collapse is not supported for the field [${field.path}] of the type [${field.type}]`);
  if (!field.docValues) throw new IllegalArgumentError(`cannot collapse on field \`${c.field}\` without \`doc_values\``);
  if (c.innerHits.length > 0 && !field.indexed) {
    throw new IllegalArgumentError(`cannot expand \`inner_hits\` for collapse field \`${c.field}\`, only indexed field can retrieve \`inner_hits\``);
  }
  // Each group search is bounded as an inner hit definition is (InnerHitContextBuilder's check).
  const window = index.resolvedSettings.maxInnerResultWindow;
  for (const ih of c.innerHits) {
    if (ih.from + ih.size > window) {
      throw new IllegalArgumentError(`Inner result window is too large, the inner hit definition's [${ih.name}]'s from + size must be less than or equal to: [${window}] but was [${ih.from + ih.size}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`);
    }
  }
  const searches = req.size * c.innerHits.length;
  const hits = req.size * c.innerHits.reduce((n, ih) => n + ih.size, 0);
  if (searches > MAX_GROUP_SEARCHES || hits > MAX_GROUP_HITS) {
    throw new IllegalArgumentError(`[inner_hits] of [collapse] would run ${searches} group searches returning up to ${hits} hits for a page of [${req.size}]; this server allows at most [${MAX_GROUP_SEARCHES}] group searches and [${MAX_GROUP_HITS}] hits per page`);
  }
  const nameChars = req.size * c.innerHits.reduce((n, ih) => n + ih.name.length, 0);
  if (nameChars > MAX_GROUP_NAME_CHARS) {
    throw new IllegalArgumentError(`[inner_hits] of [collapse] would repeat ${nameChars} characters of definition names for a page of [${req.size}]; this server allows at most [${MAX_GROUP_NAME_CHARS}]`);
  }
  return { field: c.field, kind };
}

/** The collapse field as a hit's `fields` shows it (its doc value); null without `collapse` or a mapped field. */
export function collapseFetchField(req: SearchRequest, index: IndexService): FetchField | null {
  const name = req.collapse?.field ?? null;
  if (name === null) return null;
  const field = index.resolvedMapping.fields.get(name);
  return field === undefined ? null : { name, field, from: 'doc_values', format: null };
}
