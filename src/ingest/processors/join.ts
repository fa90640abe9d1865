/** ES JoinProcessor: joins the elements of a list field with `separator` into one string. */
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { castError, javaToString } from './field-access.js';

export function join(config: ProcessorConfig): ProcessorBody {
  const field = config.string('field');
  const separator = config.string('separator');
  const targetField = config.string('target_field', field);
  return {
    kind: 'document',
    execute(doc) {
      const value = doc.getFieldValue(field);
      if (!Array.isArray(value)) throw castError(field, value, 'java.util.List');
      doc.setFieldValue(targetField, value.map(javaToString).join(separator));
    },
  };
}
