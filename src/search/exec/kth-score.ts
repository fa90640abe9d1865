/**
 * The k-th best of a stream of scores, as a pruning bar for MaxScore. Every doc in the top-k heap
 * and every live candidate has a final score ≥ its float32-rounded partial score (term scores are
 * positive, sums only grow, rounding is monotone), so once k distinct docs are known to score ≥ F,
 * a doc scoring < F cannot be in the top k, whatever its position in write order.
 *
 * The bar returned is the largest float32 below F, so "score ≤ bar" means "score < F": the same
 * `≤` test the heap threshold uses. One selection per thread (search is synchronous).
 */
import type { TopScoreDocs } from './top-docs.js';

let heap = new Float64Array(16);
let size = 0;
let k = 0;
const float32 = new Float32Array(1);
const float32Bits = new Uint32Array(float32.buffer);

/** Starts a selection of the k = top.capacity best, seeded with the heap's hits. */
export function startSelection(top: TopScoreDocs): void {
  k = top.capacity;
  if (heap.length < k) heap = new Float64Array(k);
  size = 0;
  for (let i = 0; i < top.size; i++) selectScore(top.scores[i]);
}

/** Adds the (partial) score of one doc not added before. */
export function selectScore(v: number): void {
  const h = heap;
  let i: number;
  if (size < k) {
    i = size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent] <= v) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = v;
    return;
  }
  if (v <= h[0]) return;
  i = 0;
  for (;;) {
    let m = 2 * i + 1;
    if (m >= size) break;
    if (m + 1 < size && h[m + 1] < h[m]) m++;
    if (h[m] >= v) break;
    h[i] = h[m];
    i = m;
  }
  h[i] = v;
}

/** The pruning bar (see above), or −Infinity while fewer than k scores were added. */
export function selectedBar(): number {
  if (size < k || k === 0) return -Infinity;
  float32[0] = heap[0];
  if (!(float32[0] > 0)) return -Infinity;
  float32Bits[0]--;
  return float32[0];
}
