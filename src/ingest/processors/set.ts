/**
 * ES SetProcessor: `value` (templated) or `copy_from` (a deep copy of another field) into `field`;
 * `override: false` only fills a missing or null field; `ignore_empty_value` skips null and "".
 */
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { compileTemplate, compileValue } from '../template.js';

export function set(config: ProcessorConfig): ProcessorBody {
  const field = compileTemplate(config.string('field'));
  const copyFrom = config.optionalString('copy_from');
  let value: ReturnType<typeof compileValue> | null = null;
  if (copyFrom !== null) {
    if (config.has('value')) throw config.error('copy_from', 'cannot set both `copy_from` and `value` in the same processor');
  } else {
    value = compileValue(config.object('value'));
  }
  const override = config.bool('override', true);
  const ignoreEmptyValue = config.bool('ignore_empty_value', false);
  config.optionalString('media_type');
  return {
    kind: 'document',
    execute(doc) {
      const path = field(doc);
      if (!override && doc.hasField(path) && doc.getFieldValue(path) !== null) return;
      const v = copyFrom !== null ? structuredClone(doc.getFieldValue(copyFrom)) : value!(doc);
      if (ignoreEmptyValue && (v === null || v === '')) return;
      doc.setFieldValue(path, v);
    },
  };
}
