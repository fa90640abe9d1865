/** ES FailProcessor: fails the document with a templated `message` (fail_processor_exception, 500). */
import { FailProcessorError } from '../../errors/index.js';
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { compileTemplate } from '../template.js';

export function fail(config: ProcessorConfig): ProcessorBody {
  const message = compileTemplate(config.string('message'));
  return {
    kind: 'document',
    execute(doc) {
      throw new FailProcessorError(message(doc));
    },
  };
}
