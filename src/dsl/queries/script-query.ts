/**
 * The `script` query (ES ScriptQueryBuilder): the documents for which a filter script — the
 * Painless subset, returning a boolean, without `_score` — is true, each scored `boost`.
 */
import { ParsingError } from '../../errors/index.js';
import { doubleValue, forEachEntry, isObject, readString } from '../parse-helpers.js';
import type { ScriptQuery } from '../query-nodes.js';
import { parseScriptSpec, type ScriptSpec } from '../script/index.js';

const Q = 'script';

export function parseScriptQuery(body: unknown): ScriptQuery {
  if (!isObject(body)) throw new ParsingError(`[${Q}] query malformed, no start_object after query name`);
  let script: ScriptSpec | null = null;
  let boost = 1;
  let name: string | null = null;
  forEachEntry(body, (k, v) => {
    if (k === 'script') script = parseScriptSpec(v);
    else if (k === 'boost' && !isObject(v)) boost = Math.fround(doubleValue(v));
    else if (k === '_name' && !isObject(v)) name = readString(Q, k, v);
    else throw new ParsingError(`[${Q}] query does not support [${k}]`);
  });
  if (script === null) throw new ParsingError('script must be provided with a [script] filter');
  if (boost < 0) throw new ParsingError('negative [boost] are not allowed.');
  return { kind: Q, script, boost, name };
}
