/**
 * ref-taat: the exact-BM25 typed-array term-at-a-time baseline of performance.md §3.2. It is the
 * ground truth for recall@10 and the speed anchor the engine is compared with, so it is written to be
 * as fast as its design allows (a slow baseline would flatter the engine):
 *
 * - CSR postings: offsets Uint32[T + 1], doc ids Uint32, tf Uint16, postings sorted by doc id;
 * - per-document k1·(1 − b + b·dl/avgdl) precomputed in a Float32Array (exact lengths, no lossy norms);
 * - one Float32Array accumulator of N entries plus a touched-doc list, so a query costs
 *   O(postings + touched) and never scans N;
 * - top-k by partial insertion selection over the touched list, resetting acc as it goes; ties go to
 *   the lower doc id.
 *
 * Scores are classic Lucene BM25 with the (k1 + 1) numerator factor, as §3.2 specifies (Lucene ≥ 8
 * drops that constant factor; the ranking is the same).
 */
import type { BenchDoc } from '../../src/cli/corpus/corpus.js';
import { TermDictionary } from './term-dictionary.js';

export interface SearchHit {
  id: string;
  score: number;
}

export interface RefTaatOptions {
  k1?: number;
  b?: number;
}

export interface RefTaat {
  readonly numDocs: number;
  readonly numTerms: number;
  readonly numPostings: number;
  /** Bytes held in typed arrays (postings, norms, weights, accumulator, scratch); excludes the dictionary and ids. */
  readonly typedArrayBytes: number;
  search(query: string, k: number): SearchHit[];
  /** Σ df over the query's known terms: the postings one search() streams. */
  postingsTouched(query: string): number;
}

export function buildRefTaat(docs: readonly BenchDoc[], options: RefTaatOptions = {}): RefTaat {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const N = docs.length;

  // Pass 1: whitespace tokens → term ids, into one growable Uint32Array (no per-doc arrays).
  const dict = new TermDictionary();
  const docStarts = new Uint32Array(N + 1);
  let tokens = new Uint32Array(Math.max(1024, N * 32));
  let nTokens = 0;
  for (let d = 0; d < N; d++) {
    const text = docs[d].text;
    const room = nTokens + TermDictionary.maxTokens(text);
    if (room > tokens.length) {
      const grown = new Uint32Array(Math.max(tokens.length * 2, room));
      grown.set(tokens.subarray(0, nTokens));
      tokens = grown;
    }
    nTokens = dict.scan(text, true, tokens, nTokens);
    docStarts[d + 1] = nTokens;
  }
  const T = dict.size;

  // Pass 2: document frequencies. lastDoc[t] = d + 1 marks "t already counted in doc d".
  const lastDoc = new Uint32Array(T);
  const offsets = new Uint32Array(T + 1);
  for (let d = 0; d < N; d++) {
    for (let i = docStarts[d]; i < docStarts[d + 1]; i++) {
      const t = tokens[i];
      if (lastDoc[t] !== d + 1) {
        lastDoc[t] = d + 1;
        offsets[t + 1]++;
      }
    }
  }
  for (let t = 0; t < T; t++) offsets[t + 1] += offsets[t];
  const P = offsets[T];

  // Pass 3: fill postings in doc order, so every list is sorted by doc id.
  const postDocs = new Uint32Array(P);
  const postTf = new Uint16Array(P);
  const cursor = offsets.slice(0, T);
  const lastPos = new Uint32Array(T);
  lastDoc.fill(0);
  for (let d = 0; d < N; d++) {
    for (let i = docStarts[d]; i < docStarts[d + 1]; i++) {
      const t = tokens[i];
      if (lastDoc[t] !== d + 1) {
        lastDoc[t] = d + 1;
        const p = cursor[t]++;
        postDocs[p] = d;
        postTf[p] = 1;
        lastPos[t] = p;
      } else if (postTf[lastPos[t]] < 0xffff) {
        postTf[lastPos[t]]++; // saturate rather than wrap: a 65k-repeat term is not a BM25 case worth exactness
      }
    }
  }

  const avgdl = N > 0 ? nTokens / N : 0;
  const norm = new Float32Array(N);
  for (let d = 0; d < N; d++) {
    const dl = docStarts[d + 1] - docStarts[d];
    norm[d] = k1 * (1 - b + (avgdl > 0 ? (b * dl) / avgdl : 0));
  }
  // idf · (k1 + 1) per term, so the inner loop does one multiply-divide per posting.
  const weight = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    const df = offsets[t + 1] - offsets[t];
    weight[t] = Math.log(1 + (N - df + 0.5) / (df + 0.5)) * (k1 + 1);
  }
  const ids: string[] = new Array<string>(N);
  for (let d = 0; d < N; d++) ids[d] = docs[d].id;

  // Query-time scratch, allocated once. acc[d] === 0 means "untouched": every BM25 contribution is > 0.
  const acc = new Float32Array(N);
  const touched = new Uint32Array(N);
  let topDoc = new Uint32Array(16);
  let topScore = new Float32Array(16);
  let queryTerms = new Uint32Array(64);

  function lookupTerms(query: string): number {
    const room = TermDictionary.maxTokens(query);
    if (room > queryTerms.length) queryTerms = new Uint32Array(room);
    return dict.scan(query, false, queryTerms, 0);
  }

  function search(query: string, kRequested: number): SearchHit[] {
    // More hits than documents cannot exist; clamping keeps a huge k from sizing the scratch arrays.
    const k = Math.min(Math.floor(kRequested), N);
    const nq = lookupTerms(query);
    let nTouched = 0;
    for (let q = 0; q < nq; q++) {
      const t = queryTerms[q];
      const w = weight[t];
      const end = offsets[t + 1];
      for (let p = offsets[t]; p < end; p++) {
        const d = postDocs[p];
        const tf = postTf[p];
        const a = acc[d];
        if (a === 0) touched[nTouched++] = d;
        acc[d] = a + (w * tf) / (tf + norm[d]);
      }
    }
    if (k <= 0) {
      for (let i = 0; i < nTouched; i++) acc[touched[i]] = 0;
      return [];
    }
    if (topDoc.length < k) {
      topDoc = new Uint32Array(k);
      topScore = new Float32Array(k);
    }
    // Insertion into a sorted top-k: almost every touched doc fails the first comparison with the
    // current k-th score, so this is ~1 compare per touched doc.
    let size = 0;
    for (let i = 0; i < nTouched; i++) {
      const d = touched[i];
      const s = acc[d];
      acc[d] = 0;
      if (size === k) {
        const ls = topScore[k - 1];
        if (s < ls || (s === ls && d > topDoc[k - 1])) continue;
      } else {
        size++;
      }
      let j = size - 1;
      while (j > 0) {
        const ps = topScore[j - 1];
        if (ps > s || (ps === s && topDoc[j - 1] < d)) break;
        topScore[j] = ps;
        topDoc[j] = topDoc[j - 1];
        j--;
      }
      topScore[j] = s;
      topDoc[j] = d;
    }
    const hits: SearchHit[] = new Array<SearchHit>(size);
    for (let i = 0; i < size; i++) hits[i] = { id: ids[topDoc[i]], score: topScore[i] };
    return hits;
  }

  function postingsTouched(query: string): number {
    const nq = lookupTerms(query);
    let total = 0;
    for (let q = 0; q < nq; q++) total += offsets[queryTerms[q] + 1] - offsets[queryTerms[q]];
    return total;
  }

  const typedArrayBytes =
    offsets.byteLength + postDocs.byteLength + postTf.byteLength + norm.byteLength + weight.byteLength +
    acc.byteLength + touched.byteLength;

  return { numDocs: N, numTerms: T, numPostings: P, typedArrayBytes, search, postingsTouched };
}
