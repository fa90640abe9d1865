/**
 * dense_vector storage: a field's vectors as one flat array per segment, doc d's at
 * [d × dims, (d + 1) × dims) (zeros where the doc has none: DocsWithField says which), and for
 * cosine fields each doc's Euclidean norm, so cosine scoring is one dot product per doc. Lucene keeps
 * the same flat vectors beside its HNSW graph (Lucene99FlatVectorsFormat); this server always
 * scores exactly, so the flat arrays are all there is. Built from new documents (segment-builder.ts),
 * copied for live docs by merges (segment-merger.ts), written and opened here.
 */
import { Section } from './format.js';
import { sectionView, type SectionDirectory, type SectionSink } from './sab-layout.js';

/** A field's vectors, as the writer takes them and as a segment opens them. */
export interface VectorValues {
  readonly dims: number;
  /** element_type float: Float32Array; byte: Int8Array. Length maxDoc × dims. */
  readonly values: Float32Array | Int8Array;
  /** Each doc's Euclidean norm (0 where it has no vector): cosine fields only, else null. */
  readonly magnitudes: Float32Array | null;
}

export function writeVectorSections(w: SectionSink, ord: number, v: VectorValues): void {
  w.add(v.values instanceof Int8Array ? Section.VectorInt8 : Section.VectorFloat32, ord, v.values);
  if (v.magnitudes !== null) w.add(Section.VectorMagnitude, ord, v.magnitudes);
}

/** The field's vectors, or null when the segment holds none for it (a non-vector field). */
export function readVectorSections(sab: SharedArrayBuffer | ArrayBuffer, dir: SectionDirectory, ord: number, dims: number | undefined): VectorValues | null {
  const values = sectionView(sab, dir, Float32Array, Section.VectorFloat32, ord) ?? sectionView(sab, dir, Int8Array, Section.VectorInt8, ord);
  if (values === null) return null;
  if (dims === undefined || dims < 1 || values.length !== dims * dir.info.maxDoc) throw new Error('corrupt segment: vector section does not match the field\'s dims');
  return { dims, values, magnitudes: sectionView(sab, dir, Float32Array, Section.VectorMagnitude, ord) };
}

/** Euclidean norm of `values[from, from + dims)`, as Lucene VectorUtil computes it (float sum, then sqrt). */
export function vectorMagnitude(values: Float32Array | Int8Array | readonly number[], from: number, dims: number): number {
  let sum = 0;
  for (let i = from; i < from + dims; i++) sum += values[i] * values[i];
  return Math.sqrt(sum);
}
