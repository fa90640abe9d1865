/**
 * Request `sort` specs → executable sort keys for one index, by field type (ES FieldSortBuilder):
 * keyword fields sort by term, numbers/dates/booleans by value, text fields fail with ES's
 * fielddata error, unmapped fields fail unless `unmapped_type` is given. The search's sort and
 * `top_hits`' sort both resolve here.
 */
import { IllegalArgumentError, ParseError, QueryShardError, previewInput } from '../../errors/index.js';
import { DateParseError } from '../../common/dates/index.js';
import { compiledFormat, type ResolvedField, type ResolvedMapping } from '../../index/index.js';
import type { SortSpec } from '../../dsl/sort.js';
import type { ExecSort } from '../exec/field-sort.js';
import { fielddataError, fielddataNotSupportedError } from '../fielddata-errors.js';
import { compileForIndex } from './script.js';

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

/**
 * `specs` → sort keys over one index's mapping; `indexPos`, the index's position among the
 * searched ones, makes its `_shard_doc` values unique across them.
 */
export function resolveSortKeys(specs: readonly SortSpec[], mapping: ResolvedMapping, index: { readonly name: string; readonly uuid: string }, indexPos = 0): ExecSort[] {
  return specs.map((spec): ExecSort => {
    if (spec.kind === 'score') return { kind: 'score', desc: spec.order === 'desc' };
    if (spec.kind === 'doc') return { kind: 'doc', desc: spec.order === 'desc' };
    if (spec.kind === 'shard_doc') return { kind: 'shard_doc', desc: spec.order === 'desc', base: indexPos * SHARD_DOC_INDEX_STRIDE };
    if (spec.kind === 'script') {
      // NumberSortScript returns a double, StringSortScript a String; both see `_score`.
      const script = compileForIndex({ mapping, index }, spec.script, spec.type === 'number' ? 'double' : 'String');
      return { kind: 'script', desc: spec.order === 'desc', type: spec.type, script };
    }
    const desc = spec.order === 'desc';
    const mode = spec.mode ?? (desc ? 'max' : 'min');
    let field = mapping.fields.get(spec.field) ?? null;
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
    // ES VectorIndexFieldData.sortField.
    if (field?.type === 'dense_vector') throw new IllegalArgumentError(`Field [${spec.field}] of type [dense_vector] doesn't support sort`);
    if (field && !field.docValues) throw new IllegalArgumentError(`Can't load fielddata on [${spec.field}] because fielddata is unsupported on fields of type [${field.type}]. Use doc values instead.`);
    field = field ?? null;
    return { kind: 'numeric', field: spec.field, desc, mode, missing: numericMissing(spec, field) };
  });
}
