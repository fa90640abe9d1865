/** `bool`, `dis_max`, `constant_score`: the compound clauses (ES BoolQueryBuilder & co). */
import { ParsingError } from '../../errors/index.js';
import { doubleValue, forEachEntry, isObject, mapItems, readBoolean, readNumber, unknownParameter } from '../parse-helpers.js';
import type { BoolQuery, BoostingQuery, ConstantScoreQuery, DisMaxQuery, QueryNode } from '../query-nodes.js';
import { readCommon, readMinimumShouldMatch } from './common.js';

type ParseQuery = (json: unknown) => QueryNode;

export function parseBool(body: unknown, parseQuery: ParseQuery): BoolQuery {
  const q = 'bool';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const node = {
    kind: q as typeof q, must: [] as QueryNode[], should: [] as QueryNode[], filter: [] as QueryNode[], mustNot: [] as QueryNode[],
    minimumShouldMatch: null as string | number | null, boost: 1, name: null as string | null,
  };
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    switch (k) {
      case 'must': node.must.push(...mapItems(v, parseQuery)); break;
      case 'should': node.should.push(...mapItems(v, parseQuery)); break;
      case 'filter': node.filter.push(...mapItems(v, parseQuery)); break;
      case 'must_not': case 'mustNot': node.mustNot.push(...mapItems(v, parseQuery)); break;
      case 'minimum_should_match': node.minimumShouldMatch = readMinimumShouldMatch(q, v); break;
      case 'adjust_pure_negative': readBoolean(q, k, v); break;
      default: throw new ParsingError(`[${q}] query does not support [${k}]`);
    }
  });
  return node;
}

export function parseDisMax(body: unknown, parseQuery: ParseQuery): DisMaxQuery {
  const q = 'dis_max';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const node = { kind: q as typeof q, queries: [] as QueryNode[], tieBreaker: 0, boost: 1, name: null as string | null };
  let found = false;
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    if (k === 'queries') {
      node.queries = mapItems(v, parseQuery);
      found = true;
    } else if (k === 'tie_breaker') node.tieBreaker = readNumber(q, k, v);
    else throw unknownParameter(q, k);
  });
  if (!found) throw new ParsingError(`[dis_max] requires 'queries' field with at least one clause`);
  return node;
}

/** ES BoostingQueryBuilder.fromXContent: `positive`, `negative`, `negative_boost` (≥ 0), `boost`, `_name`. */
export function parseBoosting(body: unknown, parseQuery: ParseQuery): BoostingQuery {
  const q = 'boosting';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const c = { boost: 1, name: null as string | null };
  let positive: QueryNode | null = null;
  let negative: QueryNode | null = null;
  let negativeBoost = -1;
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, c)) return;
    if (k === 'positive') positive = parseQuery(v);
    else if (k === 'negative') negative = parseQuery(v);
    else if (k === 'negative_boost') negativeBoost = doubleValue(v);
    else throw unknownParameter(q, k);
  });
  // ES's messages, stray quote included.
  if (!positive) throw new ParsingError(`[boosting] query requires 'positive' query to be set'`);
  if (!negative) throw new ParsingError(`[boosting] query requires 'negative' query to be set'`);
  if (negativeBoost < 0) throw new ParsingError(`[boosting] query requires 'negative_boost' to be set to be a positive value'`);
  return { kind: q, positive, negative, negativeBoost, ...c };
}

export function parseConstantScore(body: unknown, parseQuery: ParseQuery): ConstantScoreQuery {
  const q = 'constant_score';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const c = { boost: 1, name: null as string | null };
  let filter: QueryNode | null = null;
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, c)) return;
    if (k === 'filter') filter = parseQuery(v);
    else throw unknownParameter(q, k);
  });
  if (!filter) throw new ParsingError(`[constant_score] requires a 'filter' element`);
  return { kind: q, filter, ...c };
}
