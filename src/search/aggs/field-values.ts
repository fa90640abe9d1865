/**
 * Reading one document's doc values for aggregations: keyword ordinals (distinct, ascending) or
 * numbers (ascending, duplicates kept, as Lucene's sorted-numeric doc values).
 */
import type { Segment, SegmentField } from '../../index/index.js';
import type { ValuesSource } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';

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

/**
 * Visits the numeric doc values (ascending) of every doc of `docs`, segment by segment, as
 * `values[start..end)`; a doc without values is visited with the configured numeric `missing` as
 * its one value, or skipped when there is none (how ES's ValuesSource applies `missing`).
 */
export function forEachNumericValues(
  segments: readonly Segment[], docs: DocLists, source: ValuesSource,
  visit: (values: ArrayLike<number>, start: number, end: number, segment: number, doc: number) => void,
): void {
  const missing = typeof source.missing === 'number' ? Float64Array.of(source.missing) : null;
  for (let s = 0; s < segments.length; s++) {
    const list = docs[s];
    const { offsets, numbers } = segmentValues(segments[s], source);
    for (let i = 0; i < list.length; i++) {
      const doc = list[i];
      const start = offsets && numbers ? offsets[doc] : 0;
      const end = offsets && numbers ? offsets[doc + 1] : 0;
      if (start < end) visit(numbers!, start, end, s, doc);
      else if (missing !== null) visit(missing, 0, 1, s, doc);
    }
  }
}
