/**
 * `indices_boost` (ES SearchSourceBuilder.IndexBoost): an array of one-entry objects, index
 * expression → boost. ES 8 takes only the array form; the object form (`{"a": 1.5}`) was
 * deprecated in 5.x and is read only under the REST compatibility of 7, so here, as in ES 8
 * without it, it is "Unknown key for a START_OBJECT in [indices_boost]." (search-request.ts).
 * Expressions are resolved per search (cluster/search/index-boosts.ts).
 */
import { IllegalArgumentError, ParsingError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { isObject, within } from './parse-helpers.js';

export interface IndexBoost {
  /** An index, alias or wildcard expression, resolved as the search resolves its targets. */
  readonly index: string;
  /** A float, as ES reads it (parser.floatValue()). */
  readonly boost: number;
}

const FIELD = 'indices_boost';

export function parseIndicesBoost(v: readonly unknown[]): IndexBoost[] {
  return v.map((item, i) => within(i, () => indexBoost(item)));
}

function indexBoost(item: unknown): IndexBoost {
  if (!isObject(item)) throw new ParsingError(`Expected [START_OBJECT] in [${FIELD}] but found [${tokenName(item)}]`);
  const keys = Object.keys(item);
  if (keys.length === 0) throw new ParsingError(`Expected [FIELD_NAME] in [${FIELD}] but found [END_OBJECT]`);
  const boost = item[keys[0]];
  if (typeof boost !== 'number') throw new ParsingError(`Expected [VALUE_NUMBER] in [${FIELD}] but found [${tokenName(boost)}]`);
  if (keys.length > 1) throw new ParsingError(`Expected [END_OBJECT] in [${FIELD}] but found [FIELD_NAME]`);
  const f = Math.fround(boost);
  // A limit ES lacks: Lucene wants scores ≥ 0 (ES fails the shards when a boosted score is negative or NaN).
  if (!(f >= 0) || f === Infinity) throw new IllegalArgumentError(`[${FIELD}] boost must be a finite, non-negative float, got [${boost}] for [${keys[0]}]`);
  return { index: keys[0], boost: f };
}
