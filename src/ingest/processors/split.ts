/**
 * ES SplitProcessor: splits a string field on a regular expression (`separator`) into a list.
 * Like Java's String.split, trailing empty strings are dropped unless `preserve_trailing`. The
 * separator runs as an automaton (common/pattern/splitter.ts), so a pipeline's pattern cannot
 * stall the server on a long value; non-regular Java syntax (anchors, lookaround, back-references)
 * is refused when the pipeline is stored.
 */
import { EsError, IllegalArgumentError } from '../../errors/index.js';
import { Splitter } from '../../common/pattern/index.js';
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { castError, readField } from './field-access.js';

export function split(config: ProcessorConfig): ProcessorBody {
  const field = config.string('field');
  const separator = config.string('separator');
  let splitter: Splitter;
  try {
    splitter = new Splitter(separator);
  } catch (e) {
    if (!(e instanceof EsError)) throw e;
    throw config.error('separator', `invalid regular expression [${separator.slice(0, 100)}]: ${e.message}`);
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
      const parts = splitter.split(value);
      if (!preserveTrailing) while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
      doc.setFieldValue(targetField, parts);
    },
  };
}
