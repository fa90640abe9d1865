/** ES RenameProcessor: moves `field` to `target_field`; an existing target needs `override`. */
import { IllegalArgumentError } from '../../errors/index.js';
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';

export function rename(config: ProcessorConfig): ProcessorBody {
  const field = config.string('field');
  const targetField = config.string('target_field');
  const ignoreMissing = config.bool('ignore_missing', false);
  const override = config.bool('override', false);
  return {
    kind: 'document',
    execute(doc) {
      if (!doc.hasField(field)) {
        if (ignoreMissing) return;
        throw new IllegalArgumentError(`field [${field}] doesn't exist`);
      }
      if (doc.hasField(targetField) && !override) throw new IllegalArgumentError(`field [${targetField}] already exists`);
      const value = doc.getFieldValue(field);
      doc.removeField(field);
      try {
        doc.setFieldValue(targetField, value);
      } catch (e) {
        // ES puts the value back when the target cannot be written, so a failure changes nothing.
        doc.setFieldValue(field, value);
        throw e;
      }
    },
  };
}
