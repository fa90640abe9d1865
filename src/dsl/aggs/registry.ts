/**
 * `aggs` / `aggregations` JSON → AggNode[] (ES AggregatorFactories.parseAggregators): each
 * `"<name>": { "<type>": {...}, "aggs": {...}, "meta": {...} }`. One registry line per type; the
 * parsers live beside this file.
 */
import { didYouMean } from '../../common/did-you-mean.js';
import { AggregationInitializationError, IllegalArgumentError, NamedObjectNotFoundError, ParsingError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { forEachEntry, isObject, within } from '../parse-helpers.js';
import type { AggNode } from './agg-nodes.js';
import { parseComposite } from './composite.js';
import { parseFilterAgg, parseMissingAgg, parseFiltersAgg, parseGlobalAgg } from './filter.js';
import { parseHistogram } from './histogram.js';
import { parseMetric } from './metrics.js';
import { parseMedianAbsoluteDeviation, parsePercentiles } from './percentiles.js';
import { parseDateHistogram } from './date-histogram.js';
import { parseRangeAgg } from './range.js';
import { parseTerms } from './terms.js';
import { parseMultiTerms } from './multi-terms.js';
import { parseRareTerms } from './rare-terms.js';
import { parseTopHits } from './top-hits.js';
import { parseTopMetrics } from './top-metrics.js';
import { parseWeightedAvg } from './weighted-avg.js';
import { parseStringStats } from './string-stats.js';
import { PIPELINE_PARSERS } from './pipelines.js';
import { validatePipelines } from './pipeline-validation.js';

type AggParser = (name: string, body: unknown, subs: readonly AggNode[]) => AggNode;

const PARSERS: Record<string, AggParser> = {
  terms: parseTerms,
  multi_terms: parseMultiTerms,
  rare_terms: parseRareTerms,
  min: (n, b, s) => parseMetric('min', n, b, s),
  max: (n, b, s) => parseMetric('max', n, b, s),
  avg: (n, b, s) => parseMetric('avg', n, b, s),
  sum: (n, b, s) => parseMetric('sum', n, b, s),
  value_count: (n, b, s) => parseMetric('value_count', n, b, s),
  cardinality: (n, b, s) => parseMetric('cardinality', n, b, s),
  stats: (n, b, s) => parseMetric('stats', n, b, s),
  extended_stats: (n, b, s) => parseMetric('extended_stats', n, b, s),
  percentiles: (n, b, s) => parsePercentiles('percentiles', n, b, s),
  percentile_ranks: (n, b, s) => parsePercentiles('percentile_ranks', n, b, s),
  median_absolute_deviation: parseMedianAbsoluteDeviation,
  weighted_avg: parseWeightedAvg,
  string_stats: parseStringStats,
  range: (n, b, s) => parseRangeAgg('range', n, b, s),
  date_range: (n, b, s) => parseRangeAgg('date_range', n, b, s),
  histogram: parseHistogram,
  date_histogram: parseDateHistogram,
  filter: parseFilterAgg,
  missing: parseMissingAgg,
  filters: parseFiltersAgg,
  global: parseGlobalAgg,
  top_hits: parseTopHits,
  top_metrics: parseTopMetrics,
  composite: parseComposite,
  ...PIPELINE_PARSERS,
};

/** Metric aggregations take no sub-aggregations (ES AggregatorFactory checks this at build time). */
export const METRIC_TYPES: ReadonlySet<string> = new Set(['min', 'max', 'avg', 'sum', 'value_count', 'cardinality', 'stats', 'extended_stats', 'percentiles', 'percentile_ranks', 'median_absolute_deviation', 'weighted_avg', 'top_metrics', 'string_stats']);

/** Types ES has that this server does not: named in a clear error rather than "unknown". */
const NOT_YET = [
  'nested',
  'reverse_nested', 'significant_terms', 'sampler', 'geo_distance',
  'auto_date_histogram', 'variable_width_histogram',
  'ip_range', 'adjacency_matrix', 'scripted_metric', 'boxplot', 'geo_bounds', 'geo_centroid',
  // Pipelines that run a script (or moving_avg, ES 7's predecessor of moving_fn).
  'bucket_selector', 'bucket_script', 'moving_fn', 'moving_avg',
];

/** AggregatorFactories.VALID_AGG_NAME. */
const VALID_NAME = /^[^[\]>]+$/;

/** ES `search.max_buckets` would stop runaway requests later; nesting is bounded like queries are. */
const MAX_DEPTH = 30;

export function parseAggregations(json: unknown, depth = 0): AggNode[] {
  if (!isObject(json)) throw new ParsingError(`Unexpected token ${tokenName(json)} in [aggs].`);
  if (depth >= MAX_DEPTH) throw new ParsingError(`The nested depth of the aggregations exceeds the maximum of [${MAX_DEPTH}]`);
  const out: AggNode[] = [];
  forEachEntry(json, (name, def) => {
    if (!VALID_NAME.test(name)) {
      throw new ParsingError(`Invalid aggregation name [${name}]. Aggregation names can contain any character except '[', ']', and '>'`);
    }
    if (!isObject(def)) throw new ParsingError(`Aggregation definition for [${name} starts with a [${tokenName(def)}], expected a [START_OBJECT].`);
    out.push(parseOne(name, def, depth));
  });
  // SearchRequest.validate: the whole tree's pipelines, once it is parsed.
  if (depth === 0) validatePipelines(out);
  return out;
}

function parseOne(name: string, def: Record<string, unknown>, depth: number): AggNode {
  let type: string | null = null;
  let body: unknown;
  let subsJson: unknown = undefined;
  let meta: Record<string, unknown> | null = null;
  forEachEntry(def, (k, v) => {
    if (!isObject(v)) {
      throw new ParsingError(`Expected [START_OBJECT] under [${k}], but got a [${tokenName(v)}] in [${name}]`);
    }
    if (k === 'aggs' || k === 'aggregations') {
      if (subsJson !== undefined) throw new ParsingError(`Found two sub aggregation definitions under [${name}]`);
      subsJson = v;
    } else if (k === 'meta') {
      meta = v;
    } else {
      if (type !== null) throw new ParsingError(`Found two aggregation type definitions in [${name}]: [${type}] and [${k}]`);
      if (!Object.prototype.hasOwnProperty.call(PARSERS, k)) {
        if (NOT_YET.includes(k)) throw new ParsingError(`[${k}] aggregations are not supported by this server yet`);
        throw new ParsingError(
          `Unknown aggregation type [${k}]${didYouMean(k, [...Object.keys(PARSERS), ...NOT_YET])}`,
          new NamedObjectNotFoundError(`unknown field [${k}]`), 'key',
        );
      }
      type = k;
      body = v;
    }
  });
  if (type === null) throw new ParsingError(`Missing definition for aggregation [${name}]`);
  const subs = subsJson === undefined ? [] : within('aggs', () => parseAggregations(subsJson, depth + 1));
  if (subs.length > 0 && METRIC_TYPES.has(type)) {
    throw new AggregationInitializationError(`Aggregator [${name}] of type [${type}] cannot accept sub-aggregations`);
  }
  const t: string = type;
  const node = within(t, () => PARSERS[t](name, body, subs));
  // TopHitsAggregationBuilder.subAggregations refuses them itself, once its body is parsed.
  if (subs.length > 0 && t === 'top_hits') throw new IllegalArgumentError(`Aggregator [${name}] of type [top_hits] cannot accept sub-aggregations`);
  return meta === null ? node : { ...node, meta };
}
