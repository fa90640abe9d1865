/**
 * The refusals of fields that cannot be read per document (ES fielddata): shared by aggregations
 * and sorting.
 */
import { fieldTypeName, type ResolvedField } from '../index/index.js';
import { IllegalArgumentError } from '../errors/index.js';

/** ES TextFieldMapper's error for aggregations and sorting on a text field without fielddata. */
export function fielddataError(field: string, index: string): IllegalArgumentError {
  return new IllegalArgumentError(
    `Fielddata is disabled on [${field}] in [${index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
  );
}

/** MappedFieldType.fielddataBuilder's refusal, for field types with neither doc values nor fielddata (search_as_you_type). */
export function fielddataNotSupportedError(field: ResolvedField): IllegalArgumentError {
  return new IllegalArgumentError(`Fielddata is not supported on field [${field.path}] of type [${fieldTypeName(field)}]`);
}
