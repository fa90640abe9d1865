/**
 * `rank_feature` (ES RankFeatureQueryBuilder): `{ field, saturation: {pivot?} | log: {scaling_factor}
 * | sigmoid: {pivot, exponent} | linear: {}, boost?, _name? }`, at most one function (saturation
 * with a pivot from index statistics when none is given). ES parses it with a ConstructingObjectParser
 * named `feature`, so its errors read `[feature] …`; the functions' own parsers name themselves.
 */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { forEachEntry, isObject, readNumber, readString } from '../parse-helpers.js';
import type { RankFeatureFunction, RankFeatureQuery } from '../query-nodes.js';
import { objectField, unknownField } from '../object-parser.js';
import { newCommon, readCommon } from './common.js';

const FUNCTIONS = ['log', 'saturation', 'sigmoid', 'linear'] as const;
const MEMBERS = ['field', 'boost', '_name', ...FUNCTIONS];

export function parseRankFeature(body: unknown): RankFeatureQuery {
  if (!isObject(body)) throw new ParsingError('[rank_feature] query malformed, no start_object after query name');
  let field: string | null = null;
  const common = newCommon();
  const functions: RankFeatureFunction[] = [];
  forEachEntry(body, (k, v) => {
    if (k === 'field') field = objectField('feature', k, () => readString('feature', k, v));
    else if (readCommon('feature', k, v, common)) return;
    else if ((FUNCTIONS as readonly string[]).includes(k)) functions.push(objectField('feature', k, () => readFunction(k as (typeof FUNCTIONS)[number], v)));
    else throw unknownField('feature', k, MEMBERS);
  });
  if (field === null) throw new IllegalArgumentError('Required [field]');
  if (functions.length > 1) throw new IllegalArgumentError('Can only specify one of [log], [saturation], [sigmoid] and [linear]');
  return { kind: 'rank_feature', field, fn: functions[0] ?? { kind: 'saturation', pivot: null }, boost: common.boost, name: common.name };
}

function readFunction(kind: (typeof FUNCTIONS)[number], value: unknown): RankFeatureFunction {
  if (!isObject(value)) throw new ParsingError(`[${kind}] Expected START_OBJECT but was: ${tokenName(value)}`);
  const params: Record<string, number> = {};
  const known = kind === 'log' ? ['scaling_factor'] : kind === 'saturation' ? ['pivot'] : kind === 'sigmoid' ? ['pivot', 'exponent'] : [];
  forEachEntry(value, (k, v) => {
    if (!known.includes(k)) throw unknownField(kind, k, known);
    // declareFloat: read as a Java float.
    params[k] = objectField(kind, k, () => Math.fround(readNumber(kind, k, v)));
  });
  const required = (...names: string[]) => {
    const missing = names.filter((n) => params[n] === undefined);
    if (missing.length > 0) throw new IllegalArgumentError(`Required [${missing.join(', ')}]`);
  };
  switch (kind) {
    case 'log':
      required('scaling_factor');
      return { kind, scalingFactor: params.scaling_factor };
    case 'saturation':
      return { kind, pivot: params.pivot ?? null };
    case 'sigmoid':
      required('pivot', 'exponent');
      return { kind, pivot: params.pivot, exponent: params.exponent };
    case 'linear':
      return { kind };
  }
}
