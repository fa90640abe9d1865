/**
 * The `_rank_eval` body (ES RankEvalSpec, RatedRequest, RatedDocument and the five metrics' parsers):
 * `requests` — each an `id`, a search `request` and `ratings` (`_index`, `_id`, `rating`), optional
 * `summary_fields` — and one `metric`, with ES's defaults and messages. Errors inside a member are
 * wrapped as ES's ConstructingObjectParser wraps them ("[rank_eval] failed to parse field [requests]"
 * with the cause), and a missing required member is "Required [a, b]".
 *
 * Search templates (`templates`, `template_id` + `params`) pass ES's own checks and are then refused:
 * this server has no mustache templates.
 */
import { IllegalArgumentError, NamedObjectNotFoundError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { objectField, unknownField } from './object-parser.js';
import { forEachEntry, isObject, parseBody, readBoolean, readInt, readString, within, type JsonObject } from './parse-helpers.js';
import { parseSearchRequest, type SearchRequest } from './search-request.js';

/** One metric with its parameters, defaults filled (ES's DEFAULT_K = 10, threshold 1). */
export type RankEvalMetric =
  | { readonly kind: 'precision'; readonly k: number; readonly relevantRatingThreshold: number; readonly ignoreUnlabeled: boolean }
  | { readonly kind: 'recall'; readonly k: number; readonly relevantRatingThreshold: number }
  | { readonly kind: 'mean_reciprocal_rank'; readonly k: number; readonly relevantRatingThreshold: number }
  | { readonly kind: 'dcg'; readonly k: number; readonly normalize: boolean; readonly unknownDocRating: number | null }
  | { readonly kind: 'expected_reciprocal_rank'; readonly k: number; readonly maximumRelevance: number; readonly unknownDocRating: number | null };

export type RankEvalMetricName = RankEvalMetric['kind'];

export interface RatedDocument {
  readonly index: string;
  readonly id: string;
  readonly rating: number;
}

export interface RatedRequest {
  readonly id: string;
  /** The search to evaluate, as `_search` would parse it (its `size` is replaced by the metric's `k`). */
  readonly request: SearchRequest;
  readonly ratings: readonly RatedDocument[];
  /** `_source` fields to return with each hit (none by default, as ES). */
  readonly summaryFields: readonly string[];
}

export interface RankEvalSpec {
  readonly requests: readonly RatedRequest[];
  readonly metric: RankEvalMetric;
  readonly maxConcurrentSearches: number;
}

/** ES RankEvalSpec.MAX_CONCURRENT_SEARCHES. */
export const DEFAULT_MAX_CONCURRENT_SEARCHES = 10;
const DEFAULT_K = 10;
const DEFAULT_RELEVANT_RATING_THRESHOLD = 1;

function required(missing: string[]): IllegalArgumentError {
  return new IllegalArgumentError(`Required [${missing.join(', ')}]`);
}

function expectObject(parser: string, v: unknown): JsonObject {
  if (!isObject(v)) throw new XContentParseError(`[${parser}] Expected START_OBJECT but was: ${tokenName(v)}`);
  return v;
}

function expectArray(parser: string, field: string, v: unknown): unknown[] {
  // ObjectParser's declareObjectArray also takes a lone object as a one-element array.
  if (isObject(v)) return [v];
  if (!Array.isArray(v)) throw new XContentParseError(`[${parser}] ${field} doesn't support values of type: ${tokenName(v)}`);
  return v;
}

export function parseRankEvalRequest(body: unknown): RankEvalSpec {
  return parseBody(() => {
    const root = expectObject('rank_eval', body);
    let requests: RatedRequest[] | null = null;
    let metric: RankEvalMetric | null = null;
    let maxConcurrentSearches = DEFAULT_MAX_CONCURRENT_SEARCHES;
    const known = ['requests', 'metric', 'templates', 'max_concurrent_searches'];
    forEachEntry(root, (k, v) => {
      switch (k) {
        case 'requests':
          requests = objectField('rank_eval', k, () => expectArray('rank_eval', k, v).map((item, i) => within(i, () => parseRatedRequest(item))));
          break;
        case 'metric':
          metric = objectField('rank_eval', k, () => parseMetric(v));
          break;
        case 'templates':
          throw new IllegalArgumentError(TEMPLATES_UNSUPPORTED);
        case 'max_concurrent_searches':
          maxConcurrentSearches = readInt('rank_eval', k, v);
          break;
        default:
          throw unknownField('rank_eval', k, known);
      }
    });
    const missing = [...(requests === null ? ['requests'] : []), ...(metric === null ? ['metric'] : [])];
    if (missing.length > 0) throw required(missing);
    const list = requests as unknown as RatedRequest[];
    if (list.length === 0) throw new IllegalArgumentError('Cannot evaluate ranking if no search requests with rated results are provided. Seen: []');
    return { requests: list, metric: metric!, maxConcurrentSearches };
  });
}

const TEMPLATES_UNSUPPORTED = 'search templates are not supported by this server: give each rated request its search as [request] instead of [template_id] and [params]';

function parseRatedRequest(v: unknown): RatedRequest {
  const obj = expectObject('request', v);
  let id: string | null = null;
  let ratings: RatedDocument[] | null = null;
  let request: SearchRequest | null = null;
  let requestBody: JsonObject = {};
  let params: JsonObject | null = null;
  let templateId: string | null = null;
  let summaryFields: string[] = [];
  const known = ['id', 'request', 'ratings', 'params', 'summary_fields', 'template_id'];
  forEachEntry(obj, (k, value) => {
    switch (k) {
      case 'id': id = readString('request', k, value); break;
      case 'ratings':
        ratings = objectField('request', k, () => expectArray('request', k, value).map((d, i) => within(i, () => parseRatedDocument(d))));
        break;
      case 'request':
        request = objectField('request', k, () => parseSearchRequest(expectObject('request', value)));
        requestBody = value as JsonObject;
        break;
      case 'params': params = objectField('request', k, () => expectObject('request', value)); break;
      case 'summary_fields':
        summaryFields = objectField('request', k, () => expectArray('request', k, value).map((f) => readString('request', k, f)));
        break;
      case 'template_id': templateId = readString('request', k, value); break;
      default: throw unknownField('request', k, known);
    }
  });
  const missing = [...(id === null ? ['id'] : []), ...(ratings === null ? ['ratings'] : [])];
  if (missing.length > 0) throw required(missing);
  // ES RatedRequest's constructor checks, in its order.
  const hasParams = params !== null && Object.keys(params).length > 0;
  if ((hasParams && request !== null) || (templateId !== null && request !== null)) {
    throw new IllegalArgumentError('Ambiguous rated request: Set both, verbatim test request and test request template parameters.');
  }
  if (!hasParams && request === null) throw new IllegalArgumentError('Need to set at least test request or test request template parameters.');
  if (hasParams && templateId === null) throw new IllegalArgumentError('If template parameters are supplied need to set id of template to apply them to too.');
  if (request !== null) validateEvaluatedQuery(request, requestBody);
  const seen = new Set<string>();
  for (const d of ratings as unknown as RatedDocument[]) {
    const key = `${d.index}\u0000${d.id}`;
    if (seen.has(key)) {
      throw new IllegalArgumentError(`Found duplicate rated document key [${JSON.stringify({ _index: d.index, _id: d.id })}] in evaluation request [${id}]`);
    }
    seen.add(key);
  }
  // Only a templated request gets here without one.
  if (request === null) throw new IllegalArgumentError(TEMPLATES_UNSUPPORTED);
  return { id: id!, request, ratings: ratings!, summaryFields };
}

/** ES RatedRequest.validateEvaluatedQuery: rank evaluation looks at hits only. */
function validateEvaluatedQuery(r: SearchRequest, raw: JsonObject): void {
  if (r.suggest !== null) throw new IllegalArgumentError('Query in rated requests should not contain a suggest section.');
  if (r.aggs !== null) throw new IllegalArgumentError('Query in rated requests should not contain aggregations.');
  if (r.highlight !== null) throw new IllegalArgumentError('Query in rated requests should not contain a highlighter section.');
  if (r.explain) throw new IllegalArgumentError('Query in rated requests should not use explain.');
  if (raw.profile === true) throw new IllegalArgumentError('Query in rated requests should not use profile.');
}

function parseRatedDocument(v: unknown): RatedDocument {
  const obj = expectObject('rated_document', v);
  let index: string | null = null;
  let id: string | null = null;
  let rating: number | null = null;
  forEachEntry(obj, (k, value) => {
    switch (k) {
      case '_index': index = readString('rated_document', k, value); break;
      case '_id': id = readString('rated_document', k, value); break;
      case 'rating': rating = readInt('rated_document', k, value); break;
      default: throw unknownField('rated_document', k, ['_index', '_id', 'rating']);
    }
  });
  const missing = [...(index === null ? ['_index'] : []), ...(id === null ? ['_id'] : []), ...(rating === null ? ['rating'] : [])];
  if (missing.length > 0) throw required(missing);
  if (index === '') throw new IllegalArgumentError('Index must be set for each rated document');
  if (id === '') throw new IllegalArgumentError('DocId must be set for each rated document');
  return { index: index!, id: id!, rating: rating! };
}

const METRIC_FIELDS: Record<RankEvalMetricName, { parser: string; fields: readonly string[] }> = {
  precision: { parser: 'precision', fields: ['relevant_rating_threshold', 'ignore_unlabeled', 'k'] },
  recall: { parser: 'recall', fields: ['relevant_rating_threshold', 'k'] },
  // ES names these two parsers "reciprocal_rank" and "dcg"; its messages say so.
  mean_reciprocal_rank: { parser: 'reciprocal_rank', fields: ['relevant_rating_threshold', 'k'] },
  dcg: { parser: 'dcg', fields: ['normalize', 'unknown_doc_rating', 'k'] },
  expected_reciprocal_rank: { parser: 'dcg', fields: ['maximum_relevance', 'unknown_doc_rating', 'k'] },
};

/** `{ "<metric>": { params } }` (ES RankEvalSpec.parseMetric + the named metric's parser). */
function parseMetric(v: unknown): RankEvalMetric {
  const obj = expectObject('rank_eval', v);
  const names = Object.keys(obj);
  if (names.length !== 1) {
    throw new XContentParseError(`Failed to parse object: expecting token of type [${names.length === 0 ? 'FIELD_NAME' : 'END_OBJECT'}] but found [${names.length === 0 ? 'END_OBJECT' : 'FIELD_NAME'}]`);
  }
  const name = names[0];
  return within(name, () => {
    if (!Object.hasOwn(METRIC_FIELDS, name)) throw new NamedObjectNotFoundError(`unknown field [${name}]`);
    const kind = name as RankEvalMetricName;
    const { parser, fields } = METRIC_FIELDS[kind];
    const params = expectObject(parser, obj[name]);
    const p: Record<string, number | boolean> = {};
    forEachEntry(params, (k, value) => {
      if (!fields.includes(k)) throw unknownField(parser, k, fields);
      p[k] = objectField(parser, k, () => (k === 'normalize' || k === 'ignore_unlabeled' ? readBoolean(parser, k, value) : readInt(parser, k, value)));
    });
    const k = (p.k as number | undefined) ?? DEFAULT_K;
    const threshold = (p.relevant_rating_threshold as number | undefined) ?? DEFAULT_RELEVANT_RATING_THRESHOLD;
    const unknownDocRating = (p.unknown_doc_rating as number | undefined) ?? null;
    // ES checks these in the metrics' constructors; dcg and expected_reciprocal_rank check neither.
    const checkThresholdAndK = () => {
      if (threshold < 0) throw new IllegalArgumentError('Relevant rating threshold for precision must be positive integer.');
      if (k <= 0) throw new IllegalArgumentError('Window size k must be positive.');
    };
    switch (kind) {
      case 'precision':
        checkThresholdAndK();
        return { kind, k, relevantRatingThreshold: threshold, ignoreUnlabeled: (p.ignore_unlabeled as boolean | undefined) ?? false };
      case 'recall':
      case 'mean_reciprocal_rank':
        checkThresholdAndK();
        return { kind, k, relevantRatingThreshold: threshold };
      case 'dcg':
        return { kind, k, normalize: (p.normalize as boolean | undefined) ?? false, unknownDocRating };
      case 'expected_reciprocal_rank':
        if (p.maximum_relevance === undefined) throw required(['maximum_relevance']);
        return { kind, k, maximumRelevance: p.maximum_relevance as number, unknownDocRating };
    }
  });
}
