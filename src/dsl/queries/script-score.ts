/**
 * `script_score` (ES ScriptScoreQueryBuilder, a ConstructingObjectParser): `query` and `script`
 * required, `min_score` and `boost` as floats, `_name`. The script is compiled per index when the
 * query is planned, as ES compiles it on each shard.
 */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { objectField, unknownField } from '../object-parser.js';
import { doubleValue, forEachEntry, isObject, readString } from '../parse-helpers.js';
import type { QueryNode, ScriptScoreQuery } from '../query-nodes.js';
import { parseScriptSpec, type ScriptSpec } from '../script/index.js';
import { newCommon, readCommon } from './common.js';

const Q = 'script_score';
const MEMBERS = ['query', 'script', 'min_score', 'boost', '_name'];

export function parseScriptScore(body: unknown, parseQuery: (json: unknown) => QueryNode): ScriptScoreQuery {
  if (!isObject(body)) throw new ParsingError(`[${Q}] query malformed, no start_object after query name`);
  const c = newCommon();
  let query: QueryNode | null = null;
  let script: ScriptSpec | null = null;
  let minScore: number | null = null;
  forEachEntry(body, (k, v) => {
    if (k === 'boost' || k === '_name') objectField(Q, k, () => readCommon(Q, k, k === 'boost' ? Math.fround(doubleValue(v)) : readString(Q, k, v), c));
    else if (k === 'query') query = parseQuery(v);
    else if (k === 'script') script = objectField(Q, k, () => parseScriptSpec(v));
    else if (k === 'min_score') minScore = objectField(Q, k, () => Math.fround(doubleValue(v)));
    else throw unknownField(Q, k, MEMBERS);
  });
  const missing = [query === null ? 'query' : null, script === null ? 'script' : null].filter((m) => m !== null);
  if (missing.length > 0) throw new IllegalArgumentError(`Required [${missing.join(', ')}]`);
  return { kind: Q, query: query!, script: script!, minScore, boost: c.boost, name: c.name };
}
