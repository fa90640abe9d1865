/**
 * The `_analyze` request body (ES AnalyzeAction.Request.fromXContent and its validate()): which
 * analysis to run — a named analyzer, a field's, a normalizer, or components given by name or
 * inline — on one text or several.
 */
import { ActionRequestValidationError, ParsingError } from '../errors/index.js';
import { unknownField } from './object-parser.js';
import { isObject, mapItems, readBoolean, readString, type JsonObject } from './parse-helpers.js';
import { tokenName } from './json-body.js';

/** The parsed request (the shape index/analyze.ts runs). */
export interface AnalyzeRequest {
  readonly text: readonly string[];
  readonly analyzer: string | null;
  readonly field: string | null;
  readonly normalizer: string | null;
  /** A name, or an inline definition (`{ "type": … }`). */
  readonly tokenizer: string | JsonObject | null;
  readonly filter: ReadonlyArray<string | JsonObject>;
  readonly charFilter: ReadonlyArray<string | JsonObject>;
  readonly explain: boolean;
  /** With `explain`: the extra token attributes to show (null = all). */
  readonly attributes: readonly string[] | null;
}

const OWNER = 'analyze_request';
const FIELDS = ['text', 'field', 'tokenizer', 'normalizer', 'analyzer', 'explain', 'attributes', 'filter', 'char_filter'];

function component(field: string, v: unknown): string | JsonObject {
  if (typeof v === 'string') return v;
  if (isObject(v)) return v;
  throw new ParsingError(`[${OWNER}] failed to parse field [${field}]: expected a name or an object, got [${tokenName(v)}]`);
}

export function parseAnalyzeRequest(body: JsonObject, index: string | null): AnalyzeRequest {
  for (const key of Object.keys(body)) if (!FIELDS.includes(key)) throw unknownField(OWNER, key, FIELDS);
  const str = (k: string) => (body[k] === undefined || body[k] === null ? null : readString(OWNER, k, body[k]));
  const text = body.text === undefined || body.text === null ? [] : mapItems(body.text, (t) => readString(OWNER, 'text', t));
  const req: AnalyzeRequest = {
    text,
    analyzer: str('analyzer'),
    field: str('field'),
    normalizer: str('normalizer'),
    tokenizer: body.tokenizer === undefined || body.tokenizer === null ? null : component('tokenizer', body.tokenizer),
    filter: body.filter === undefined ? [] : mapItems(body.filter, (f) => component('filter', f)),
    charFilter: body.char_filter === undefined ? [] : mapItems(body.char_filter, (f) => component('char_filter', f)),
    explain: body.explain === undefined ? false : readBoolean(OWNER, 'explain', body.explain),
    attributes: body.attributes === undefined ? null : mapItems(body.attributes, (a) => readString(OWNER, 'attributes', a)),
  };
  // AnalyzeAction.Request.validate()
  const errors: string[] = [];
  if (req.text.length === 0) errors.push('text is missing');
  if (req.normalizer !== null && index === null) errors.push('index is required if normalizer is specified');
  if (req.normalizer !== null && (req.tokenizer !== null || req.analyzer !== null)) errors.push('tokenizer/analyze should be null if normalizer is specified');
  if (req.analyzer !== null && (req.tokenizer !== null || req.filter.length > 0 || req.charFilter.length > 0)) {
    errors.push('cannot define extra components on a named analyzer');
  }
  if (req.normalizer !== null && (req.tokenizer !== null || req.filter.length > 0 || req.charFilter.length > 0)) {
    errors.push('cannot define extra components on a named normalizer');
  }
  if (req.field !== null && (req.tokenizer !== null || req.filter.length > 0 || req.charFilter.length > 0)) {
    errors.push('cannot define extra components on a field-specific analyzer');
  }
  if (errors.length > 0) throw new ActionRequestValidationError(errors);
  return req;
}
