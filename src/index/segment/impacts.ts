/**
 * Per-block impacts (Lucene's `Impacts`): the (freq, norm) pairs that can produce a block's best
 * BM25 score for any collection statistics. Score grows with freq and falls with the encoded
 * length, so only the Pareto front matters; bounding a block with its max freq and min norm taken
 * separately (which may come from different postings) overestimated short-text scores by up to
 * a third and kept terms essential that could not compete.
 */
import { IMPACTS_PER_BLOCK } from './format.js';

/** Max freq per encoded norm within the current block; reset through `usedNorms`. */
const maxFreqByNorm = new Uint32Array(256);
const usedNorms = new Uint8Array(256);

/**
 * Writes the impacts of postings [from, to) into slots [block × IMPACTS_PER_BLOCK, …) of
 * `outFreqs` / `outNorms`, in ascending norm order (unused slots keep freq 0).
 */
export function writeBlockImpacts(
  docs: Uint32Array, freqs: Uint32Array | null, norms: Uint8Array, from: number, to: number,
  block: number, outFreqs: Uint32Array, outNorms: Uint8Array,
): void {
  let used = 0;
  for (let i = from; i < to; i++) {
    const n = norms[docs[i]];
    const f = freqs === null ? 1 : freqs[i];
    if (maxFreqByNorm[n] === 0) usedNorms[used++] = n;
    if (f > maxFreqByNorm[n]) maxFreqByNorm[n] = f;
  }
  usedNorms.subarray(0, used).sort();
  // Pareto front: walking norms upwards (longer docs), keep a pair only if its freq beats every
  // shorter one's.
  const base = block * IMPACTS_PER_BLOCK;
  let kept = 0;
  let best = 0;
  for (let u = 0; u < used; u++) {
    const n = usedNorms[u];
    const f = maxFreqByNorm[n];
    maxFreqByNorm[n] = 0;
    if (f <= best) continue;
    best = f;
    if (kept < IMPACTS_PER_BLOCK) {
      outNorms[base + kept] = n;
      kept++;
    }
    // Past the last slot, the last pair absorbs the longer ones: its norm (the smallest of them)
    // with the highest freq bounds them all.
    outFreqs[base + kept - 1] = f;
  }
}
