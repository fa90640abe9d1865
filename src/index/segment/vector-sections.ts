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
import { getBit } from './live-docs.js';

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

/**
 * The flat arrays of a field's vectors: `vectors[i]` is doc `docs[i]`'s (docs ascending, each
 * vector `dims` long); magnitudes (each doc's norm, `norms[i]`) only when `withMagnitudes`.
 */
export function flatVectors(
  maxDoc: number, dims: number, docs: ArrayLike<number>, vectors: ReadonlyArray<Float32Array | Int8Array>, norms: ArrayLike<number>, withMagnitudes: boolean,
): VectorValues {
  const byte = vectors.length > 0 && vectors[0] instanceof Int8Array;
  const values = byte ? new Int8Array(maxDoc * dims) : new Float32Array(maxDoc * dims);
  const magnitudes = withMagnitudes ? new Float32Array(maxDoc) : null;
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i];
    if (v.length !== dims || (v instanceof Int8Array) !== byte) throw new Error(`dense_vector values of one field differ in dims or element type (${v.length} vs ${dims})`);
    values.set(v, docs[i] * dims);
    if (magnitudes !== null) magnitudes[docs[i]] = norms[i];
  }
  return { dims, values, magnitudes };
}

/**
 * A merge's vectors: each source's live docs' vectors (and magnitudes) copied to their new doc ids.
 * Every source has the field's dims (the mapping fixes them once set) and its element type.
 */
export function mergeVectors(parts: ReadonlyArray<{ readonly field: { readonly vectors: VectorValues | null; readonly docsWithField: Uint32Array }; readonly docMap: Int32Array }>, maxDoc: number): VectorValues {
  const first = parts.find((p) => p.field.vectors !== null)?.field.vectors;
  if (!first) throw new Error('corrupt segment: dense_vector field without vector sections');
  const dims = first.dims;
  const byte = first.values instanceof Int8Array;
  const values = byte ? new Int8Array(maxDoc * dims) : new Float32Array(maxDoc * dims);
  const magnitudes = parts.some((p) => p.field.vectors?.magnitudes) ? new Float32Array(maxDoc) : null;
  for (const { field, docMap } of parts) {
    const v = field.vectors;
    if (v === null) continue;
    if (v.dims !== dims || (v.values instanceof Int8Array) !== byte) throw new Error(`dense_vector segments to merge differ in dims or element type (${v.dims} vs ${dims})`);
    for (let d = 0; d < docMap.length; d++) {
      const nd = docMap[d];
      if (nd < 0 || !getBit(field.docsWithField, d)) continue;
      values.set(v.values.subarray(d * dims, (d + 1) * dims), nd * dims);
      if (magnitudes !== null) magnitudes[nd] = v.magnitudes !== null ? v.magnitudes[d] : vectorMagnitude(v.values, d * dims, dims);
    }
  }
  return { dims, values, magnitudes };
}

/** Euclidean norm of `values[from, from + dims)` as the document parser computes it (a float sum, then sqrt). */
export function vectorMagnitude(values: Float32Array | Int8Array, from: number, dims: number): number {
  let sum = 0;
  for (let i = from; i < from + dims; i++) sum = Math.fround(sum + Math.fround(values[i] * values[i]));
  return Math.fround(Math.sqrt(sum));
}
