/**
 * `rank_feature` → one feature leaf of a `rank_features` field scored by a FeatureField function
 * (ES RankFeatureQueryBuilder.doToQuery): the field name is `<rank_features field>.<feature>`; a
 * name that is not mapped and has no rank_features parent matches nothing, any mapped field is an
 * error (this server has no single-valued `rank_feature` type). The saturation pivot defaults to
 * Lucene's `computePivotFeatureValue` — the stored weight whose code is the mean code of the
 * feature's postings, about their geometric mean — over index-wide statistics, so scores do not
 * depend on sharding.
 */
import { IllegalArgumentError, QueryShardError } from '../../errors/index.js';
import { javaFloatToString } from '../../common/float-json.js';
import type { RankFeatureFunction, RankFeatureQuery } from '../../dsl/index.js';
import { decodeFeatureWeight } from '../../index/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec, type FeatureFunction } from './exec-nodes.js';

/** Lucene FeatureField.MAX_FREQ: the code of Float.MAX_VALUE. */
const MAX_FREQ = 0x7f7fffff >>> 15;
const MAX_FLOAT32 = 3.4028234663852886e38;

export function rankFeatureQuery(ctx: PlanContext, node: RankFeatureQuery, boost: number): Exec {
  const mapped = ctx.mapping.fields.get(node.field);
  if (mapped) {
    fail(ctx, `[rank_feature] query only works on [rank_feature] fields and features of [rank_features] fields, not [${mapped.type}]`);
  }
  const dot = node.field.lastIndexOf('.');
  const parent = dot === -1 ? undefined : ctx.mapping.fields.get(node.field.slice(0, dot));
  if (!parent || parent.type !== 'rank_features') return MATCH_NONE; // unmapped field
  const feature = node.field.slice(dot + 1);
  const fn = resolveFunction(ctx, node.fn, parent.path, feature);
  return { kind: 'feature', field: parent.path, feature, weight: Math.fround(boost), ...(fn === null ? {} : { fn }) };
}

/** The function with Lucene's parameter checks (FeatureField.new*Query) and the default pivot filled in; null = linear. */
function resolveFunction(ctx: PlanContext, fn: RankFeatureFunction, field: string, feature: string): FeatureFunction | null {
  const positive = (name: string, v: number) => {
    if (!(v > 0) || !Number.isFinite(v)) fail(ctx, `${name} must be > 0, got: ${javaFloatToString(v)}`);
  };
  switch (fn.kind) {
    case 'linear':
      return null;
    case 'log':
      if (!(fn.scalingFactor >= 1) || !Number.isFinite(fn.scalingFactor)) fail(ctx, `scalingFactor must be >= 1, got: ${javaFloatToString(fn.scalingFactor)}`);
      return { kind: 'log', scalingFactor: fn.scalingFactor };
    case 'sigmoid':
      positive('pivot', fn.pivot);
      positive('exp', fn.exponent);
      return { kind: 'sigmoid', pivot: fn.pivot, exponent: fn.exponent };
    case 'saturation':
      if (fn.pivot !== null) positive('pivot', fn.pivot);
      return { kind: 'saturation', pivot: fn.pivot ?? pivotFeatureValue(ctx, field, feature) };
  }
}

/** Lucene FeatureField.computePivotFeatureValue over index-wide statistics (1 for an absent feature). */
function pivotFeatureValue(ctx: PlanContext, field: string, feature: string): number {
  const df = ctx.stats.docFreq(field, feature);
  if (df === 0) return 1;
  const avgFreq = Math.fround(ctx.stats.totalTermFreq(field, feature) / df);
  return avgFreq > MAX_FREQ ? MAX_FLOAT32 : decodeFeatureWeight(Math.trunc(avgFreq));
}

function fail(ctx: PlanContext, reason: string): never {
  throw new QueryShardError(`failed to create query: ${reason}`, ctx.index, new IllegalArgumentError(reason));
}
