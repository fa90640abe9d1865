/**
 * QueryNode → Exec: the one switch over query kinds on the coordinator. Boosts are multiplied down
 * to the leaves (`boost` is the product of every enclosing boost, as Lucene's createWeight passes
 * it), so the executable tree's compound nodes carry none.
 */
import { IllegalArgumentError, QueryShardError } from '../../errors/index.js';
import { resolveTextContext } from '../../index/index.js';
import { DEFAULT_TOKEN_PRUNING, assertNever, resolveMinimumShouldMatch, type QueryNode, type WeightedToken } from '../../dsl/index.js';
import { sparseQuery } from './sparse.js';
import { rankFeatureQuery } from './rank-feature.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';
import { planMultiMatch } from './multi-match.js';
import { boolPrefixQuery } from './bool-prefix.js';
import { phraseQuery } from './match-phrase.js';
import { planQueryString } from './query-string-plan.js';
import { planSimpleQueryString } from './simple-query-string-plan.js';
import { fuzzyQuery } from './fuzzy.js';
import { functionScoreQuery } from './function-score.js';
import { scriptScoreQuery } from './script-score.js';
import { planScript } from './script.js';
import { existsQuery, ID_FIELD, idsQuery, prefixQuery, rangeQuery, regexpQuery, termQuery, termsQuery, wildcardQuery } from './term-level.js';
import { boolOf, matchQuery } from './text.js';
import { knnQuery } from './knn.js';


/** The coordinator encodes query texts before planning (cluster/search/query-inference.ts). */
function inferred(kind: string, tokens: readonly WeightedToken[] | null): readonly WeightedToken[] {
  if (tokens === null) throw new IllegalArgumentError(`[${kind}] query text was not encoded: no inference service is available`);
  return tokens;
}

/** Full-text queries check a request `analyzer` before anything else (e.g. MatchQueryBuilder.doToQuery). */
function checkAnalyzer(ctx: PlanContext, node: { readonly kind: string; readonly analyzer: string | null }): void {
  if (node.analyzer !== null && !resolveTextContext(ctx.mapping.text).analysis.analyzer(node.analyzer)) {
    throw new QueryShardError(`[${node.kind}] analyzer [${node.analyzer}] not found`, ctx.index);
  }
}

export function planQuery(ctx: PlanContext, node: QueryNode | null, parentBoost = 1): Exec {
  if (node === null) return { kind: 'match_all', score: 1 };
  const boost = Math.fround(Math.fround(parentBoost) * Math.fround(node.boost));
  const field = (name: string) => ctx.mapping.fields.get(name);
  switch (node.kind) {
    case 'match': case 'match_phrase': case 'match_phrase_prefix': case 'match_bool_prefix': case 'multi_match': case 'query_string':
    case 'simple_query_string':
      checkAnalyzer(ctx, node);
  }
  switch (node.kind) {
    case 'match_all':
      return { kind: 'match_all', score: boost };
    case 'match_none':
      return MATCH_NONE;
    case 'match': {
      if (node.field === ID_FIELD) return idsQuery([String(node.query)], boost);
      const mf = field(node.field);
      return mf ? matchQuery(ctx, mf, String(node.query), boost, node) : MATCH_NONE;
    }
    case 'match_phrase':
    case 'match_phrase_prefix': {
      const mf = field(node.field);
      if (!mf) return MATCH_NONE;
      return phraseQuery(ctx, mf, node.query, boost, {
        slop: node.slop, analyzer: node.analyzer, zeroTermsQuery: node.zeroTermsQuery,
        prefixMaxExpansions: node.kind === 'match_phrase_prefix' ? node.maxExpansions : null, lenient: false,
      });
    }
    case 'match_bool_prefix': {
      const mf = field(node.field);
      return mf ? boolPrefixQuery(ctx, mf, node.query, boost, node) : MATCH_NONE;
    }
    case 'multi_match':
      return planMultiMatch(ctx, { ...node, boost });
    case 'query_string':
      return planQueryString(ctx, node, boost);
    case 'simple_query_string':
      return planSimpleQueryString(ctx, node, boost);
    case 'bool': {
      const must = node.must.map((q) => planQuery(ctx, q, boost));
      const should = node.should.map((q) => planQuery(ctx, q, boost));
      // Filter and must_not clauses do not score: plan them with boost 0 (Lucene ScoreMode.COMPLETE_NO_SCORES).
      const filter = node.filter.map((q) => planQuery(ctx, q, 0));
      const mustNot = node.mustNot.map((q) => planQuery(ctx, q, 0));
      // ES BoolQueryBuilder: minimum_should_match defaults to 1 only when there are no must/filter clauses.
      let msm = resolveMinimumShouldMatch(node.minimumShouldMatch, should.length);
      if (node.minimumShouldMatch === null && should.length > 0 && must.length === 0 && filter.length === 0) msm = 1;
      if (must.length === 0 && should.length === 0 && filter.length === 0 && mustNot.length === 0) {
        return { kind: 'match_all', score: boost };
      }
      if (must.length === 0 && should.length === 0 && filter.length === 0) {
        // Pure negative: ES adds a match_all MUST (adjust_pure_negative).
        return boolOf([{ kind: 'match_all', score: boost }], [], 0, [], mustNot);
      }
      return boolOf(must, should, msm, filter, mustNot);
    }
    case 'dis_max': {
      const clauses = node.queries.map((q) => planQuery(ctx, q, boost));
      return clauses.length === 1 ? clauses[0] : { kind: 'dis_max', clauses, tieBreaker: node.tieBreaker };
    }
    case 'constant_score':
      return { kind: 'constant', filter: planQuery(ctx, node.filter, 0), score: boost };
    case 'function_score':
      return functionScoreQuery(ctx, node, boost, (q, b) => planQuery(ctx, q, b));
    case 'script_score':
      return scriptScoreQuery(ctx, node, boost, (q, b) => planQuery(ctx, q, b));
    case 'script':
      return { kind: 'script_filter', script: planScript(ctx, node.script, 'boolean'), score: boost };
    case 'boosting': {
      // The negative query only decides which scores are lowered: planned without scores.
      const positive = planQuery(ctx, node.positive, 1);
      if (positive.kind === 'match_none') return MATCH_NONE;
      return { kind: 'boosting', positive, negative: planQuery(ctx, node.negative, 0), negativeBoost: node.negativeBoost, boost };
    }
    case 'term':
      if (node.field === ID_FIELD) return idsQuery([String(node.value)], boost);
      return termQuery(ctx, field(node.field), node.value, boost, node.caseInsensitive);
    case 'terms':
      if (node.field === ID_FIELD) return idsQuery(node.values.map(String), boost);
      return termsQuery(ctx, field(node.field), node.values, boost);
    case 'range':
      return rangeQuery(ctx, field(node.field), node, boost);
    case 'exists':
      return existsQuery(ctx, node.field, boost);
    case 'ids':
      return idsQuery(node.values, boost);
    case 'prefix':
      return prefixQuery(ctx, field(node.field), node.value, boost, node.caseInsensitive);
    case 'wildcard':
      return wildcardQuery(ctx, field(node.field), node.value, boost, node.caseInsensitive);
    case 'regexp':
      return regexpQuery(ctx, field(node.field), node.value, boost, node);
    case 'fuzzy':
      return fuzzyQuery(ctx, field(node.field), node, boost);
    case 'weighted_tokens':
      return sparseQuery(ctx, 'weighted_tokens', node.field, node.tokens, node.pruningConfig, boost);
    case 'text_expansion':
      return sparseQuery(ctx, 'text_expansion', node.field, inferred(node.kind, node.tokens), node.pruningConfig, boost);
    case 'sparse_vector':
      return sparseQuery(ctx, 'sparse_vector', node.field, inferred(node.kind, node.queryVector),
        node.prune ? node.pruningConfig ?? DEFAULT_TOKEN_PRUNING : null, boost);
    case 'rank_feature':
      return rankFeatureQuery(ctx, node, boost);
    case 'knn':
      // The filter only selects candidates: planned without scores.
      return knnQuery(ctx, node, boost, (q) => planQuery(ctx, q, 0));
    default:
      return assertNever(node);
  }
}
