/**
 * Request `sort` specs → executable sort keys for one index, by field type (ES FieldSortBuilder):
 * keyword fields sort by term, numbers/dates/booleans by value, text fields fail with ES's
 * fielddata error, unmapped fields fail unless `unmapped_type` is given.
 */
import { IllegalArgumentError, ParseError, QueryShardError, previewInput } from '../../errors/index.js';
import { DateParseError } from '../../common/dates/index.js';
import { compiledFormat, type ResolvedField } from '../../index/index.js';
import type { SortSpec } from '../../dsl/index.js';
import { fielddataError, fielddataNotSupportedError, type ExecSort, type SortValue } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';

/** The same error aggregations raise; one definition, in search/. */
export { fielddataError };

function numericMissing(spec: Extract<SortSpec, { kind: 'field' }>, field: ResolvedField | null): number {
  const desc = spec.order === 'desc';
  if (spec.missing === '_last') return desc ? -Infinity : Infinity;
  if (spec.missing === '_first') return desc ? Infinity : -Infinity;
  if (field?.type === 'date' && typeof spec.missing === 'string') {
    try {
      return compiledFormat(field.format).parse(spec.missing);
    } catch (e) {
      // ES's DateMathParser failure: a parse_exception, not a server error.
      if (e instanceof DateParseError) throw new ParseError(e.message);
      throw e;
    }
  }
  const n = Number(spec.missing);
  if (Number.isNaN(n)) throw new IllegalArgumentError(`For input string: "${previewInput(String(spec.missing))}"`);
  return n;
}

/** `_shard_doc` values of the index at position p of a search are p·2^36 + write order: unique across its indices. */
export const SHARD_DOC_INDEX_STRIDE = 2 ** 36;

export function resolveSort(specs: readonly SortSpec[], index: IndexService, indexPos = 0): ExecSort[] {
  return specs.map((spec): ExecSort => {
    if (spec.kind === 'score') return { kind: 'score', desc: spec.order === 'desc' };
    if (spec.kind === 'doc') return { kind: 'doc', desc: spec.order === 'desc' };
    if (spec.kind === 'shard_doc') return { kind: 'shard_doc', desc: spec.order === 'desc', base: indexPos * SHARD_DOC_INDEX_STRIDE };
    const desc = spec.order === 'desc';
    const mode = spec.mode ?? (desc ? 'max' : 'min');
    let field = index.resolvedMapping.fields.get(spec.field) ?? null;
    let type: string | undefined = field?.type;
    if (!field) {
      if (spec.unmappedType === null) {
        throw new QueryShardError(`No mapping found for [${spec.field}] in order to sort on`, { name: index.name, uuid: index.uuid });
      }
      type = spec.unmappedType;
    }
    if (type === 'text') throw fielddataError(spec.field, index.name);
    if (field?.type === 'search_as_you_type') throw fielddataNotSupportedError(field);
    if (type === 'keyword') {
      return {
        kind: 'keyword', field: spec.field, desc, mode: mode === 'max' ? 'max' : 'min',
        missingFirst: spec.missing === '_first',
        missingValue: spec.missing === '_first' || spec.missing === '_last' ? null : String(spec.missing),
      };
    }
    if (field && !field.docValues) throw new IllegalArgumentError(`Can't load fielddata on [${spec.field}] because fielddata is unsupported on fields of type [${field.type}]. Use doc values instead.`);
    field = field ?? null;
    return { kind: 'numeric', field: spec.field, desc, mode, missing: numericMissing(spec, field) };
  });
}

/** `search_after` values converted to the sort keys' types. */
export function resolveSearchAfter(values: readonly unknown[], keys: readonly ExecSort[]): SortValue[] {
  if (values.length !== keys.length) {
    throw new IllegalArgumentError(`search_after has ${values.length} value(s) but sort has ${keys.length}.`);
  }
  return keys.map((k, i) => {
    const v = values[i];
    if (k.kind === 'keyword') return v === null ? null : String(v);
    const n = typeof v === 'number' ? v : Number(v);
    if (Number.isNaN(n)) throw new IllegalArgumentError(`Failed to parse search_after value for field [${k.kind === 'numeric' ? k.field : k.kind}].`);
    // Scores are float32 and shown as the shortest decimal that reads back as one: read it back so.
    return k.kind === 'score' ? Math.fround(n) : n;
  });
}
