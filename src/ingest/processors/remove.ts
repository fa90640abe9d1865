/**
 * ES RemoveProcessor: removes `field` (one or a list, templated), or with `keep` every top-level
 * source field except those listed.
 */
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { compileTemplate } from '../template.js';

export function remove(config: ProcessorConfig): ProcessorBody {
  const hasField = config.has('field');
  const hasKeep = config.has('keep');
  if (hasField && hasKeep) throw config.error('keep', "Too many fields specified. Please specify either 'field' or 'keep', but not both.");
  const ignoreMissing = config.bool('ignore_missing', false);
  if (hasKeep) {
    const keep = config.stringOrList('keep').map(compileTemplate);
    return {
      kind: 'document',
      execute(doc) {
        const kept = new Set(keep.map((k) => k(doc).split('.')[0]));
        for (const key of Object.keys(doc.source)) if (!kept.has(key)) delete doc.source[key];
      },
    };
  }
  const fields = config.stringOrList('field').map(compileTemplate);
  return {
    kind: 'document',
    execute(doc) {
      for (const f of fields) {
        const path = f(doc);
        if (ignoreMissing && !doc.hasField(path)) continue;
        doc.removeField(path);
      }
    },
  };
}
