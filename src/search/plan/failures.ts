/**
 * Value errors while building a query (a number that does not parse, a bad date) become ES's
 * shard-level `query_shard_exception` "failed to create query: …", or match nothing when the query
 * is lenient (explicitly, or implicitly when it targets every field with `*`).
 */
import { EsError, QueryShardError } from '../../errors/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';

export function asShardFailure(ctx: PlanContext, lenient: boolean, build: () => Exec): Exec {
  try {
    return build();
  } catch (e) {
    if (!(e instanceof EsError) || e instanceof QueryShardError) throw e;
    if (lenient) return MATCH_NONE;
    throw new QueryShardError(`failed to create query: ${e.message}`, ctx.index, e);
  }
}
