/**
 * The deterministic ELSER/SPLADE-like sparse-vector corpus of performance.md §2.2. One mulberry32
 * stream drives everything, in this order: the Fisher–Yates permutation that assigns Zipf ranks to
 * token ids, then every document vector, then every query vector. Vectors are stored CSR in typed
 * arrays (200k docs are ~24M non-zeros; objects per non-zero would not fit the time budget).
 */
import { mulberry32 } from '../../src/common/prng.js';
import { zipfSampler } from '../../src/cli/corpus/zipf.js';
import { float32ToJson } from '../../src/common/float-json.js';

export interface SparseCorpusParams {
  docs: number;
  /** Token-id space (BERT WordPiece size by default). */
  vocab: number;
  s: number;
  docNnzMin: number;
  docNnzMax: number;
  queryNnzMin: number;
  queryNnzMax: number;
  queries: number;
  seed: number;
}

export const SPARSE_CORPUS_DEFAULTS: Readonly<SparseCorpusParams> = Object.freeze({
  docs: 200_000,
  vocab: 30_522,
  s: 0.9,
  docNnzMin: 60,
  docNnzMax: 180,
  queryNnzMin: 16,
  queryNnzMax: 48,
  queries: 300,
  seed: 7,
});

/** Vector i is tokens/weights[offsets[i] .. offsets[i + 1]), tokens in draw order (not sorted). */
export interface SparseVectors {
  offsets: Uint32Array;
  tokens: Uint32Array;
  weights: Float32Array;
}

export interface SparseCorpus {
  params: SparseCorpusParams;
  /** rankToToken[r] is the token id of Zipf rank r. */
  rankToToken: Uint32Array;
  docs: SparseVectors;
  queries: SparseVectors;
}

export function generateSparseCorpus(params: Partial<SparseCorpusParams> = {}): SparseCorpus {
  const p: SparseCorpusParams = { ...SPARSE_CORPUS_DEFAULTS, ...params };
  if (p.docNnzMax > p.vocab || p.queryNnzMax > p.vocab) throw new RangeError('sparse corpus: non-zeros exceed vocab');
  const random = mulberry32(p.seed);

  const rankToToken = new Uint32Array(p.vocab);
  for (let i = 0; i < p.vocab; i++) rankToToken[i] = i;
  for (let i = p.vocab - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = rankToToken[i];
    rankToToken[i] = rankToToken[j];
    rankToToken[j] = t;
  }

  const zipf = zipfSampler(p.vocab, p.s);
  // seen[token] === stamp marks tokens already in the current vector without clearing per vector.
  const seen = new Uint32Array(p.vocab);
  let stamp = 0;

  function drawVectors(count: number, nnzMin: number, nnzMax: number): SparseVectors {
    const offsets = new Uint32Array(count + 1);
    let capacity = Math.max(64, Math.ceil(count * ((nnzMin + nnzMax) / 2) * 1.05));
    let tokens = new Uint32Array(capacity);
    let weights = new Float32Array(capacity);
    let n = 0;
    const span = nnzMax - nnzMin + 1;
    for (let v = 0; v < count; v++) {
      const nnz = nnzMin + Math.floor(random() * span);
      if (n + nnz > capacity) {
        capacity *= 2;
        const t2 = new Uint32Array(capacity);
        t2.set(tokens);
        tokens = t2;
        const w2 = new Float32Array(capacity);
        w2.set(weights);
        weights = w2;
      }
      stamp++;
      let have = 0;
      while (have < nnz) {
        const token = rankToToken[zipf.sample(random)];
        if (seen[token] === stamp) continue;
        seen[token] = stamp;
        const u = random();
        tokens[n] = token;
        weights[n] = 0.05 + 2.95 * u * u; // Float32Array store rounds to float32, as specified
        n++;
        have++;
      }
      offsets[v + 1] = n;
    }
    return { offsets, tokens: tokens.slice(0, n), weights: weights.slice(0, n) };
  }

  const docs = drawVectors(p.docs, p.docNnzMin, p.docNnzMax);
  const queries = drawVectors(p.queries, p.queryNnzMin, p.queryNnzMax);
  return { params: p, rankToToken, docs, queries };
}

/** Vector `i` as a `sparse_vector` field value: `{ t<token id>: weight }`. */
export function sparseVectorObject(v: SparseVectors, i: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (let j = v.offsets[i]; j < v.offsets[i + 1]; j++) out[`t${v.tokens[j]}`] = v.weights[j];
  return out;
}

/**
 * `sparseVectorObject` as JSON text, written straight from the arrays (no object graph to
 * stringify), with each weight in float32's shortest form, as ES's inference results print
 * (0.5868585, not the float64 expansion 0.5868585109710693 of the same float32).
 */
export function sparseVectorJson(v: SparseVectors, i: number): string {
  let out = '{';
  for (let j = v.offsets[i]; j < v.offsets[i + 1]; j++) out += `${j === v.offsets[i] ? '' : ','}"t${v.tokens[j]}":${float32ToJson(v.weights[j])}`;
  return `${out}}`;
}
