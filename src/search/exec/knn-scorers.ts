/**
 * The two kNN scorers of one segment:
 * - `KnnExactScorer` walks every document with a vector (the field's DocsWithField bitset), leapfrogs
 *   with the filter's scorer, and scores each by vector similarity (vector-similarity.ts), skipping
 *   those under the `similarity` threshold: the exact (brute force) search the pre-phase runs.
 * - `KnnScoreDocScorer` matches the global top k the pre-phase found (ES KnnScoreDocQuery): it finds
 *   them among the segment's documents with a vector by their index-wide write order, so the
 *   answer does not depend on which segment or shard holds a document, nor on merges since.
 */
import type { Segment, SegmentField } from '../../index/index.js';
import type { KnnExactExec, KnnScoreDocExec } from '../plan/exec-nodes.js';
import { nextSetBit } from './doc-set.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';
import { queryMagnitude, vectorScore } from './vector-similarity.js';

export class KnnExactScorer extends Scorer {
  private current = 0;
  private readonly qMagnitude: number;

  constructor(private readonly field: SegmentField, private readonly maxDoc: number, private readonly exec: KnnExactExec, private readonly filter: Scorer | null) {
    super();
    this.qMagnitude = exec.similarity === 'cosine' ? queryMagnitude(exec.vector) : 1;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    const { field, maxDoc, exec, filter } = this;
    const vectors = field.vectors!;
    const { values, magnitudes, dims } = vectors;
    const words = field.docsWithField;
    let doc = nextSetBit(words, target, maxDoc);
    while (doc !== NO_MORE_DOCS) {
      if (filter !== null) {
        const f = filter.doc < doc ? filter.advance(doc) : filter.doc;
        if (f === NO_MORE_DOCS) break;
        if (f !== doc) {
          doc = nextSetBit(words, f, maxDoc);
          continue;
        }
      }
      const score = vectorScore(exec.similarity, exec.elementType, exec.vector, values, doc, dims, this.qMagnitude, magnitudes === null ? 1 : magnitudes[doc]);
      if (score >= exec.minScore) {
        this.current = score;
        return (this.doc = doc);
      }
      doc = nextSetBit(words, doc + 1, maxDoc);
    }
    return (this.doc = NO_MORE_DOCS);
  }

  score(): number {
    return this.current;
  }

  maxScore(): number {
    return Infinity;
  }

  cost(): number {
    return this.maxDoc;
  }
}

/** The exact scorer, or null when the segment has no vector in the field (or the filter matches nothing). */
export function knnExactScorer(segment: Segment, exec: KnnExactExec, buildFilter: () => Scorer | null): Scorer | null {
  const field = segment.fields.get(exec.field);
  if (field === undefined || field.vectors === null) return null;
  const filter = exec.filter === null ? null : buildFilter();
  if (exec.filter !== null && filter === null) return null;
  return new KnnExactScorer(field, segment.maxDoc, exec, filter);
}

/** Index of `order` in the ascending `orders`, or -1. */
function findOrder(orders: Float64Array, order: number): number {
  let lo = 0;
  let hi = orders.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = orders[mid];
    if (v < order) lo = mid + 1;
    else if (v > order) hi = mid - 1;
    else return mid;
  }
  return -1;
}

export class KnnScoreDocScorer extends Scorer {
  private at = -1;

  constructor(private readonly docs: Int32Array, private readonly scores: Float32Array) {
    super();
  }

  nextDoc(): number {
    this.at++;
    return (this.doc = this.at < this.docs.length ? this.docs[this.at] : NO_MORE_DOCS);
  }

  advance(target: number): number {
    while (this.at + 1 < this.docs.length && this.docs[this.at + 1] < target) this.at++;
    return this.nextDoc();
  }

  score(): number {
    return this.scores[this.at];
  }

  maxScore(): number {
    let max = 0;
    for (let i = 0; i < this.scores.length; i++) if (this.scores[i] > max) max = this.scores[i];
    return max;
  }

  cost(): number {
    return this.docs.length;
  }
}

/** The segment's documents among the top k, in doc order, with their boosted scores; null when none is here. */
export function knnScoreDocScorer(segment: Segment, exec: KnnScoreDocExec): Scorer | null {
  const field = segment.fields.get(exec.field);
  const { orders } = exec;
  if (field === undefined || field.vectors === null || orders.length === 0) return null;
  const first = orders[0];
  const last = orders[orders.length - 1];
  const docs: number[] = [];
  const scores: number[] = [];
  const words = field.docsWithField;
  const maxDoc = segment.maxDoc;
  for (let doc = nextSetBit(words, 0, maxDoc); doc !== NO_MORE_DOCS; doc = nextSetBit(words, doc + 1, maxDoc)) {
    const order = segment.indexOrder.get(doc);
    if (order < first || order > last) continue;
    const i = findOrder(orders, order);
    if (i < 0) continue;
    docs.push(doc);
    // ES KnnScoreDocQuery: the DFS score times the query's boost, in float.
    scores.push(Math.fround(exec.scores[i] * exec.boost));
  }
  return docs.length === 0 ? null : new KnnScoreDocScorer(Int32Array.from(docs), Float32Array.from(scores));
}
