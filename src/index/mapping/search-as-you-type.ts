/**
 * The `search_as_you_type` field type (ES SearchAsYouTypeFieldMapper): a text field plus hidden
 * subfields indexed from the same value — `<f>._2gram` … `<f>._<max_shingle_size>gram` (shingles
 * of n tokens) and `<f>._index_prefix` (edge n-grams 1..20 of shingles of max_shingle_size tokens).
 * The subfields are ordinary indexed text fields with their own statistics; they are searchable by
 * name but never listed in the mapping, and they do not count against the total fields limit
 * (ES 8's FieldMapper.getTotalFieldsCount counts a field and its multi-fields only).
 */
import { MapperParsingError, previewInput } from '../../errors/index.js';
import type { ResolvedField, SearchAsYouTypeStructure } from './types.js';

/** ES SearchAsYouTypeFieldMapper.Defaults and bounds. */
export const DEFAULT_MAX_SHINGLE_SIZE = 3;
const MAX_SHINGLE_SIZE_LOWER_BOUND = 2;
const MAX_SHINGLE_SIZE_UPPER_BOUND = 4;
/** Edge n-gram lengths of `._index_prefix`: a prefix of up to this many characters is one term there. */
export const INDEX_PREFIX_MIN_CHARS = 1;
export const INDEX_PREFIX_MAX_CHARS = 20;

/** ES's parameter order, which GET _mapping follows; `doc_values` and `max_shingle_size` are always rendered. */
const PARAMETER_ORDER = [
  'index', 'store', 'doc_values', 'max_shingle_size', 'analyzer', 'search_analyzer', 'search_quote_analyzer',
  'similarity', 'index_options', 'norms', 'term_vector', 'meta', 'copy_to',
];

/** `max_shingle_size` as ES's intParam reads it (XContentMapValues.nodeIntegerValue), then validated. */
export function checkMaxShingleSize(v: unknown): number {
  let n: number;
  if (typeof v === 'number') n = Math.trunc(v);
  else if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) n = Number(v);
  else throw new MapperParsingError(`For input string: "${previewInput(String(v))}"`);
  if (n < MAX_SHINGLE_SIZE_LOWER_BOUND || n > MAX_SHINGLE_SIZE_UPPER_BOUND) {
    throw new MapperParsingError(
      `[max_shingle_size] must be at least [${MAX_SHINGLE_SIZE_LOWER_BOUND}] and at most [${MAX_SHINGLE_SIZE_UPPER_BOUND}], got [${n}]`,
    );
  }
  return n;
}

/** `doc_values` may only be (and always is) false. */
export function checkDocValues(v: boolean): boolean {
  if (v) throw new MapperParsingError('Cannot set [doc_values] on field of type [search_as_you_type]');
  return v;
}

/** Validated parameters → the stored form: defaults of always-serialized parameters filled, ES's order. */
export function searchAsYouTypeParams(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...params, doc_values: false, max_shingle_size: params.max_shingle_size ?? DEFAULT_MAX_SHINGLE_SIZE };
  const out: Record<string, unknown> = {};
  for (const k of PARAMETER_ORDER) if (filled[k] !== undefined) out[k] = filled[k];
  return out;
}

export function shingleFieldPath(root: string, shingleSize: number): string {
  return `${root}._${shingleSize}gram`;
}

export function prefixFieldPath(root: string): string {
  return `${root}._index_prefix`;
}

/** PrefixFieldType.termLengthWithinBounds: prefixes this long are answered from `._index_prefix`. */
export function prefixLengthWithinBounds(length: number): boolean {
  return length >= INDEX_PREFIX_MIN_CHARS - 1 && length <= INDEX_PREFIX_MAX_CHARS;
}

/** The root's structure entry, from its stored parameters. */
export function searchAsYouTypeRoot(path: string, params: Readonly<Record<string, unknown>>): SearchAsYouTypeStructure {
  return { role: 'root', root: path, maxShingleSize: Number(params.max_shingle_size ?? DEFAULT_MAX_SHINGLE_SIZE), shingleSize: 0 };
}

/**
 * The hidden subfields of a resolved root. Shingle fields copy the root's index options (norms
 * included); `._index_prefix` omits norms. All are searchable even when the root is not indexed
 * (ES registers them regardless); they then simply hold no terms.
 */
export function searchAsYouTypeSubfields(root: ResolvedField): ResolvedField[] {
  const s = root.searchAsYouType!;
  const out: ResolvedField[] = [];
  for (let n = 2; n <= s.maxShingleSize; n++) {
    out.push({ ...root, path: shingleFieldPath(root.path, n), indexed: true, isMultiField: true, searchAsYouType: { ...s, role: 'shingle', shingleSize: n } });
  }
  out.push({
    ...root, path: prefixFieldPath(root.path), indexed: true, norms: false, isMultiField: true,
    searchAsYouType: { ...s, role: 'index_prefix', shingleSize: s.maxShingleSize },
  });
  return out;
}

/** Paths a root's value is also indexed under. */
export function searchAsYouTypeSubfieldPaths(s: SearchAsYouTypeStructure): string[] {
  const out: string[] = [];
  for (let n = 2; n <= s.maxShingleSize; n++) out.push(shingleFieldPath(s.root, n));
  out.push(prefixFieldPath(s.root));
  return out;
}

/** The type name ES reports for a field in errors: `._index_prefix` is a PrefixFieldType ("prefix"). */
export function fieldTypeName(field: ResolvedField): string {
  return field.searchAsYouType?.role === 'index_prefix' ? 'prefix' : field.type;
}
