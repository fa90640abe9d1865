/**
 * ES DenseVectorFieldMapper: a `dense_vector` field's parameters and their defaults.
 */
import type { DenseVectorOptions, VectorElementType, VectorSimilarity } from './types.js';

/** The resolved options of a dense_vector field's (validated) parameters. */
export function denseVectorOptions(p: Readonly<Record<string, unknown>>): DenseVectorOptions {
  const indexed = p.index !== false;
  return {
    dims: p.dims === undefined ? null : Number(p.dims),
    elementType: (p.element_type as VectorElementType | undefined) ?? 'float',
    similarity: (p.similarity as VectorSimilarity | undefined) ?? (indexed ? 'cosine' : null),
    indexed,
  };
}
