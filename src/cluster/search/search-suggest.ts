/**
 * Completion suggestions in the search flow on the coordinator: plan them once per index (a field
 * that is not a completion field, a missing text… fail that index's shards, as in ES), hand each
 * shard its index's plans, then reduce the shards' answers (search/suggest/suggest-reduce.ts) and render the
 * `suggest` object: suggestions by name (ES sorts them so), each one entry with the suggestion's
 * text and its options, each option the text and its document rendered as a hit (`_index`, `_id`,
 * `_score`, `_source` filtered as the request asks), read from the coordinator-owned segments.
 */
import { EsError } from '../../errors/index.js';
import type { SuggestNode } from '../../dsl/index.js';
import {
  planCompletion, reduceCompletion, renderHit, suggestionText, type ExecCompletion, type FetchSpec, type ShardSearchResult,
} from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';
import type { ShardTarget } from './search-phase.js';

export interface SearchSuggestPlans {
  readonly node: SuggestNode;
  forShard(index: IndexService): readonly ExecCompletion[];
}

export function planSearchSuggest(
  indices: readonly IndexService[], node: SuggestNode, fail: (index: IndexService, e: EsError) => Error,
): SearchSuggestPlans {
  const plans = new Map<IndexService, ExecCompletion[]>();
  for (const index of indices) {
    try {
      plans.set(index, node.suggestions.map((s) => planCompletion(index.resolvedMapping, s, node.globalText)));
    } catch (e) {
      if (e instanceof EsError) throw fail(index, e);
      throw e;
    }
  }
  return { node, forShard: (index) => plans.get(index)! };
}

/** The `suggest` object; `specFor` gives each index's fetch spec (its `_source` filtering). */
export function renderSearchSuggest(
  plans: SearchSuggestPlans, targets: readonly ShardTarget[], results: ReadonlyArray<ShardSearchResult | null>,
  specFor: (index: IndexService) => FetchSpec,
): string {
  const { suggestions, globalText } = plans.node;
  const order = suggestions.map((s, i) => ({ s, i })).sort((a, b) => (a.s.name < b.s.name ? -1 : a.s.name > b.s.name ? 1 : 0));
  const specs = new Map<IndexService, { spec: FetchSpec; indexJson: string }>();
  const parts = order.map(({ s, i }) => {
    const text = suggestionText(s, globalText)!;
    const options = reduceCompletion(targets, results, i, s.size, s.skipDuplicates).map((o) => {
      let fetch = specs.get(o.target.index);
      if (!fetch) specs.set(o.target.index, (fetch = { spec: specFor(o.target.index), indexJson: JSON.stringify(o.target.index.name) }));
      const hit = renderHit({ segment: o.segment, doc: o.doc, score: o.score, sortValues: null }, fetch.spec, fetch.indexJson);
      return `{"text":${JSON.stringify(o.text)},${hit.slice(1)}`;
    });
    const entry = `{"text":${JSON.stringify(text)},"offset":0,"length":${text.length},"options":[${options.join(',')}]}`;
    return `${JSON.stringify(s.name)}:[${entry}]`;
  });
  return `{${parts.join(',')}}`;
}
