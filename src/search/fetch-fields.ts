/**
 * A hit's `fields` section (ES FetchFieldsPhase and FetchDocValuesPhase): the `fields` a search
 * asks for, read from the stored `_source` and parsed by the mapping the way the field's own
 * value fetcher does (keyword values normalized and skipped past `ignore_above`, numbers as the
 * field's type, dates in the field's or the requested format, `null_value` for nulls), and the
 * `docvalue_fields`, read from the doc values (keyword terms ascending, numbers ascending).
 * Patterns may hold wildcards; a multi-field reads its parent's values; `include_unmapped` adds
 * the `_source` leaves the mapping does not know, as they are. Fields without values are left
 * out; names are in order.
 */
import { scriptFieldValues, type FetchScriptField } from './script/script-fields.js';
import { globMatcher } from '../common/wildcard.js';
import { float32ToJson } from '../common/float-json.js';
import { isPlainObject } from '../common/json.js';
import { IllegalArgumentError } from '../errors/index.js';
import { compiledFormat, denseVectorDocValuesError, normalizerOf, readSource, termAt, type ResolvedField, type Segment } from '../index/index.js';
import type { FieldAndFormat } from '../dsl/index.js';

/** One field of a hit's `fields`, resolved for an index. */
export interface FetchField {
  readonly name: string;
  readonly field: ResolvedField;
  readonly from: 'source' | 'doc_values';
  /** Dates: the format values are rendered in. */
  readonly format: string | null;
}

export interface FetchFields {
  readonly fields: readonly FetchField[];
  /** `include_unmapped` patterns of `fields`: the `_source` leaves they match are shown too, unless in or under a `mapped` field. */
  readonly unmapped: { readonly patterns: readonly string[]; readonly mapped: ReadonlySet<string> } | null;
}

const INTEGRAL = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);
const FLOAT32 = new Set(['float', 'half_float']);
const NUMERIC = new Set([...INTEGRAL, ...FLOAT32, 'double', 'scaled_float']);
const STRINGS = new Set(['text', 'keyword', 'search_as_you_type']);
/** ES `index.max_docvalue_fields_search` (its default; not an index setting here): entries one search may ask for. */
const MAX_DOCVALUE_FIELDS = 100;

/** Types whose values are not rendered here (their `_source` is the way to read them). */
const NOT_FETCHED = new Set(['sparse_vector', 'rank_features', 'completion']);

function fetchable(field: ResolvedField): boolean {
  if (NOT_FETCHED.has(field.type)) return false;
  // A search_as_you_type root's shingle and prefix subfields hold no values of their own.
  return field.searchAsYouType === null || field.searchAsYouType.role === 'root';
}

/**
 * `fields` and `docvalue_fields` of a request, resolved against an index's fields; null when the
 * request asks for neither. A text field in `docvalue_fields` fails as ES does (`fielddata`).
 */
export function resolveFetchFields(
  fields: readonly FieldAndFormat[] | null, docvalueFields: readonly FieldAndFormat[] | null,
  mapped: ReadonlyMap<string, ResolvedField>, fielddataError: (field: string) => Error,
): FetchFields | null {
  if (fields === null && docvalueFields === null) return null;
  if (docvalueFields !== null && docvalueFields.length > MAX_DOCVALUE_FIELDS) {
    throw new IllegalArgumentError(`Trying to retrieve too many docvalue_fields. Must be less than or equal to: [${MAX_DOCVALUE_FIELDS}] but was [${docvalueFields.length}]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.`);
  }
  const out = new Map<string, FetchField>();
  const add = (requests: readonly FieldAndFormat[] | null, from: FetchField['from']) => {
    for (const r of requests ?? []) {
      const matcher = globMatcher(r.field);
      for (const [path, field] of mapped) {
        if (!matcher.test(path) || !fetchable(field)) continue;
        if (field.type === 'dense_vector') {
          // ES DenseVectorFieldType: no doc values to render, no formats for its source values.
          if (from === 'doc_values') {
            if (r.field === path) throw denseVectorDocValuesError(path);
            continue;
          }
          if (r.format !== null) throw new IllegalArgumentError(`Field [${path}] of type [dense_vector] doesn't support formats.`);
        }
        if (from === 'doc_values') {
          if (field.type === 'text') throw fielddataError(path);
          if (!field.docValues) continue;
          if (r.format !== null && field.type !== 'date') {
            // ES formats numbers with a DecimalFormat pattern; that is not built here, so it is refused, not ignored.
            throw new IllegalArgumentError(NUMERIC.has(field.type)
              ? `[format] of numeric [docvalue_fields] is not supported by this server yet`
              : `Field [${path}] of type [${field.type}] does not support custom formats`);
          }
        }
        out.set(`${from}:${path}`, { name: path, field, from, format: field.type === 'date' ? r.format ?? field.format : null });
      }
    }
  };
  add(fields, 'source');
  add(docvalueFields, 'doc_values');
  const patterns = (fields ?? []).filter((r) => r.includeUnmapped).map((r) => r.field);
  const unmapped = patterns.length === 0 ? null : { patterns, mapped: new Set(mapped.keys()) };
  return { fields: [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), unmapped };
}

/**
 * `,"fields":{…}` for a hit, or '' when none of the fields has a value. `raw`: its stored `_source`
 * (undefined: not read yet, and read only if a field needs it). `collapse`: the collapse field,
 * whose one doc value (or null) replaces what the request's own fields found under its name, as
 * ES sets it on the hit after fetching them.
 */
export function renderFetchFields(
  spec: FetchFields | null, segment: Segment, doc: number, raw: string | null | undefined, collapse: FetchField | null = null,
  scriptFields: readonly FetchScriptField[] | null = null,
): string {
  let source: Record<string, unknown> | null | undefined;
  const parsed = (): Record<string, unknown> | null => {
    if (source === undefined) {
      const text = raw === undefined ? readSource(segment, doc) : raw;
      source = text === null ? null : (JSON.parse(text) as Record<string, unknown>);
    }
    return source;
  };
  const members = new Map<string, string[]>();
  const put = (name: string, values: string[]) => {
    if (values.length === 0) return;
    const before = members.get(name);
    members.set(name, before ? before.concat(values) : values);
  };
  for (const f of spec?.fields ?? []) {
    if (f.from === 'doc_values') put(f.name, docValues(f, segment, doc));
    else {
      const src = parsed();
      if (src !== null) put(f.name, sourceValues(f, src));
    }
  }
  const unmapped = spec?.unmapped ?? null;
  if (unmapped !== null && parsed() !== null) {
    for (const [path, values] of leaves(source!)) {
      if (underMapped(path, unmapped.mapped) || !unmapped.patterns.some((p) => globMatcher(p).test(path))) continue;
      put(path, values.map((v) => JSON.stringify(v)));
    }
  }
  for (const f of scriptFields ?? []) {
    const values = scriptFieldValues(f, segment, doc);
    if (values !== null) members.set(f.name, values);
  }
  if (collapse !== null) {
    const values = docValues(collapse, segment, doc);
    members.set(collapse.name, values.length === 0 ? ['null'] : values);
  }
  if (members.size === 0) return '';
  const names = [...members.keys()].sort();
  return `,"fields":{${names.map((n) => `${JSON.stringify(n)}:[${members.get(n)!.join(',')}]`).join(',')}}`;
}

/** The field's values in `_source`, rendered as JSON, as its value fetcher parses them. */
function sourceValues(f: FetchField, src: Record<string, unknown>): string[] {
  const field = f.field;
  // A multi-field reads its parent's values.
  const path = field.isMultiField ? field.path.slice(0, field.path.lastIndexOf('.')) : field.path;
  const raw: unknown[] = [];
  collect(src, path.split('.'), 0, raw);
  const out: string[] = [];
  for (let v of raw) {
    if (v === null) {
      if (field.nullValue === null || field.nullValue === undefined) continue;
      v = field.nullValue;
    }
    const rendered = renderSourceValue(f, field, v);
    if (rendered !== null) out.push(rendered);
  }
  return out;
}

function renderSourceValue(f: FetchField, field: ResolvedField, v: unknown): string | null {
  if (isPlainObject(v) || Array.isArray(v)) return null;
  if (STRINGS.has(field.type)) {
    let s = String(v);
    if (field.type === 'keyword') {
      if (s.length > field.ignoreAbove) return null;
      const normalizer = normalizerOf(field);
      if (normalizer !== null) s = normalizer.normalize(s);
    }
    return JSON.stringify(s);
  }
  if (field.type === 'boolean') {
    if (v === true || v === 'true') return 'true';
    if (v === false || v === 'false' || v === '') return 'false';
    return null;
  }
  if (field.type === 'date') {
    const ms = typeof v === 'number' ? Math.trunc(v) : parseDate(field, String(v));
    return ms === null ? null : JSON.stringify(compiledFormat(f.format!).format(ms));
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) return null;
  return renderNumber(field, n);
}

function parseDate(field: ResolvedField, text: string): number | null {
  try {
    return compiledFormat(field.format).parse(text);
  } catch {
    return null;
  }
}

function renderNumber(field: ResolvedField, n: number): string {
  if (INTEGRAL.has(field.type)) return String(Math.trunc(n));
  if (FLOAT32.has(field.type)) return float32ToJson(n);
  if (field.type === 'scaled_float') return JSON.stringify(Math.round(n * field.scalingFactor) / field.scalingFactor);
  return JSON.stringify(n);
}

/** The field's doc values of `doc`, rendered as JSON: terms, numbers, formatted dates, booleans. */
function docValues(f: FetchField, segment: Segment, doc: number): string[] {
  const field = f.field;
  const values = segment.fields.get(field.path);
  if (!values || !values.docValueOffsets) return [];
  const start = values.docValueOffsets[doc];
  const end = values.docValueOffsets[doc + 1];
  const out: string[] = [];
  for (let j = start; j < end; j++) {
    if (values.docValueOrds) out.push(JSON.stringify(termAt(segment, values, values.docValueOrds[j])));
    else if (values.docValueNumbers) {
      const n = values.docValueNumbers[j];
      if (field.type === 'date') out.push(JSON.stringify(compiledFormat(f.format!).format(n)));
      else if (field.type === 'boolean') out.push(n !== 0 ? 'true' : 'false');
      else out.push(renderNumber(field, n));
    }
  }
  return out;
}

/** Whether `path` is a mapped field or lies under one (a rank_features field's `topics.ai`). */
function underMapped(path: string, mapped: ReadonlySet<string>): boolean {
  for (let at = path.length; at > 0; at = path.lastIndexOf('.', at - 1)) if (mapped.has(path.slice(0, at))) return true;
  return false;
}

/** Values at a dotted path of `_source`, through arrays and dotted keys (`{"a.b": 1}` is `a.b`). */
function collect(node: unknown, parts: readonly string[], i: number, out: unknown[]): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, parts, i, out);
    return;
  }
  if (i === parts.length) {
    out.push(node);
    return;
  }
  if (!isPlainObject(node)) return;
  let key = '';
  for (let j = i; j < parts.length; j++) {
    key = j === i ? parts[j] : `${key}.${parts[j]}`;
    if (Object.prototype.hasOwnProperty.call(node, key)) collect(node[key], parts, j + 1, out);
  }
}

/** Every leaf of `_source` by dotted path, arrays flattened. */
function leaves(src: Record<string, unknown>): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, path);
    } else if (isPlainObject(node)) {
      for (const [k, v] of Object.entries(node)) walk(v, path === '' ? k : `${path}.${k}`);
    } else if (node !== null && path !== '') {
      const list = out.get(path);
      if (list) list.push(node);
      else out.set(path, [node]);
    }
  };
  walk(src, '');
  return out;
}
