/** ES AppendProcessor: appends `value` (templated, one value or a list) to `field`, making it a list. */
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { compileTemplate, compileValue } from '../template.js';

export function append(config: ProcessorConfig): ProcessorBody {
  const field = compileTemplate(config.string('field'));
  const value = compileValue(config.object('value'));
  const allowDuplicates = config.bool('allow_duplicates', true);
  config.optionalString('media_type');
  return {
    kind: 'document',
    execute(doc) {
      doc.setFieldValue(field(doc), value(doc), true, allowDuplicates);
    },
  };
}
