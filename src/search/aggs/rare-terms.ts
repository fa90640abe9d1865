/**
 * `rare_terms` (ES RareTermsAggregator / InternalMappedRareTerms): collected as `terms` (every
 * bucket of every shard, so counts are exact), then only the terms of at most `max_doc_count`
 * docs kept, past `include`/`exclude`, sorted by count then key ascending, as ES's ORDER. ES
 * tracks the terms it drops in cuckoo filters and can err; here the answer is exact, the same for
 * any shard count.
 */
import type { ExecBucketOrder, ExecRareTerms } from './exec-aggs.js';
import type { BucketBudget, MergedBucket, SubAggregations } from './buckets.js';
import { compareKeys } from './key-format.js';
import { rankBuckets, renderTermBucket, termsFilter } from './terms.js';

/** AbstractRareTermsAggregator.ORDER: count ascending, then key ascending. */
const RARE_ORDER: readonly ExecBucketOrder[] = [{ key: '_count', desc: false, path: [] }, { key: '_key', desc: false, path: [] }];

export function renderRareTerms(agg: ExecRareTerms, merged: Map<string | number, MergedBucket>, budget: BucketBudget, sub: SubAggregations): Record<string, unknown> {
  const include = agg.include ? termsFilter(agg.include, agg.source) : null;
  const exclude = agg.exclude ? termsFilter(agg.exclude, agg.source) : null;
  const eligible: Array<[string | number, MergedBucket]> = [];
  for (const entry of merged) {
    if (entry[1].count > agg.maxDocCount) continue;
    if ((include && !include(entry[0])) || (exclude && exclude(entry[0]))) continue;
    eligible.push(entry);
  }
  const { shown } = rankBuckets({ order: RARE_ORDER, size: eligible.length, subs: agg.subs }, eligible, sub, compareKeys);
  // No `size`: search.max_buckets is the only bound on what a response holds.
  budget.take(shown.length);
  return { buckets: shown.map(([key, b]) => renderTermBucket(agg, key, b, budget, sub)) };
}
