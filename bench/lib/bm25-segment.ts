/**
 * The BM25 corpus's docs as one force-merged segment (a `text` field), built in-process the way a
 * shard gets it: builds of 20,000 docs merged into one. For the in-process search A/B benches,
 * which hand the same segment bytes to every tree they compare.
 */
import { InProcessIndex } from '../../test/support/engine-harness.js';
import type { Bm25Corpus } from '../../src/cli/corpus/corpus.js';
import { mergeSegments, writeSegment } from '../../src/index/index.js';

const BUILD_DOCS = 20_000;

export function oneSegmentSab(docs: Bm25Corpus['docs']): SharedArrayBuffer {
  const built = new InProcessIndex({ properties: { text: { type: 'text' } } });
  for (let i = 0; i < docs.length; i += BUILD_DOCS) {
    built.addSegment(docs.slice(i, i + BUILD_DOCS).map((d) => ({ id: d.id, json: JSON.stringify({ text: d.text }) })));
  }
  const sab = writeSegment(mergeSegments(built.segments.map((segment) => ({ segment, liveDocs: null }))));
  built.segments = [];
  return sab;
}
