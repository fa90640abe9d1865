/**
 * The `knn` query node → Exec for one index, with ES's checks in its order (KnnVectorQueryBuilder
 * .doToQuery, DenseVectorFieldType.createKnnQuery): an unmapped field matches nothing (ES 8.14+); a
 * field of another type, an unindexed field, a query vector of other dimensions, byte values out of
 * range and non-unit vectors for dot_product fail as the shard's query_shard_exception.
 *
 * The pre-phase plans the node as `knn_exact` (every candidate, scored); once it has the global top
 * k, the query phase plans it as `knn_score_doc` (those documents with their scores × boost).
 */
import { IllegalArgumentError, QueryShardError, previewInput } from '../../errors/index.js';
import { javaFloatToString } from '../../common/float-json.js';
import type { KnnQuery, QueryNode } from '../../dsl/index.js';
import type { DenseVectorOptions } from '../../index/index.js';
import { thresholdScore } from '../exec/vector-similarity.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';

/** ES DenseVectorFieldMapper.EPS: how far from 1 a squared magnitude may be for a unit vector (as document parsing checks it). */
const UNIT_EPS = Math.fround(1e-4);

function shardError(ctx: PlanContext, reason: string): QueryShardError {
  return new QueryShardError(`failed to create query: ${reason}`, ctx.index, new IllegalArgumentError(reason));
}

/** ElementType.appendErrorElements: the first five values, Java's float or byte spelling. */
function preview(vector: readonly number[], bytes: boolean): string {
  const shown = vector.slice(0, 5).map((v) => (bytes ? String(v) : javaFloatToString(v)));
  return ` Preview of invalid vector: [${shown.join(', ')}${vector.length >= 5 ? ', ...' : ''}]`;
}

/** The query vector checked against the field (createKnnQuery's order), as the values to score with. */
function checkedVector(ctx: PlanContext, node: KnnQuery, options: DenseVectorOptions): Float32Array {
  const v = node.queryVector;
  const byte = options.elementType === 'byte';
  const checkDims = () => {
    if (options.dims !== null && options.dims !== v.length) {
      throw shardError(ctx, `The query vector has a different number of dimensions [${v.length}] than the document vectors [${options.dims}].`);
    }
  };
  const bounds = (type: string) => {
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i])) {
        throw shardError(ctx, `element_type [${type}] vectors do not support ${Number.isNaN(v[i]) ? 'NaN' : 'infinite'} values but found [${javaFloatToString(v[i])}] at dim [${i}];${preview(v, false)}`);
      }
      if (!byte) continue;
      if (v[i] % 1 !== 0) {
        throw shardError(ctx, `element_type [byte] vectors only support non-decimal values but found decimal value [${javaFloatToString(v[i])}] at dim [${i}];${preview(v, false)}`);
      }
      if (v[i] < -128 || v[i] > 127) {
        throw shardError(ctx, `element_type [byte] vectors only support integers between [-128, 127] but found [${javaFloatToString(v[i])}] at dim [${i}];${preview(v, false)}`);
      }
    }
  };
  // A byte field converts the vector to bytes (VectorData.asByteVector) before checking its dimensions.
  if (byte) bounds('byte');
  checkDims();
  if (!byte) bounds('float');
  let squared = 0;
  for (const x of v) squared = Math.fround(squared + Math.fround(x * x));
  if (options.similarity === 'dot_product' && !byte && Math.abs(Math.fround(squared - 1)) > UNIT_EPS) {
    throw shardError(ctx, `The [dot_product] similarity can only be used with unit-length vectors.${preview(v, byte)}`);
  }
  if (options.similarity === 'cosine' && Math.sqrt(squared) === 0) {
    throw shardError(ctx, `The [cosine] similarity does not support vectors with zero magnitude.${preview(v, byte)}`);
  }
  return Float32Array.from(v);
}

export function knnQuery(ctx: PlanContext, node: KnnQuery, boost: number, planFilter: (q: QueryNode) => Exec): Exec {
  if (node.matches === null) {
    throw new IllegalArgumentError('[knn] queries outside a search\'s [query] (and its retrievers) are not supported by this server yet');
  }
  const field = ctx.mapping.fields.get(node.field);
  if (field === undefined) return MATCH_NONE;
  if (field.type !== 'dense_vector' || field.vector === null) throw shardError(ctx, '[knn] queries are only supported on [dense_vector] fields');
  const options = field.vector;
  if (!options.indexed) throw shardError(ctx, `to perform knn search on field [${previewInput(node.field)}], its mapping must have [index] set to [true]`);
  // Either form holds this search's own vector or matches: the plan is not kept for another search.
  ctx.uncacheable?.();
  if (node.matches === 'candidates') {
    // Checked (and copied to float32) here only: the query phase's form follows this one's plan.
    const vector = checkedVector(ctx, node, options);
    const similarity = options.similarity ?? 'cosine';
    const filter = node.filter.length === 0 ? null
      : planFilter({ kind: 'bool', must: [], should: [], filter: node.filter, mustNot: [], minimumShouldMatch: null, boost: 1, name: null });
    return {
      kind: 'knn_exact', field: node.field, vector, similarity, elementType: options.elementType, filter,
      minScore: node.similarity === null ? -Infinity : thresholdScore(similarity, options.elementType, node.similarity, vector.length),
    };
  }
  const found = node.matches.get(ctx.index.uuid);
  if (found === undefined || found.orders.length === 0) return MATCH_NONE;
  return { kind: 'knn_score_doc', field: node.field, orders: found.orders, scores: found.scores, boost };
}
