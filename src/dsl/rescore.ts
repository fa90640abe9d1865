/**
 * The search body's `rescore` member (ES RescorerBuilder.parseFromXContent + QueryRescorerBuilder):
 * one rescorer object, or an array of them applied in order. Only the query rescorer exists here;
 * `script` (and x-pack's `learning_to_rank`) are refused clearly. Weights are Java floats, so they
 * are rounded to float32 as ES stores them.
 */
import { IllegalArgumentError, NamedObjectNotFoundError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { objectField, unknownField } from './object-parser.js';
import { doubleValue, forEachEntry, intValue, isObject, mapItems } from './parse-helpers.js';
import type { QueryNode } from './query-nodes.js';
import { parseQuery } from './queries/registry.js';

/** QueryRescoreMode: how a matching document's two weighted scores combine. */
export type RescoreMode = 'total' | 'multiply' | 'avg' | 'max' | 'min';

export interface RescoreNode {
  /** How many of the top hits (of the previous rescorer's order) this rescorer rescores. */
  readonly windowSize: number;
  readonly query: QueryNode;
  readonly queryWeight: number;
  readonly rescoreQueryWeight: number;
  readonly scoreMode: RescoreMode;
}

/** RescorerBuilder.DEFAULT_WINDOW_SIZE. */
export const DEFAULT_RESCORE_WINDOW_SIZE = 10;

const SCORE_MODES: readonly RescoreMode[] = ['avg', 'max', 'min', 'total', 'multiply'];
const QUERY_FIELDS = ['rescore_query', 'query_weight', 'rescore_query_weight', 'score_mode'];

/**
 * Rescorers one search may have. ES sets no bound; here each shard returns every rescorer's score
 * of each of its top hits (search/rescore.ts), so their number is bounded like other request sizes.
 */
export const MAX_RESCORERS = 100;

/** `rescore`: an object or an array of objects (SearchSourceBuilder.parseXContent). An empty array: none. */
export function parseRescore(v: unknown): RescoreNode[] {
  if (Array.isArray(v) && v.length > MAX_RESCORERS) {
    throw new IllegalArgumentError(`[rescore] may have at most [${MAX_RESCORERS}] rescorers, found [${v.length}]`);
  }
  return mapItems(v, parseRescorer);
}

function parseRescorer(v: unknown): RescoreNode {
  if (!isObject(v)) throw new ParsingError(`unexpected token [${tokenName(v)}] in [rescore], expected [START_OBJECT]`);
  let windowSize: number | null = null;
  let rescorer: Omit<RescoreNode, 'windowSize'> | null = null;
  forEachEntry(v, (k, value) => {
    if (value !== null && typeof value !== 'object') {
      if (k !== 'window_size') throw new ParsingError(`rescore doesn't support [${k}]`);
      windowSize = intValue(value);
    } else if (isObject(value)) {
      if (rescorer !== null) throw new ParsingError('you can either define [query] or [script], not both.');
      if (k === 'query') rescorer = parseQueryRescorer(value);
      else if (k === 'script' || k === 'learning_to_rank') throw new IllegalArgumentError(`[rescore.${k}] is not supported by this server yet`);
      else throw new NamedObjectNotFoundError(`unknown field [${k}]`);
    } else {
      throw new ParsingError(`unexpected token [${tokenName(value)}] after [${k}]`);
    }
  });
  if (rescorer === null) throw new ParsingError('missing rescore type');
  const size: number = windowSize ?? DEFAULT_RESCORE_WINDOW_SIZE;
  // ES takes a negative window and fails deep in the query phase; here it is a 400 up front.
  if (size < 0) throw new IllegalArgumentError(`[window_size] parameter cannot be negative, found [${size}]`);
  return { windowSize: size, ...(rescorer as Omit<RescoreNode, 'windowSize'>) };
}

/** QueryRescorerBuilder's ObjectParser `query`: token checks first, then each value, failures wrapped. */
function parseQueryRescorer(v: Record<string, unknown>): Omit<RescoreNode, 'windowSize'> {
  let query: QueryNode | null = null;
  let queryWeight = 1;
  let rescoreQueryWeight = 1;
  let scoreMode: RescoreMode = 'total';
  forEachEntry(v, (k, value) => {
    switch (k) {
      case 'rescore_query':
        if (!isObject(value)) throw unsupportedToken(k, value);
        query = objectField('query', k, () => parseQuery(value));
        break;
      case 'query_weight':
        queryWeight = floatField(k, value);
        break;
      case 'rescore_query_weight':
        rescoreQueryWeight = floatField(k, value);
        break;
      case 'score_mode':
        if (typeof value !== 'string') throw unsupportedToken(k, value);
        scoreMode = objectField('query', k, () => scoreModeOf(value));
        break;
      default:
        throw unknownField('query', k, QUERY_FIELDS);
    }
  });
  // QueryRescorerBuilder's constructor, outside the object parser: not wrapped.
  if (query === null) throw new IllegalArgumentError('rescore_query cannot be null');
  return { query, queryWeight, rescoreQueryWeight, scoreMode };
}

/** declareFloat: a number or a numeric string, kept as the float ES reads. */
function floatField(k: string, value: unknown): number {
  if (typeof value !== 'number' && typeof value !== 'string') throw unsupportedToken(k, value);
  return objectField('query', k, () => Math.fround(doubleValue(value)));
}

/** QueryRescoreMode.fromString: case-insensitive. */
function scoreModeOf(value: string): RescoreMode {
  const mode = SCORE_MODES.find((m) => m === value.toLowerCase());
  if (mode === undefined) throw new IllegalArgumentError(`illegal score_mode [${value}]`);
  return mode;
}

function unsupportedToken(k: string, value: unknown): XContentParseError {
  return new XContentParseError(`[query] ${k} doesn't support values of type: ${tokenName(value)}`);
}
