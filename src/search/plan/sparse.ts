/**
 * Learned-sparse queries (`text_expansion`, `sparse_vector`, `weighted_tokens`) → a bool `should`
 * of linear feature leaves, minimum_should_match 1, as ES's WeightedTokensUtils builds them: score =
 * boost × Σ query weight × stored document weight over the shared tokens.
 *
 * Token pruning follows ES's rule (SparseVectorQueryBuilder#shouldKeepToken): keep a token when
 * docFreq/docCount < tokens_freq_ratio_threshold × (sumDocFreq/docCount/maxSegmentTerms) or its
 * weight > tokens_weight_threshold × the best query weight; tokens in no document are dropped;
 * `only_score_pruned_tokens` inverts the choice. ES decides per shard with shard statistics; here
 * the statistics are index-wide (like BM25's), so which tokens are kept — and the results — do not
 * depend on the number of shards.
 */
import { IllegalArgumentError, QueryShardError } from '../../errors/index.js';
import { javaFloatToString } from '../../common/float-json.js';
import type { TokenPruningConfig, WeightedToken } from '../../dsl/index.js';
import type { ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec, type FeatureExec } from './exec-nodes.js';
import { boolOf } from './text.js';

export type SparseQueryName = 'text_expansion' | 'sparse_vector' | 'weighted_tokens';

function checkFieldType(ctx: PlanContext, query: SparseQueryName, field: ResolvedField): void {
  if (query === 'sparse_vector') {
    if (field.type !== 'sparse_vector') {
      throw new QueryShardError(`failed to create query: [${field.path}] must be type [sparse_vector] but is type [${field.type}]`, ctx.index,
        new IllegalArgumentError(`[${field.path}] must be type [sparse_vector] but is type [${field.type}]`));
    }
  } else if (field.type !== 'sparse_vector' && field.type !== 'rank_features') {
    const reason = `[${field.type}] is not an appropriate field type for this query. Allowed field types are [rank_features, sparse_vector].`;
    throw new QueryShardError(`failed to create query: ${reason}`, ctx.index, new IllegalArgumentError(reason));
  }
}

/** ES's token pruning over index-wide statistics (see above); returns the tokens to score. */
export function pruneTokens(ctx: PlanContext, field: string, tokens: readonly WeightedToken[], config: TokenPruningConfig): WeightedToken[] | null {
  const stats = ctx.stats.fieldStats(field);
  if (stats.docCount === 0 || stats.maxSegmentTermCount === 0) return null; // "query is against an empty field"
  const avgRatio = Math.fround(Math.fround(stats.sumDocFreq / stats.docCount) / stats.maxSegmentTermCount);
  let best = 0;
  for (const t of tokens) if (t.weight > best) best = t.weight;
  const ratioBar = Math.fround(config.tokensFreqRatioThreshold * avgRatio);
  const weightBar = Math.fround(config.tokensWeightThreshold * best);
  return tokens.filter((t) => {
    const df = ctx.stats.docFreq(field, t.token);
    const keep = df > 0 && (Math.fround(df / stats.docCount) < ratioBar || t.weight > weightBar);
    return keep !== config.onlyScorePrunedTokens;
  });
}

export function sparseQuery(
  ctx: PlanContext, query: SparseQueryName, fieldName: string, tokens: readonly WeightedToken[],
  pruning: TokenPruningConfig | null, boost: number,
): Exec {
  const field = ctx.mapping.fields.get(fieldName);
  if (!field) return MATCH_NONE; // ES: "query is against a field that does not exist"
  checkFieldType(ctx, query, field);
  for (const t of tokens) {
    // Lucene BoostQuery: each token weight is a clause boost.
    if (!(t.weight >= 0) || !Number.isFinite(t.weight)) {
      const reason = `boost must be a positive float, got ${javaFloatToString(t.weight)}`;
      throw new QueryShardError(`failed to create query: ${reason}`, ctx.index, new IllegalArgumentError(reason));
    }
  }
  const kept = pruning === null ? tokens : pruneTokens(ctx, fieldName, tokens, pruning);
  if (kept === null || kept.length === 0) return MATCH_NONE;
  const leaves: FeatureExec[] = kept.map((t) => ({ kind: 'feature', field: fieldName, feature: t.token, weight: Math.fround(boost * t.weight) }));
  return leaves.length === 1 ? leaves[0] : boolOf([], leaves, 1);
}
