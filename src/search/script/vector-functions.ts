/**
 * ES's vector functions for scripts (VectorScoreScriptUtils over a KnnDenseVector): a document's
 * dense_vector against the query vector, in float arithmetic as Lucene's VectorUtil sums (one
 * accumulator here; Lucene's unrolled and vectorized sums may differ in the last bits of large
 * vectors). Float cosine: dot(doc, normalized query) / the doc's stored magnitude; byte fields:
 * integer dot products and distances, cosine over both magnitudes.
 */
import type { ScriptExpr } from '../../dsl/index.js';
import { getBit, type SegmentField } from '../../index/index.js';

/** DenseVectorFunction.setNextVector's refusal. */
export const MISSING_VECTOR = 'A document doesn\'t have a value for a vector field!';

type VectorExpr = Extract<ScriptExpr, { k: 'vector' }>;

/** The function's value for `doc`, or null when the document has no vector. */
export function vectorFunctionValue(e: VectorExpr, field: SegmentField | undefined, doc: number): number | null {
  const vectors = field?.vectors;
  if (!vectors || !getBit(field.docsWithField, doc)) return null;
  const q = e.query;
  const dims = vectors.dims;
  const v = vectors.values;
  const from = doc * dims;
  if (e.byte) {
    let acc = 0;
    for (let i = 0; i < dims; i++) {
      const d = v[from + i] - q[i];
      if (e.fn === 'l1norm') acc += Math.abs(d);
      else if (e.fn === 'l2norm') acc += d * d;
      else acc += v[from + i] * q[i];
    }
    if (e.fn === 'l2norm') return Math.fround(Math.sqrt(acc));
    if (e.fn === 'cosineSimilarity') return Math.fround(acc / Math.fround(e.qvMagnitude * docMagnitude(field, from, dims)));
    return acc;
  }
  let acc = 0;
  for (let i = 0; i < dims; i++) {
    if (e.fn === 'l1norm') acc = Math.fround(acc + Math.abs(Math.fround(v[from + i] - q[i])));
    else if (e.fn === 'l2norm') {
      const d = Math.fround(v[from + i] - q[i]);
      acc = Math.fround(acc + Math.fround(d * d));
    } else acc = Math.fround(acc + Math.fround(v[from + i] * q[i]));
  }
  if (e.fn === 'l2norm') return Math.fround(Math.sqrt(acc));
  if (e.fn === 'cosineSimilarity') return Math.fround(acc / docMagnitude(field, from, dims));
  return acc;
}

/** The doc vector's norm: stored for cosine fields, else summed as the document parser sums it. */
function docMagnitude(field: SegmentField, from: number, dims: number): number {
  const vectors = field.vectors!;
  if (vectors.magnitudes !== null) return vectors.magnitudes[from / dims];
  let sum = 0;
  for (let i = from; i < from + dims; i++) sum = Math.fround(sum + Math.fround(vectors.values[i] * vectors.values[i]));
  return Math.fround(Math.sqrt(sum));
}
