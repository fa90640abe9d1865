/**
 * ES AbstractStringProcessor, behind lowercase, uppercase and trim: a string field, or a list of
 * strings, is transformed into `target_field` (default: the field itself).
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { ProcessorConfig } from '../config.js';
import { javaType } from '../ingest-document.js';
import type { ProcessorBody } from '../processor.js';
import { castError, readField } from './field-access.js';

export function stringProcessor(config: ProcessorConfig, transform: (s: string) => string): ProcessorBody {
  const field = config.string('field');
  const ignoreMissing = config.bool('ignore_missing', false);
  const targetField = config.string('target_field', field);
  return {
    kind: 'document',
    execute(doc) {
      const value = readField(doc, field, ignoreMissing);
      if (value === undefined || (value === null && ignoreMissing)) return;
      if (value === null) throw new IllegalArgumentError(`field [${field}] is null, cannot process it.`);
      if (Array.isArray(value)) {
        const out = value.map((v) => {
          if (typeof v !== 'string') {
            throw new IllegalArgumentError(`value [${v}] of type [${javaType(v)}] in list field [${field}] cannot be cast to [java.lang.String]`);
          }
          return transform(v);
        });
        doc.setFieldValue(targetField, out);
        return;
      }
      if (typeof value !== 'string') throw castError(field, value, 'java.lang.String');
      doc.setFieldValue(targetField, transform(value));
    },
  };
}
