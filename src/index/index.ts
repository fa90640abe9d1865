/**
 * index/ — what an index is made of: mappings (parse, merge, render, dynamic mapping, document
 * parsing), settings, and the segment format over SharedArrayBuffers (writer, reader, builder,
 * merger, live docs). Imports analysis/, common/, errors/ only. Invariants: a segment is immutable
 * once written; its bytes are the same in memory and on disk; doc ids follow write order.
 */
export * from './mapping/index.js';
export * from './settings.js';
export * from './similarity.js';
export * from './text-analysis.js';
export * from './segment/format.js';
export * from './segment/norms.js';
export * from './segment/live-docs.js';
export * from './segment/segment-input.js';
export * from './segment/segment-writer.js';
export * from './segment/segment-reader.js';
export * from './segment/id-lookup.js';
export * from './segment/automaton-terms.js';
export * from './segment/segment-builder.js';
export * from './segment/segment-merger.js';
export * from './segment/feature-weights.js';
export { accumulateLinear, decodeFeatureBlock, decodeFeatureTerm, type FeaturePostings, type TermPostingArrays } from './segment/feature-postings.js';
export { decodeBlockDocs, decodeBlockDocsTail, decodeBlockFreqs, decodePostingsBlock, decodeSubBlockFor, findBlockDocs, freqAt, markBlockDocs, type PackedPostings } from './segment/packed-postings.js';
export { forEachTermBlock, readTermPostings, type TermPostings } from './segment/term-postings.js';
export * from './segment/segment-memory.js';
export { ScratchPool, withScratchPool } from './segment/scratch-pool.js';
export { INDEX_CODECS, type IndexCodec } from './segment/source-codec.js';
export { storedFieldsCacheStats, clearStoredFieldsCache } from './segment/stored-fields-cache.js';
export { compareCodePoints } from './segment/bytes.js';
export * from './analyze.js';
export { type VectorValues, vectorMagnitude } from './segment/vector-sections.js';
