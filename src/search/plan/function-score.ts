/**
 * `function_score` planned for one index (ES FunctionScoreQueryBuilder.doToQuery, the score
 * functions' parsers): each function's field checked against the mapping and its numbers resolved —
 * a date decay's `origin` by date math (now by default), its `scale` and `offset` as time values.
 */
import { parseDateMath } from '../../common/dates/index.js';
import { javaLongHash, mix32 } from '../../common/java-hash.js';
import { parseTimeValue } from '../../common/time-value.js';
import { doubleValue, type FunctionScoreQuery, type ScoreFunction } from '../../dsl/index.js';
import { IllegalArgumentError, ParseError, QueryShardError } from '../../errors/index.js';
import { compiledFormat, type ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec, type FunctionExec } from './exec-nodes.js';
import { docValueType, planScript, randomSalt } from './script.js';

const NUMERIC = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long', 'double', 'float', 'half_float', 'scaled_float', 'date', 'boolean']);

export function functionScoreQuery(ctx: PlanContext, node: FunctionScoreQuery, boost: number, plan: (q: FunctionScoreQuery['query'], boost: number) => Exec): Exec {
  const query = plan(node.query, 1);
  if (query.kind === 'match_none') return MATCH_NONE;
  const functions = node.functions.map((f) => ({
    filter: f.filter === null ? null : plan(f.filter, 0),
    weight: f.weight,
    fn: resolveFunction(ctx, f.fn),
  }));
  return { kind: 'function_score', query, functions, scoreMode: node.scoreMode, boostMode: node.boostMode, maxBoost: node.maxBoost, minScore: node.minScore, boost };
}

function resolveFunction(ctx: PlanContext, fn: ScoreFunction): FunctionExec {
  if (fn.kind === 'weight') return fn;
  if (fn.kind === 'script_score') return { kind: 'script_score', script: planScript(ctx, fn.script) };
  if (fn.kind === 'random_score') return randomScore(ctx, fn);
  const field = ctx.mapping.fields.get(fn.field);
  if (fn.kind === 'field_value_factor') {
    if (!field && fn.missing === null) throw new QueryShardError(`Unable to find a field mapper for field [${fn.field}]. No 'missing' value defined.`, ctx.index);
    if (field) requireNumeric(ctx, field);
    return fn;
  }
  if (!field) throw new ParseError(`unknown field [${fn.field}]`);
  requireNumeric(ctx, field);
  if (field.type === 'date') {
    const origin = fn.origin === null ? ctx.now : typeof fn.origin === 'number' ? fn.origin : dateOrigin(ctx, field, fn.origin);
    return { ...fn, origin, scale: timeMillis(fn.scale, 'scale'), offset: timeMillis(fn.offset, 'offset') };
  }
  if (fn.origin === null) throw new ParseError(`[${fn.type}] must set [origin] for a numeric field`);
  // XContentParser.doubleValue, as ES's parseNumberVariable reads them: a string that is no number is
  // Java's NumberFormatException, not a NaN that scores every document out of the hits.
  return { ...fn, origin: doubleValue(fn.origin), scale: doubleValue(fn.scale), offset: doubleValue(fn.offset) };
}

function requireNumeric(ctx: PlanContext, field: ResolvedField): void {
  if (!NUMERIC.has(field.type)) throw new QueryShardError(`field [${field.path}] is of type [${field.type}], but only numeric types are supported.`, ctx.index);
}

function dateOrigin(ctx: PlanContext, field: ResolvedField, text: string): number {
  try {
    return parseDateMath(text, ctx.now, compiledFormat(field.format), false);
  } catch (e) {
    throw new ParseError((e as Error).message);
  }
}

function timeMillis(v: string | number, what: string): number {
  if (typeof v === 'number') return v;
  try {
    return parseTimeValue(v, `${what}`);
  } catch (e) {
    throw new ParseError((e as Error).message);
  }
}

/**
 * RandomScoreFunctionBuilder.doToFunction: without a seed, the document and the clock; with one,
 * the field's values (`_seq_no` when none is named — the document's index-wide write order here, so
 * that scores do not depend on sharding). Salted with the index name as on shard 0 (script.ts).
 */
function randomScore(ctx: PlanContext, fn: Extract<ScoreFunction, { kind: 'random_score' }>): FunctionExec {
  const salt = randomSalt(ctx);
  if (fn.seed === null) return { kind: 'random_score', saltedSeed: mix32(javaLongHash(ctx.now) ^ salt), field: null, vt: null };
  const saltedSeed = mix32(fn.seed ^ salt);
  if (fn.field === null || fn.field === '_seq_no') return { kind: 'random_score', saltedSeed, field: '_seq_no', vt: 'long' };
  const fail = (reason: string) => new QueryShardError(`failed to create query: ${reason}`, ctx.index, new IllegalArgumentError(reason));
  if (fn.field === '_id') {
    throw fail('Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled');
  }
  if (!ctx.mapping.fields.has(fn.field)) throw fail(`Field [${fn.field}] is not mapped on [${ctx.index.name}] and cannot be used as a source of random numbers.`);
  const access = docValueType(ctx, fn.field);
  if ('error' in access) throw fail(access.error.reason);
  return { kind: 'random_score', saltedSeed, field: fn.field, vt: access.vt };
}
