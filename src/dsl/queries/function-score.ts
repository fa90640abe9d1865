/**
 * ES `function_score` (FunctionScoreQueryBuilder.fromXContent): a `query` (match_all when absent)
 * whose scores are combined (`boost_mode`) with the functions that apply to each document
 * (`score_mode`, `max_boost`), then `min_score`. Functions: `weight`, `field_value_factor` and the
 * decay functions `gauss`, `exp`, `linear`, each with an optional `filter` and `weight`; one
 * function may also be given at the top level. `script_score` (a script of the Painless subset,
 * dsl/script/) and `random_score` (`seed`, `field`) too.
 */
import { IllegalArgumentError, ParsingError, previewInput } from '../../errors/index.js';
import { doubleValue, forEachEntry, isObject, mapItems, readString, unknownParameter } from '../parse-helpers.js';
import type { DecayFunction, FunctionScoreFunction, FunctionScoreQuery, QueryNode, ScoreFunction } from '../query-nodes.js';
import { parseScriptSpec, type ScriptSpec } from '../script/index.js';
import { tokenName } from '../json-body.js';
import { javaLongHash, javaStringHash } from '../../common/java-hash.js';
import { newCommon, readCommon } from './common.js';

type ParseQuery = (json: unknown) => QueryNode;

const Q = 'function_score';
const SCORE_MODES = ['multiply', 'sum', 'avg', 'first', 'max', 'min'] as const;
const BOOST_MODES = ['multiply', 'replace', 'sum', 'avg', 'max', 'min'] as const;
const MODIFIERS = ['none', 'log', 'log1p', 'log2p', 'ln', 'ln1p', 'ln2p', 'square', 'sqrt', 'reciprocal'] as const;
const DECAYS = new Set(['gauss', 'exp', 'linear']);

function oneOf<const V extends string>(what: string, values: readonly V[], v: unknown): V {
  const s = readString(Q, what, v).toLowerCase();
  if (!(values as readonly string[]).includes(s)) throw new ParsingError(`[${Q}] illegal ${what} [${previewInput(s)}]`);
  return s as V;
}

/** `field_value_factor`: `field`, `factor` (1), `modifier` (none), `missing`. */
function parseFieldValueFactor(v: unknown): ScoreFunction {
  if (!isObject(v)) throw new ParsingError(`[field_value_factor] malformed, expected an object`);
  let field: string | null = null;
  let factor = 1;
  let modifier: (typeof MODIFIERS)[number] = 'none';
  let missing: number | null = null;
  forEachEntry(v, (k, x) => {
    if (k === 'field') field = readString('field_value_factor', k, x);
    else if (k === 'factor') factor = doubleValue(x);
    else if (k === 'modifier') modifier = oneOf('modifier', MODIFIERS, x);
    else if (k === 'missing') missing = doubleValue(x);
    else throw new ParsingError(`field_value_factor query does not support [${k}]`);
  });
  if (field === null) throw new ParsingError('[field_value_factor] required field \'field\' missing');
  return { kind: 'field_value_factor', field, factor, modifier, missing };
}

/** A decay function: `{ <field>: { origin, scale, offset, decay }, multi_value_mode }`. */
function parseDecay(type: DecayFunction['type'], v: unknown): ScoreFunction {
  if (!isObject(v)) throw new ParsingError(`[${type}] malformed, expected an object`);
  let spec: DecayFunction | null = null;
  let multiValueMode: DecayFunction['multiValueMode'] = 'min';
  forEachEntry(v, (k, x) => {
    if (k === 'multi_value_mode') {
      multiValueMode = oneOf('multi_value_mode', ['min', 'max', 'avg', 'sum'] as const, x);
      return;
    }
    if (spec !== null) throw new ParsingError(`[${type}] can only decay on one field, found a second one [${k}]`);
    if (!isObject(x)) throw new ParsingError(`[${type}] the decay parameters of [${k}] must be an object`);
    const p = { origin: null as string | number | null, scale: null as string | number | null, offset: 0 as string | number, decay: 0.5 };
    forEachEntry(x, (pk, pv) => {
      if (pk === 'decay') p.decay = doubleValue(pv);
      else if (pk === 'origin' || pk === 'scale' || pk === 'offset') {
        if (typeof pv !== 'string' && typeof pv !== 'number') throw new ParsingError(`[${type}] [${pk}] must be a number or a string`);
        p[pk] = pv;
      } else throw new ParsingError(`[${type}] unknown decay parameter [${pk}]`);
    });
    if (p.scale === null) throw new ParsingError(`[${type}] requires [scale] for field [${k}]`);
    if (!(p.decay > 0 && p.decay < 1)) throw new IllegalArgumentError(`decay must be in the range [0..1].`);
    spec = { kind: 'decay', type, field: k, origin: p.origin, scale: p.scale, offset: p.offset, decay: p.decay, multiValueMode: 'min' };
  });
  if (spec === null) throw new ParsingError(`[${type}] requires a field to decay on`);
  return { ...(spec as DecayFunction), multiValueMode };
}

/** ScriptScoreFunctionBuilder.fromXContent: `{ "script": ... }`. */
function parseScriptScoreFunction(v: unknown): ScoreFunction {
  if (!isObject(v)) throw new ParsingError(`[script_score] malformed, expected an object`);
  let script: ScriptSpec | null = null;
  forEachEntry(v, (k, x) => {
    if (k === 'script') script = parseScriptSpec(x);
    else throw new ParsingError(`script_score query does not support [${k}]`);
  });
  if (script === null) throw new ParsingError(`script_score requires 'script' field`);
  return { kind: 'script_score', script };
}

/** RandomScoreFunctionBuilder.fromXContent: `seed` (an int, a long as Long.hashCode, a string as its hashCode) and `field`. */
function parseRandomScore(v: unknown): ScoreFunction {
  if (!isObject(v)) throw new ParsingError(`[random_score] malformed, expected an object`);
  let seed: number | null = null;
  let field: string | null = null;
  forEachEntry(v, (k, x) => {
    if (k === 'seed') {
      if (typeof x === 'string') seed = javaStringHash(x);
      else if (typeof x === 'number' && Number.isInteger(x)) seed = javaLongHash(x);
      else if (typeof x === 'number') throw new ParsingError(`random_score seed must be an int, long or string, not 'VALUE_NUMBER'`);
      else throw new ParsingError(`random_score seed must be an int/long or string, not '${tokenName(x)}'`);
    } else if (k === 'field') field = readString('random_score', k, x);
    else throw new ParsingError(`random_score query does not support [${k}]`);
  });
  return { kind: 'random_score', seed, field };
}

/** One function's own member, or null for a member that is not a function. */
function readFunction(k: string, v: unknown): ScoreFunction | null {
  if (k === 'field_value_factor') return parseFieldValueFactor(v);
  if (DECAYS.has(k)) return parseDecay(k as DecayFunction['type'], v);
  if (k === 'script_score') return parseScriptScoreFunction(v);
  if (k === 'random_score') return parseRandomScore(v);
  return null;
}

function parseFunctionEntry(v: unknown, parseQuery: ParseQuery): FunctionScoreFunction {
  if (!isObject(v)) throw new ParsingError(`failed to parse [${Q}]. malformed query, expected a [START_OBJECT] while parsing functions but got a [${Array.isArray(v) ? 'START_ARRAY' : 'VALUE'}] instead`);
  let filter: QueryNode | null = null;
  let weight: number | null = null;
  let fn: ScoreFunction | null = null;
  forEachEntry(v, (k, x) => {
    if (k === 'filter') filter = parseQuery(x);
    else if (k === 'weight') weight = doubleValue(x);
    else {
      const f = readFunction(k, x);
      if (f === null) throw new ParsingError(`failed to parse [${Q}]. function [${k}] not supported`);
      if (fn !== null) throw new ParsingError(`failed to parse function_score functions. already found [${fn.kind === 'decay' ? fn.type : fn.kind}], now encountering [${k}].`);
      fn = f;
    }
  });
  return { filter, weight: weight ?? 1, fn: fn ?? { kind: 'weight' } };
}

export function parseFunctionScore(body: unknown, parseQuery: ParseQuery): FunctionScoreQuery {
  if (!isObject(body)) throw new ParsingError(`[${Q}] query malformed, no start_object after query name`);
  const c = newCommon();
  let query: QueryNode | null = null;
  let functions: FunctionScoreFunction[] | null = null;
  let single: ScoreFunction | null = null;
  let singleWeight: number | null = null;
  let scoreMode: FunctionScoreQuery['scoreMode'] = 'multiply';
  let boostMode: FunctionScoreQuery['boostMode'] = 'multiply';
  let maxBoost = Number.MAX_VALUE;
  let minScore: number | null = null;
  forEachEntry(body, (k, v) => {
    if (readCommon(Q, k, v, c)) return;
    switch (k) {
      case 'query': query = parseQuery(v); return;
      case 'functions': functions = mapItems(v, (f) => parseFunctionEntry(f, parseQuery)); return;
      case 'score_mode': scoreMode = oneOf('score_mode', SCORE_MODES, v); return;
      case 'boost_mode': boostMode = oneOf('boost_mode', BOOST_MODES, v); return;
      case 'max_boost': maxBoost = doubleValue(v); return;
      case 'min_score': minScore = doubleValue(v); return;
      case 'weight': singleWeight = doubleValue(v); return;
      default: {
        const f = readFunction(k, v);
        if (f === null) throw unknownParameter(Q, k);
        single = f;
      }
    }
  });
  if (functions !== null && (single !== null || singleWeight !== null)) {
    throw new ParsingError(`failed to parse [${Q}] query. already found [functions] array, now encountering [${single !== null ? 'a function' : 'weight'}].`);
  }
  const list: FunctionScoreFunction[] = functions ?? (single !== null || singleWeight !== null ? [{ filter: null, weight: singleWeight ?? 1, fn: single ?? { kind: 'weight' } }] : []);
  return { kind: Q, query: query ?? { kind: 'match_all', boost: 1, name: null }, functions: list, scoreMode, boostMode, maxBoost, minScore, ...c };
}
