/**
 * `slice` of a scroll or point-in-time search, checked and turned into a filter per index as ES's
 * shards do (SearchService.parseSource, DefaultSearchContext.preProcess, SliceBuilder.toFilter):
 * only in a scroll or point in time; a scroll's `max` at most `index.max_slices_per_scroll`; a
 * `field` mapped, numeric and with doc values; `_id` not with a point in time. A failure fails that
 * index's shards (the caller wraps it as a shard failure).
 *
 * How documents are partitioned — a choice that departs from ES. ES assigns whole shards to
 * slices when `max` ≤ the number of shards, and splits each shard's documents among its slices
 * otherwise, so which documents a slice holds depends on the shard count. Here every document's
 * slice is a function of the document alone, as ES computes it on a one-shard index: the hash of
 * its `_id` for a scroll (TermsSliceQuery), its index-wide write order for a point in time (in ES a
 * range of Lucene doc ids, DocIdSliceQuery, which depends on segment layout), or its doc values of
 * `field` (DocValuesSliceQuery). Slices are thus disjoint, together hold every hit once (a doc with
 * several values of `field` excepted, as in ES), and are the same with 1 shard or several — the
 * invariant every search here keeps. search/exec/slice-docs.ts computes the keys.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { SliceRequest } from '../../dsl/index.js';
import type { SliceExec } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';

/** How a numeric field's doc values are stored as longs (ES IndexNumericFieldData's types). */
const NUMERIC_BITS: Record<string, SliceExec['by']> = {
  long: 'long', integer: 'long', short: 'long', byte: 'long', unsigned_long: 'long', date: 'long', date_nanos: 'long', boolean: 'long',
  double: 'double', scaled_float: 'double', float: 'float', half_float: 'float',
};

/** ES SearchRequest.validate's rule, for searches that reach here without the REST layer's check (`_rank_eval` requests). */
export const SLICE_OUTSIDE_CONTEXT = '[slice] can only be used with [scroll] or [point-in-time] requests';

/** The filter a sliced search adds for `index`, in a scroll's page or a point in time's search. */
export function sliceFilter(slice: SliceRequest, index: IndexService, context: 'scroll' | 'pit'): SliceExec {
  const limit = index.resolvedSettings.maxSlicesPerScroll;
  if (context === 'scroll' && slice.max > limit) {
    throw new IllegalArgumentError(`The number of slices [${slice.max}] is too large. It must be less than [${limit}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.`);
  }
  const { id, max, field } = slice;
  if (field === null) return { kind: 'slice', by: context === 'scroll' ? 'id' : 'index_order', field: null, id, max, score: 0 };
  if (field === '_id') {
    if (context === 'pit') throw new IllegalArgumentError('cannot slice on [_id] when using [point-in-time]');
    return { kind: 'slice', by: 'id', field: null, id, max, score: 0 };
  }
  const mapped = index.resolvedMapping.fields.get(field);
  if (mapped === undefined) throw new IllegalArgumentError(`field ${field} not found`);
  const by = NUMERIC_BITS[mapped.type];
  if (!mapped.docValues || by === undefined) throw new IllegalArgumentError(`cannot load numeric doc values on ${field}`);
  return { kind: 'slice', by, field, id, max, score: 0 };
}
