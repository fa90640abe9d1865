/**
 * `_source` text → the object the document parser walks, with the index's `sparse_vector` /
 * `rank_features` objects kept as their text (common/raw-json.ts) for the parser to read straight
 * from it (feature-text.ts): the coordinator's validation and the build worker's indexing both
 * parse every document, and these objects are most of an ELSER-like document.
 */
import { parseWithRawObjects, rawPaths } from '../../common/raw-json.js';
import { scanFeatureText } from './feature-text.js';
import { isFeatureType, type ObjectMapper, type RootMapping } from './types.js';

/** A document's source text → its root object, or null when the text must go to `JSON.parse` (which then decides). */
export type SourceParser = (text: string) => Record<string, unknown> | null;

/**
 * The feature fields reachable through object properties (never multi-fields, nor under a disabled
 * object, whose values the parser does not walk): the paths a document may hold them at.
 */
export function featureFieldPaths(mapping: RootMapping): string[] {
  const out: string[] = [];
  const walk = (obj: ObjectMapper, prefix: string): void => {
    for (const [name, m] of obj.properties) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      if (m.kind === 'object') {
        if (m.enabled) walk(m, path);
      } else if (isFeatureType(m.type)) out.push(path);
    }
  };
  walk(mapping, '');
  return out;
}

/** The parser for documents of `mapping`, or null when it has no feature field (JSON.parse serves). */
export function featureSourceParser(mapping: RootMapping): SourceParser | null {
  const paths = featureFieldPaths(mapping);
  if (paths.length === 0) return null;
  const raw = rawPaths(paths);
  return (text) => parseWithRawObjects(text, raw, scanFeatureText);
}
