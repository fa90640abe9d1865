/**
 * The in-memory form a segment is written from: per-segment columns plus, per field, the term
 * dictionary in code-point order and postings in CSR layout. Both the inverter (new documents)
 * and the merger (existing segments) produce it; the writer derives hashes, blocks and points.
 */
import type { StringTable } from './bytes.js';
import type { FieldStructure } from './format.js';
import type { CompletionEntries } from './completion-entries.js';
import type { StoredFieldsSections } from './stored-fields.js';
import type { VectorValues } from './vector-sections.js';

export interface FieldInput {
  readonly name: string;
  readonly type: string;
  readonly structure: FieldStructure;
  readonly indexed: boolean;
  /** Sorted terms (text/keyword), in code-point order. */
  readonly terms: StringTable | null;
  readonly termCount: number;
  /** postingsStart[t]..postingsStart[t+1] are term t's postings (CSR). */
  readonly postingsStart: Uint32Array | null;
  readonly docs: Uint32Array | null;
  readonly freqs: Uint32Array | null;
  /** Positions of all postings, in posting order; posting i has freqs[i] of them (any width that holds them). */
  readonly positions: Uint8Array | Uint16Array | Uint32Array | null;
  readonly norms: Uint8Array | null;
  readonly docsWithField: Uint32Array;
  /** Doc values: values of doc d are [docValueOffsets[d], docValueOffsets[d+1]). */
  readonly docValueOffsets: Uint32Array | null;
  readonly docValueNumbers: Float64Array | null;
  readonly docValueOrds: Uint32Array | null;
  /** `completion` fields only: the entries of each term (completion-entries.ts). */
  readonly completion?: CompletionEntries;
  /** `dense_vector` fields only: the flat vectors (vector-sections.ts). */
  readonly vectors?: VectorValues;
}

export interface SegmentInput {
  readonly maxDoc: number;
  readonly ids: StringTable;
  readonly seqNo: Float64Array;
  readonly version: Float64Array;
  readonly indexOrder: Float64Array;
  /** Stored `_source`, already compressed in blocks (stored-fields.ts). */
  readonly sources: StoredFieldsSections;
  readonly fields: readonly FieldInput[];
}
