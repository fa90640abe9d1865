/**
 * Per-type mapping parameters and their validation (ES `FieldMapper.Builder` parameter lists).
 * Unknown parameters fail with "unknown parameter [x] on mapper [f] of type [t]", as in ES.
 */
import { MapperParsingError } from '../../errors/index.js';
import type { FieldType } from './types.js';
import { NUMERIC_TYPES, isFeatureType } from './types.js';
import { checkDocValues, checkMaxShingleSize } from './search-as-you-type.js';
import { checkElementType, checkSimilarity } from './dense-vector-mapping.js';

type Check = (value: unknown, field: string) => unknown;

const bool: Check = (v, f) => {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new MapperParsingError(`Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`);
};
/** The name must be a string; whether the index has it is checked when the mapping is resolved (resolve.ts). */
const analyzer: Check = (v) => {
  if (typeof v !== 'string') throw new MapperParsingError(`analyzer [${String(v)}] has not been configured in mappings`);
  return v;
};
const nonNegInt: Check = (v, f) => {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new MapperParsingError(`[${f}] must be a non-negative integer, got [${String(v)}]`);
  return v;
};
const str: Check = (v) => {
  if (typeof v !== 'string') throw new MapperParsingError(`Expected a string but got [${String(v)}]`);
  return v;
};
const any: Check = (v) => v;
const positiveNumber: Check = (v, f) => {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) throw new MapperParsingError(`[scaling_factor] must be a positive number, got [${String(v)}]`);
  return v;
};
const indexOptions: Check = (v) => {
  if (v !== 'docs' && v !== 'freqs' && v !== 'positions' && v !== 'offsets') throw new MapperParsingError(`Unknown value [${String(v)}] for field [index_options] - accepted values are [docs, freqs, positions, offsets]`);
  return v;
};

const COMMON: Record<string, Check> = { meta: any, store: bool };
const TEXT: Record<string, Check> = {
  ...COMMON, analyzer, search_analyzer: analyzer, search_quote_analyzer: analyzer, index: bool, norms: bool,
  position_increment_gap: nonNegInt, similarity: str, fielddata: bool, eager_global_ordinals: bool, index_options: indexOptions,
  term_vector: str, copy_to: any, boost: any, index_phrases: bool, index_prefixes: any, fielddata_frequency_filter: any,
};
const KEYWORD: Record<string, Check> = {
  ...COMMON, ignore_above: nonNegInt, null_value: str, index: bool, doc_values: bool, normalizer: str, norms: bool,
  similarity: str, eager_global_ordinals: bool, split_queries_on_whitespace: bool, copy_to: any, boost: any,
  index_options: indexOptions, time_series_dimension: bool, script: any, on_script_error: str,
};
const NUMERIC: Record<string, Check> = {
  ...COMMON, coerce: bool, ignore_malformed: bool, index: bool, doc_values: bool, null_value: any, copy_to: any, boost: any,
  time_series_dimension: bool, time_series_metric: str, script: any, on_script_error: str,
};
const DATE: Record<string, Check> = {
  ...COMMON, format: str, locale: str, ignore_malformed: bool, index: bool, doc_values: bool, null_value: str, copy_to: any,
  boost: any, script: any, on_script_error: str, print_format: str,
};
const BOOLEAN: Record<string, Check> = { ...COMMON, index: bool, doc_values: bool, null_value: bool, copy_to: any, boost: any, script: any, on_script_error: str };

const positiveInt: Check = (v, f) => {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new MapperParsingError(`[${f}] must be an integer, got [${String(v)}]`);
  if (n <= 0) throw new MapperParsingError(`[max_input_length] must be > 0 but was [${n}]`);
  return n;
};
const noContexts: Check = () => {
  throw new MapperParsingError('[contexts] of [completion] fields are not supported by this server yet');
};
/** ES CompletionFieldMapper (`max_input_len` is its deprecated name for `max_input_length`). */
const COMPLETION: Record<string, Check> = {
  meta: any, analyzer, search_analyzer: analyzer, preserve_separators: bool, preserve_position_increments: bool,
  max_input_length: positiveInt, max_input_len: positiveInt, contexts: noContexts,
};

/** ES SearchAsYouTypeFieldMapper.Builder.getParameters (plus `fields` and `copy_to`, read by every mapper). */
const SEARCH_AS_YOU_TYPE: Record<string, Check> = {
  ...COMMON, index: bool, doc_values: (v, f) => checkDocValues(bool(v, f) as boolean), max_shingle_size: checkMaxShingleSize,
  analyzer, search_analyzer: analyzer, search_quote_analyzer: analyzer, similarity: str, index_options: indexOptions, norms: bool,
  term_vector: str, copy_to: any,
};

/** ES SparseVectorFieldMapper (8.11–8.18 parameters) and RankFeaturesFieldMapper. */
const SPARSE_VECTOR: Record<string, Check> = { ...COMMON };
const RANK_FEATURES: Record<string, Check> = { meta: any, positive_score_impact: bool };

/** ES DenseVectorFieldMapper.Builder.getParameters; `dims` and `index_options` are checked with the field's name (dense-vector-mapping.ts). */
const DENSE_VECTOR: Record<string, Check> = { meta: any, element_type: checkElementType, dims: any, index: bool, similarity: checkSimilarity, index_options: any };

export function parametersFor(type: FieldType): Record<string, Check> {
  switch (type) {
    case 'dense_vector': return DENSE_VECTOR;
    case 'sparse_vector': return SPARSE_VECTOR;
    case 'rank_features': return RANK_FEATURES;
    case 'completion': return COMPLETION;
    case 'search_as_you_type': return SEARCH_AS_YOU_TYPE;
    case 'text': return TEXT;
    case 'keyword': return KEYWORD;
    case 'date': return DATE;
    case 'boolean': return BOOLEAN;
    case 'scaled_float': return { ...NUMERIC, scaling_factor: positiveNumber };
    default: return NUMERIC;
  }
}

export function isFieldType(t: string): t is FieldType {
  return t === 'text' || t === 'keyword' || t === 'date' || t === 'boolean' || t === 'completion' || t === 'search_as_you_type' || t === 'dense_vector' || isFeatureType(t) || (NUMERIC_TYPES as readonly string[]).includes(t);
}

/** Types ES knows but this server does not implement: a clear error, not "No handler". */
export const KNOWN_UNSUPPORTED_TYPES = new Set([
  'nested', 'flattened', 'geo_point', 'geo_shape', 'ip', 'binary', 'rank_feature',
  'match_only_text', 'wildcard', 'constant_keyword', 'alias',
  'join', 'percolator', 'histogram', 'version', 'integer_range', 'long_range', 'float_range', 'double_range',
  'date_range', 'ip_range', 'date_nanos', 'token_count', 'semantic_text', 'point', 'shape',
]);
