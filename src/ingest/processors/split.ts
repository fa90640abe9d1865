/**
 * ES SplitProcessor: splits a string field on a regular expression (`separator`) into a list.
 * Like Java's String.split, trailing empty strings are dropped unless `preserve_trailing`.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { castError, readField } from './field-access.js';

export function split(config: ProcessorConfig): ProcessorBody {
  const field = config.string('field');
  const separator = config.string('separator');
  let re: RegExp;
  try {
    re = new RegExp(separator, 'u');
  } catch (e) {
    throw config.error('separator', `invalid regular expression [${separator}]: ${(e as Error).message}`);
  }
  const targetField = config.string('target_field', field);
  const ignoreMissing = config.bool('ignore_missing', false);
  const preserveTrailing = config.bool('preserve_trailing', false);
  return {
    kind: 'document',
    execute(doc) {
      const value = readField(doc, field, ignoreMissing);
      if (value === undefined || (value === null && ignoreMissing)) return;
      if (value === null) throw new IllegalArgumentError(`field [${field}] is null, cannot split.`);
      if (typeof value !== 'string') throw castError(field, value, 'java.lang.String');
      const parts = value.split(re);
      if (!preserveTrailing) while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
      doc.setFieldValue(targetField, parts);
    },
  };
}
