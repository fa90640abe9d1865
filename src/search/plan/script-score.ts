/**
 * `script_score` planned for one index (ES ScriptScoreQueryBuilder.doToQuery): the script compiled
 * for the index, the sub-query planned with boost 1 (ScriptScoreQuery scores it unboosted and
 * multiplies the script's value by the boost). Without scores and without `min_score` it is its
 * sub-query (ScriptScoreQuery.createWeight with COMPLETE_NO_SCORES).
 */
import type { ScriptScoreQuery } from '../../dsl/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';
import { planScript } from './script.js';

export function scriptScoreQuery(ctx: PlanContext, node: ScriptScoreQuery, boost: number, plan: (q: ScriptScoreQuery['query'], boost: number) => Exec): Exec {
  const script = planScript(ctx, node.script);
  if (boost === 0 && node.minScore === null) return plan(node.query, 0);
  const query = plan(node.query, 1);
  if (query.kind === 'match_none') return MATCH_NONE;
  return { kind: 'script_score', query, script, minScore: node.minScore, boost };
}
