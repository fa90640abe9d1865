/**
 * Reading one document's doc values for aggregations: keyword ordinals (distinct, ascending) or
 * numbers (ascending, duplicates kept, as Lucene's sorted-numeric doc values).
 */
import type { Segment, SegmentField } from '../../index/index.js';
import type { ValuesSource } from './exec-aggs.js';

export interface SegmentValues {
  readonly offsets: Uint32Array | null;
  readonly numbers: Float64Array | null;
  readonly ords: Uint32Array | null;
  readonly field: SegmentField | null;
}

const NONE: SegmentValues = { offsets: null, numbers: null, ords: null, field: null };

export function segmentValues(segment: Segment, source: ValuesSource): SegmentValues {
  if (source.type === 'unmapped') return NONE;
  const field = segment.fields.get(source.field);
  if (!field || !field.docValueOffsets) return NONE;
  return { offsets: field.docValueOffsets, numbers: field.docValueNumbers, ords: field.docValueOrds, field };
}
