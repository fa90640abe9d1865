/** Term-level clauses: `term`, `terms`, `range`, `exists`, `ids`, `prefix`, `wildcard`, `regexp`. */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { forEachEntry, isObject, mapItems, readBoolean, readInt, readString, unknownParameter } from '../parse-helpers.js';
import type { ExistsQuery, FuzzyQuery, IdsQuery, PrefixQuery, RangeQuery, RegexpQuery, TermQuery, TermsQuery, TermValue, WildcardQuery } from '../query-nodes.js';
import { DEFAULT_MAX_DETERMINIZED_STATES, REGEXP_FLAGS, resolveRegexpFlags } from '../../common/pattern/index.js';
import { forEachOption, newCommon, readCommon, readFuzziness, splitFieldClause } from './common.js';

const MAX_TERMS_COUNT = 65536; // index.max_terms_count

function termValue(q: string, v: unknown): TermValue {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v === null) throw new ParsingError(`[${q}] query value cannot be null`);
  throw new ParsingError(`[${q}] query does not support ${Array.isArray(v) ? 'array of values' : 'an object as value'}`);
}

export function parseTerm(body: unknown): TermQuery {
  const q = 'term';
  const clause = splitFieldClause(q, body, 'value');
  const { field, outer } = clause;
  const node = { kind: q as typeof q, field, value: null as TermValue | null, caseInsensitive: false, ...outer };
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    if (k === 'value' || k === 'term') node.value = termValue(q, v);
    else if (k === 'case_insensitive') node.caseInsensitive = readBoolean(q, k, v);
    else throw unknownParameter(q, k);
  });
  if (node.value === null) throw new ParsingError(`[${q}] query value cannot be null`);
  return { ...node, value: node.value };
}

export function parseTerms(body: unknown): TermsQuery {
  const q = 'terms';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const c = newCommon();
  let field: string | null = null;
  let values: TermValue[] = [];
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, c)) return;
    if (field !== null) throw new ParsingError(`[${q}] query does not support multiple fields`);
    field = k;
    if (Array.isArray(v)) values = mapItems(v, (x) => termValue(q, x));
    else if (isObject(v)) throw new ParsingError(`[${q}] query does not support terms lookup yet: [${k}]`);
    else throw new ParsingError(`[${q}] query does not support [${k}]`);
  });
  if (field === null) throw new ParsingError(`[${q}] query requires a field`);
  if (values.length > MAX_TERMS_COUNT) {
    throw new ParsingError(`The number of terms [${values.length}] used in the Terms Query request has exceeded the allowed maximum of [${MAX_TERMS_COUNT}]. This maximum can be set by changing the [index.max_terms_count] index level setting.`);
  }
  return { kind: q, field, values, ...c };
}

export function parseRange(body: unknown): RangeQuery {
  const q = 'range';
  const clause = splitFieldClause(q, body, '__invalid__');
  const { field, outer } = clause;
  if ('__invalid__' in clause.options) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const node = {
    kind: q as typeof q, field, gt: null as TermValue | null, gte: null as TermValue | null, lt: null as TermValue | null,
    lte: null as TermValue | null, format: null as string | null, timeZone: null as string | null,
    relation: 'intersects' as 'intersects' | 'contains' | 'within', ...outer,
  };
  let includeLower = true;
  let includeUpper = true;
  let from: TermValue | null = null;
  let to: TermValue | null = null;
  const bound = (k: string, v: unknown): TermValue | null => (v === null ? null : termValue(q, v));
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    switch (k) {
      case 'gt': node.gt = bound(k, v); break;
      case 'gte': node.gte = bound(k, v); break;
      case 'lt': node.lt = bound(k, v); break;
      case 'lte': node.lte = bound(k, v); break;
      case 'from': from = bound(k, v); break;
      case 'to': to = bound(k, v); break;
      case 'include_lower': includeLower = readBoolean(q, k, v); break;
      case 'include_upper': includeUpper = readBoolean(q, k, v); break;
      case 'format': node.format = readString(q, k, v); break;
      case 'time_zone': node.timeZone = readString(q, k, v); break;
      case 'relation': {
        const r = readString(q, k, v).toLowerCase();
        if (r !== 'intersects' && r !== 'contains' && r !== 'within') throw new ParsingError(`[range] query does not support relation [${r}]`);
        node.relation = r;
        break;
      }
      default: throw unknownParameter(q, k);
    }
  });
  // Legacy from/to/include_* (ES still accepts them) map onto the four bounds.
  if (from !== null) includeLower ? (node.gte = from) : (node.gt = from);
  if (to !== null) includeUpper ? (node.lte = to) : (node.lt = to);
  return node;
}

export function parseExists(body: unknown): ExistsQuery {
  const q = 'exists';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const c = newCommon();
  let field: string | null = null;
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, c)) return;
    if (k === 'field') field = readString(q, k, v);
    else throw unknownParameter(q, k);
  });
  if (field === null) throw new ParsingError(`[${q}] must be provided with a [field]`);
  return { kind: q, field, ...c };
}

export function parseIds(body: unknown): IdsQuery {
  const q = 'ids';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const c = newCommon();
  let values: string[] = [];
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, c)) return;
    if (k === 'values') {
      if (!Array.isArray(v)) throw new ParsingError(`[${q}] failed to parse field [values]`);
      values = mapItems(v, (x) => {
        if (typeof x === 'string' || typeof x === 'number') return String(x);
        throw new ParsingError(`[${q}] failed to parse field [values]`);
      });
    } else if (k === 'type' || k === 'types') {
      throw new ParsingError(`[${q}] query does not support [${k}]`);
    } else throw unknownParameter(q, k);
  });
  return { kind: q, values, ...c };
}

function parsePatternQuery<K extends 'prefix' | 'wildcard'>(q: K, body: unknown) {
  const clause = splitFieldClause(q, body, 'value');
  const { field, outer } = clause;
  const node = { kind: q as typeof q, field, value: null as string | null, caseInsensitive: false, ...outer };
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    if (k === 'value' || (q === 'prefix' && k === 'prefix') || (q === 'wildcard' && k === 'wildcard')) node.value = readString(q, k, v);
    else if (k === 'case_insensitive') node.caseInsensitive = readBoolean(q, k, v);
    else if (k === 'rewrite') readString(q, k, v);
    else throw unknownParameter(q, k);
  });
  if (node.value === null) throw new ParsingError(`[${q}] query value cannot be null`);
  return { ...node, value: node.value };
}

export function parsePrefix(body: unknown): PrefixQuery {
  return parsePatternQuery('prefix', body);
}

export function parseWildcard(body: unknown): WildcardQuery {
  return parsePatternQuery('wildcard', body);
}

/** Lucene's rewrite for a fuzzy query, `top_terms_blended_freqs_<n>` (ES's default, with n = max_expansions). */
const BLENDED_REWRITE = /^top_terms_blended_freqs_(\d+)$/;

/**
 * ES FuzzyQueryBuilder.fromXContent: `value`, `fuzziness` (AUTO), `prefix_length` (0),
 * `max_expansions` (50), `transpositions` (true), `rewrite`. Only the default, blended rewrite is
 * implemented; another one is refused rather than scored differently.
 */
export function parseFuzzy(body: unknown): FuzzyQuery {
  const q = 'fuzzy';
  const clause = splitFieldClause(q, body, 'value');
  const { field, outer } = clause;
  const node = {
    kind: q as typeof q, field, value: null as string | null, fuzziness: 'AUTO', prefixLength: 0, maxExpansions: 50, transpositions: true, ...outer,
  };
  let rewriteSize: number | null = null;
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    if (k === 'value') {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new ParsingError(`[${q}] query value cannot be null`);
      node.value = String(v);
    } else if (k === 'fuzziness') node.fuzziness = readFuzziness(q, v)!;
    else if (k === 'prefix_length') node.prefixLength = readInt(q, k, v);
    else if (k === 'max_expansions') node.maxExpansions = readInt(q, k, v);
    else if (k === 'transpositions') node.transpositions = readBoolean(q, k, v);
    else if (k === 'rewrite') {
      const rewrite = readString(q, k, v);
      const blended = BLENDED_REWRITE.exec(rewrite);
      if (blended === null) throw new IllegalArgumentError(`[${q}] rewrite [${rewrite.slice(0, 100)}] is not supported by this server yet (only top_terms_blended_freqs_<n>, the default)`);
      rewriteSize = Number(blended[1]);
    } else throw unknownParameter(q, k);
  });
  if (node.value === null) throw new ParsingError(`[${q}] query value cannot be null`);
  // Lucene FuzzyQuery's checks, which ES reports as they are.
  if (node.prefixLength < 0) throw new IllegalArgumentError('prefixLength cannot be negative.');
  if (node.maxExpansions <= 0) throw new IllegalArgumentError('maxExpansions must be positive.');
  if (rewriteSize !== null && rewriteSize <= 0) throw new IllegalArgumentError('size must be positive.');
  return { ...node, value: node.value, maxExpansions: rewriteSize ?? node.maxExpansions };
}

/** ES RegexpQueryBuilder.fromXContent: `value`, `flags`, `flags_value`, `case_insensitive`, `max_determinized_states`, `rewrite`. */
export function parseRegexp(body: unknown): RegexpQuery {
  const q = 'regexp';
  const clause = splitFieldClause(q, body, 'value');
  const { field, outer } = clause;
  const node = {
    kind: q as typeof q, field, value: null as string | null, flags: REGEXP_FLAGS.ALL as number, caseInsensitive: false,
    maxDeterminizedStates: DEFAULT_MAX_DETERMINIZED_STATES, ...outer,
  };
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    if (k === 'value') node.value = readString(q, k, v);
    else if (k === 'flags') node.flags = resolveRegexpFlags(readString(q, k, v));
    else if (k === 'flags_value') node.flags = readInt(q, k, v);
    else if (k === 'case_insensitive') node.caseInsensitive = readBoolean(q, k, v);
    else if (k === 'max_determinized_states') node.maxDeterminizedStates = readInt(q, k, v);
    else if (k === 'rewrite') readString(q, k, v);
    else throw unknownParameter(q, k);
  });
  if (node.value === null) throw new ParsingError(`[${q}] query value cannot be null`);
  return { ...node, value: node.value };
}
