import { isObject, unknownParameter } from '../parse-helpers.js';
import { ParsingError } from '../../errors/index.js';
import type { MatchAllQuery, MatchNoneQuery } from '../query-nodes.js';
import { newCommon, readCommon } from './common.js';

function parseNoArgs(kind: 'match_all' | 'match_none', body: unknown) {
  if (!isObject(body)) throw new ParsingError(`[${kind}] query malformed, no start_object after query name`);
  const c = newCommon();
  for (const [k, v] of Object.entries(body)) if (!readCommon(kind, k, v, c)) throw unknownParameter(kind, k);
  return c;
}

export function parseMatchAll(body: unknown): MatchAllQuery {
  return { kind: 'match_all', ...parseNoArgs('match_all', body) };
}

export function parseMatchNone(body: unknown): MatchNoneQuery {
  return { kind: 'match_none', ...parseNoArgs('match_none', body) };
}
