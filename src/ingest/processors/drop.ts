/** ES DropProcessor: the document is not indexed; bulk reports it as a `noop`. */
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';

export function drop(_config: ProcessorConfig): ProcessorBody {
  return {
    kind: 'document',
    execute(doc) {
      doc.dropped = true;
    },
  };
}
