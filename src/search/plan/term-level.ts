/**
 * Term-level queries (`term`, `terms`, `range`, `exists`, `ids`, `prefix`, `wildcard`; `fuzzy` is in fuzzy.ts) and exact
 * values on non-text fields. Keyword/text terms are BM25-scored (`term`) or constant (`terms`,
 * ranges, patterns); numbers, dates and booleans are point queries with a constant score, as in ES.
 */
import { IllegalArgumentError, NumberFormatError, QueryShardError } from '../../errors/index.js';
import type { TermValue } from '../../dsl/index.js';
import {
  INDEX_PREFIX_MIN_CHARS, compiledFormat, normalizerOf, prefixFieldPath, prefixLengthWithinBounds, toValueSpace, type ResolvedField,
} from '../../index/index.js';
import { parseDateFormat, parseDateMath } from '../../common/dates/index.js';
import { checkRegexLength, compileLiteral, compileRegexp, compileWildcard } from '../../common/pattern/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';
import { asShardFailure } from './failures.js';
import { scoredTerm } from './scored-term.js';
import { isTextLike } from './fields.js';

const INTEGER_TYPES = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);

function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  const buf = new Float64Array([x]);
  const bits = new BigInt64Array(buf.buffer);
  bits[0] += x > 0 ? 1n : -1n;
  return buf[0];
}

function nextDown(x: number): number {
  return -nextUp(-x);
}

/** A query value as a number in the field's value space; throws with ES's wording when invalid. */
function numericValue(field: ResolvedField, value: TermValue): number {
  if (field.type === 'boolean') {
    if (value === true || value === 'true') return 1;
    if (value === false || value === 'false' || value === '') return 0;
    throw new IllegalArgumentError(`Can't parse boolean value [${String(value)}], expected [true] or [false]`);
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  // ES NumberFieldMapper parses with Double.parseDouble: Java's NumberFormatException.
  if (typeof value === 'boolean' || Number.isNaN(n)) throw new NumberFormatError(String(value));
  return toValueSpace(field, n);
}

function dateValue(ctx: PlanContext, field: ResolvedField, value: TermValue, roundUp: boolean, format: string | null, timeZone: string | null): number {
  if (typeof value === 'number') return Math.trunc(value);
  try {
    // A bad `format` is an illegal argument too (ES: "Invalid format: [...]").
    const fmt = format ? parseDateFormat(format) : compiledFormat(field.format);
    return parseDateMath(String(value), ctx.now, fmt, roundUp, timeZone ?? undefined);
  } catch (e) {
    throw new IllegalArgumentError(e instanceof Error ? e.message : String(e));
  }
}

function pointRange(field: ResolvedField, lower: number, upper: number, boost: number): Exec {
  if (lower > upper) return MATCH_NONE;
  return { kind: 'numeric_range', field: field.path, lower, upper, score: Math.fround(boost) };
}

/** A keyword field's indexed form of `value`: normalized when the field has a normalizer. */
export function keywordTerm(field: ResolvedField, value: string): string {
  const normalizer = normalizerOf(field);
  return normalizer === null ? value : normalizer.normalize(value);
}

/** `term` semantics for one value on any field type. */
export function exactValueQuery(ctx: PlanContext, field: ResolvedField, value: TermValue, boost: number): Exec {
  switch (field.type) {
    case 'dense_vector': // ES DenseVectorFieldType.termQuery (terms and match go through it too)
      throw new IllegalArgumentError(`Field [${field.path}] of type [dense_vector] doesn't support term queries`);
    case 'text':
    case 'search_as_you_type':
    case 'completion': // ES TermBasedFieldType: the raw value against the analyzed forms
      return scoredTerm(ctx, field.path, String(value), boost);
    case 'keyword': // values were indexed normalized, so is the term (KeywordFieldType.normalize)
      return scoredTerm(ctx, field.path, keywordTerm(field, String(value)), boost);
    case 'date':
      return pointRange(field, dateValue(ctx, field, value, false, null, null), dateValue(ctx, field, value, true, null, null), boost);
    default: {
      const v = numericValue(field, value);
      if (INTEGER_TYPES.has(field.type) && !Number.isInteger(v)) return MATCH_NONE;
      return pointRange(field, v, v, boost);
    }
  }
}

export function termQuery(ctx: PlanContext, field: ResolvedField | undefined, value: TermValue, boost: number, caseInsensitive: boolean): Exec {
  if (!field) return MATCH_NONE;
  if (caseInsensitive && isTextLike(field)) {
    return { kind: 'pattern', field: field.path, automaton: compileLiteral(String(value), true), score: Math.fround(boost) };
  }
  return asShardFailure(ctx, false, () => exactValueQuery(ctx, field, value, boost));
}

export function termsQuery(ctx: PlanContext, field: ResolvedField | undefined, values: readonly TermValue[], boost: number): Exec {
  if (!field || values.length === 0) return MATCH_NONE;
  if (isTextLike(field)) {
    return { kind: 'terms', field: field.path, terms: values.map((v) => keywordTerm(field, String(v))), score: Math.fround(boost) };
  }
  return asShardFailure(ctx, false, () => ({
    kind: 'constant',
    score: Math.fround(boost),
    filter: { kind: 'bool', must: [], filter: [], mustNot: [], minimumShouldMatch: 1, should: values.map((v) => exactValueQuery(ctx, field, v, 0)) },
  }));
}

export interface RangeBounds {
  readonly gt: TermValue | null;
  readonly gte: TermValue | null;
  readonly lt: TermValue | null;
  readonly lte: TermValue | null;
  readonly format: string | null;
  readonly timeZone: string | null;
}

export function rangeQuery(ctx: PlanContext, field: ResolvedField | undefined, r: RangeBounds, boost: number): Exec {
  if (!field) return MATCH_NONE;
  return asShardFailure(ctx, false, () => {
    // ES's CompletionFieldType and DenseVectorFieldType keep MappedFieldType's refusal.
    if (field.type === 'completion' || field.type === 'dense_vector') throw new IllegalArgumentError(`Field [${field.path}] of type [${field.type}] does not support range queries`);
    if (isTextLike(field)) {
      const lower = r.gt ?? r.gte;
      const upper = r.lt ?? r.lte;
      // KeywordFieldType.indexedValueForSearch: bounds normalized as the values were.
      const bound = (v: unknown) => (v === null ? null : field.type === 'keyword' ? keywordTerm(field, String(v)) : String(v));
      return {
        kind: 'term_range', field: field.path, lower: bound(lower), upper: bound(upper),
        includeLower: r.gt === null, includeUpper: r.lt === null, score: Math.fround(boost),
      };
    }
    let lower = -Infinity;
    let upper = Infinity;
    if (field.type === 'date') {
      // ES JavaDateMathParser rounding: gte/lt round down, gt/lte round up; exclusive bounds ±1 ms.
      if (r.gte !== null) lower = dateValue(ctx, field, r.gte, false, r.format, r.timeZone);
      if (r.gt !== null) lower = dateValue(ctx, field, r.gt, true, r.format, r.timeZone) + 1;
      if (r.lte !== null) upper = dateValue(ctx, field, r.lte, true, r.format, r.timeZone);
      if (r.lt !== null) upper = dateValue(ctx, field, r.lt, false, r.format, r.timeZone) - 1;
      return pointRange(field, lower, upper, boost);
    }
    const integer = INTEGER_TYPES.has(field.type);
    if (r.gte !== null) {
      const v = numericValue(field, r.gte);
      lower = integer ? Math.ceil(v) : v;
    }
    if (r.gt !== null) {
      const v = numericValue(field, r.gt);
      lower = integer ? Math.floor(v) + 1 : nextUp(v);
    }
    if (r.lte !== null) {
      const v = numericValue(field, r.lte);
      upper = integer ? Math.floor(v) : v;
    }
    if (r.lt !== null) {
      const v = numericValue(field, r.lt);
      upper = integer ? Math.ceil(v) - 1 : nextDown(v);
    }
    return pointRange(field, lower, upper, boost);
  });
}

export function existsQuery(ctx: PlanContext, path: string, boost: number): Exec {
  const fields: string[] = [];
  if (ctx.mapping.fields.has(path)) fields.push(path);
  else if (ctx.mapping.objects.has(path)) {
    for (const [p, f] of ctx.mapping.fields) if (p.startsWith(path + '.') && !f.isMultiField) fields.push(p);
  }
  if (fields.length === 0) return MATCH_NONE;
  return { kind: 'exists', fields, score: Math.fround(boost) };
}

export function requireTextLike(ctx: PlanContext, field: ResolvedField, query: string): void {
  if (!isTextLike(field)) {
    throw new QueryShardError(`Can only use ${query} queries on keyword and text fields - not on [${field.path}] which is of type [${field.type}]`, ctx.index);
  }
}

/**
 * ES `MappedFieldType.prefixQuery` (constant score, the default rewrite). On search_as_you_type the
 * root and shingle fields answer a prefix of up to 20 characters with one constant-score term of
 * `._index_prefix`, which holds every such prefix of every shingle — so "quick br" finds "quick
 * brown" there; `._index_prefix` itself answers with that term scored (PrefixFieldType.prefixQuery
 * returns a plain term query, which only its callers wrap in a constant score).
 */
export function prefixQuery(ctx: PlanContext, field: ResolvedField | undefined, prefix: string, boost: number, caseInsensitive: boolean): Exec {
  if (!field) return MATCH_NONE;
  requireTextLike(ctx, field, 'prefix');
  const sayt = field.searchAsYouType;
  if (sayt !== null && prefix.length >= INDEX_PREFIX_MIN_CHARS && prefixLengthWithinBounds(prefix.length)) {
    const prefixField = sayt.role === 'index_prefix' ? field.path : prefixFieldPath(sayt.root);
    if (caseInsensitive) return { kind: 'pattern', field: prefixField, automaton: compileLiteral(prefix, true), score: Math.fround(boost) };
    if (sayt.role === 'index_prefix') return scoredTerm(ctx, prefixField, prefix, boost);
    return { kind: 'terms', field: prefixField, terms: [prefix], score: Math.fround(boost) };
  }
  // A keyword field's normalizer applies to the prefix (StringFieldType.prefixQuery's indexedValueForSearch).
  const indexed = field.type === 'keyword' ? keywordTerm(field, prefix) : prefix;
  return { kind: 'prefix', field: field.path, prefix: indexed, caseInsensitive, score: Math.fround(boost) };
}

/** `\x` escapes and runs of `?`/`*`: what a wildcard pattern's normalization leaves alone. */
const WILDCARD_SYNTAX = /(\\.)|([?*]+)/gs;

/**
 * ES StringFieldType.normalizeWildcardPattern: a keyword field's normalizer applied to the literal
 * chunks of a wildcard pattern, wildcards and escapes kept as they are (`F?o Ba*` → `f?o ba*`).
 */
export function normalizeWildcardPattern(field: ResolvedField, pattern: string): string {
  const normalizer = field.type === 'keyword' ? normalizerOf(field) : null;
  if (normalizer === null) return pattern;
  let out = '';
  let last = 0;
  for (const m of pattern.matchAll(WILDCARD_SYNTAX)) {
    if (m.index > last) out += normalizer.normalize(pattern.slice(last, m.index));
    out += m[0];
    last = m.index + m[0].length;
  }
  return last < pattern.length ? out + normalizer.normalize(pattern.slice(last)) : out;
}

/**
 * Lucene's WildcardQuery: the pattern (`*`, `?`, `\` escapes) compiled to an automaton and
 * intersected with the term dictionary; past `max_determinized_states` ES's
 * too_complex_to_determinize_exception, as a shard failure.
 */
export function wildcardQuery(ctx: PlanContext, field: ResolvedField | undefined, pattern: string, boost: number, caseInsensitive: boolean): Exec {
  if (!field) return MATCH_NONE;
  requireTextLike(ctx, field, 'wildcard');
  const normalized = normalizeWildcardPattern(field, pattern);
  return asShardFailure(ctx, false, () => ({ kind: 'pattern', field: field.path, automaton: compileWildcard(normalized, { caseInsensitive }), score: Math.fround(boost) }));
}

export interface RegexpOptions {
  readonly flags: number;
  readonly caseInsensitive: boolean;
  readonly maxDeterminizedStates: number;
}

/**
 * ES RegexpQueryBuilder.doToQuery: `index.max_regex_length` first, then Lucene's RegExp parsed and
 * determinized (syntax errors are illegal_argument_exception, too many states
 * too_complex_to_determinize_exception), each a shard failure "failed to create query: …".
 */
export function regexpQuery(ctx: PlanContext, field: ResolvedField | undefined, regexp: string, boost: number, options: RegexpOptions): Exec {
  if (!field) return MATCH_NONE;
  return asShardFailure(ctx, false, () => {
    requireTextLike(ctx, field, 'regexp');
    checkRegexLength(regexp, ctx.maxRegexLength, 'Regexp Query request');
    return regexpExec(field, regexp, boost, options);
  });
}

/** The automaton leaf of a regexp (query_string checks the length itself, with its own wording). */
export function regexpExec(field: ResolvedField, regexp: string, boost: number, options: RegexpOptions): Exec {
  return { kind: 'pattern', field: field.path, automaton: compileRegexp(regexp, options), score: Math.fround(boost) };
}

/**
 * ES maps `_id` as a metadata field (IdFieldMapper) whose term queries are ids queries: `term`,
 * `terms`, `match` and query_string's `_id:…` on it are planned with `idsQuery`.
 */
export const ID_FIELD = '_id';

export function idsQuery(ids: readonly string[], boost: number): Exec {
  return ids.length === 0 ? MATCH_NONE : { kind: 'ids', ids, score: Math.fround(boost) };
}
