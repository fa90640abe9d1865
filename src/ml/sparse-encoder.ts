/**
 * The built-in sparse encoder `.sparse_model_2`: text → {token: weight} over the BERT-uncased
 * WordPiece vocabulary, the same function for documents and queries (relevance = dot product).
 * Pure and synchronous: a worker thread loads the model once and calls `encode` per text.
 *
 * Weights (sparse-encoder.md §5): the first 510 wordpieces are counted per token, inflections
 * folded onto one token; each token weighs `sat(tf) · √prior` — BM25's saturation and length
 * normalisation against a fixed length, and the IDF-like prior split over both sides so the dot
 * product carries it once. Expansion: every content word adds its distilled neighbours (GloVe
 * co-occurrence merged with WordNet relations), each scaled by how well it fits the text's own
 * context vector, so a word's senses are told apart by the words around it. A token's weight is
 * the largest of its contributions, never their sum, so a term is never counted twice.
 */
import { NO_NEIGHBOUR, SCORE_SCALE } from './model-artifact.js';
import type { SparseModel } from './sparse-model.js';
import { tokenize } from './wordpiece-tokenizer.js';

/** Term-frequency saturation and length normalisation: Lucene's BM25 defaults. */
const K1 = 1.2;
const B = 0.75;
/**
 * The length (in weighted wordpieces) term frequencies are normalised against: a typical passage,
 * ~200 wordpieces of which ~120 carry weight.
 */
const REFERENCE_LENGTH = 120;
/** Share of a source word's weight an expansion term can reach. */
const EXPANSION_SCALE = 0.15;
/** Part of an expansion's weight that does not depend on fitting the context. */
const CONTEXT_FREE_SHARE = 0.3;
/** Expansions weaker than this share of their source word's weight are noise: they are dropped. */
const MIN_EXPANSION_SHARE = 0.03;
/** Context fit assumed for a text with a single content word (no context to judge by). */
const LONE_WORD_CONTEXT = 0.5;
/** Most tokens one text yields (ELSER documents average ~100). */
const MAX_TOKENS = 256;
/**
 * Expansion terms a text may add: EXPANSION_BUDGET · √(content words). A text's topic is told by a
 * few dozen associations however long it is, so the budget grows slower than the text: a short
 * query gains a handful per word, a passage about one per word (ELSER: queries ~20–60 tokens,
 * documents ~100 and more).
 */
const EXPANSION_BUDGET = 12;

/** One encoded text: parallel arrays, tokens unique, every weight > 0, ordered by weight descending. */
export interface SparseVector {
  readonly tokens: readonly string[];
  readonly weights: Float32Array;
  /** The input had more than 512 wordpiece positions and was cut (ES `is_truncated`). */
  readonly isTruncated: boolean;
}

/** Per-thread scratch sized to the vocabulary: encoding allocates nothing per token. */
interface Scratch {
  readonly tf: Float32Array;
  readonly weight: Float32Array;
  /** 1 where a token occurred as a whole word (not only as a piece of a longer word). */
  readonly wholeWord: Uint8Array;
  readonly touched: Int32Array;
  /** Context fit per expansion candidate, valid where `fitStamp` equals this text's generation. */
  readonly fit: Float32Array;
  readonly fitStamp: Uint32Array;
  /** Expansion weights, for finding the budget's threshold. */
  readonly weights: Float32Array;
}

let scratch: Scratch | undefined;

function scratchFor(size: number, candidates: number): Scratch {
  if (scratch?.tf.length !== size || scratch.fit.length !== candidates) {
    scratch = {
      tf: new Float32Array(size), weight: new Float32Array(size), wholeWord: new Uint8Array(size), touched: new Int32Array(size),
      fit: new Float32Array(candidates), fitStamp: new Uint32Array(candidates), weights: new Float32Array(size),
    };
  }
  return scratch;
}

let generationCounter = 0;

/** A stamp no entry of `stamps` holds yet (wrapping clears them, once every 2³² texts). */
function nextGeneration(stamps: Uint32Array): number {
  generationCounter = (generationCounter + 1) >>> 0;
  if (generationCounter === 0) {
    stamps.fill(0);
    generationCounter = 1;
  }
  return generationCounter;
}

export function encode(model: SparseModel, text: string): SparseVector {
  const { prior, canonical, neighbours, scores, neighbourCount: k, dimensions: d } = model.artifact;
  const { tf, weight, wholeWord, touched, fit, fitStamp, weights: scratchWeights } = scratchFor(prior.length, model.artifact.candidates.length);
  const tokenized = tokenize(model.vocab, text);
  let touchedCount = 0;

  // 1. Term frequencies of the tokens that carry weight.
  for (const word of tokenized.words) {
    for (const piece of word.pieces) {
      const key = canonical[piece];
      if (prior[key] === 0) continue;
      if (tf[key] === 0) touched[touchedCount++] = key;
      tf[key]++;
      // Only a word that is one token is a content word: the first piece of a rare word ("ch" of
      // "chlorophyll") says nothing about the text's topic and must not be expanded.
      if (word.pieces.length === 1) wholeWord[key] = 1;
    }
  }

  // 2. Lexical weights, and the context vector: the weighted sum of the content words' vectors.
  // A text's length counts the pieces that carry weight, as BM25's counts indexed terms: stop
  // words and punctuation do not make a text "longer".
  let length = 0;
  for (let t = 0; t < touchedCount; t++) length += tf[touched[t]];
  const lengthNorm = K1 * (1 - B + (B * length) / REFERENCE_LENGTH);
  const centroid = new Float64Array(d);
  let contentWords = 0;
  for (let t = 0; t < touchedCount; t++) {
    const key = touched[t];
    const w = ((tf[key] * (K1 + 1)) / (tf[key] + lengthNorm)) * Math.sqrt(prior[key]);
    weight[key] = w;
    const c = model.candidateIndex[key];
    if (c < 0 || wholeWord[key] === 0) continue;
    contentWords++;
    for (let x = 0, at = c * d; x < d; x++, at++) centroid[x] += w * model.vectors[at];
  }
  let norm = 0;
  for (let x = 0; x < d; x++) norm += centroid[x] * centroid[x];
  const inverseNorm = norm > 0 ? 1 / Math.sqrt(norm) : 0;

  // 3. Expansion from each content word (only the lexical tokens are sources, not other expansions).
  // A neighbour's fit to the context is computed once per text, and not at all when even a perfect
  // fit could not make the expansion count.
  const { candidates } = model.artifact;
  const { vectors, candidateIndex } = model;
  const generation = nextGeneration(fitStamp);
  const lexicalCount = touchedCount;
  for (let t = 0; t < lexicalCount; t++) {
    const key = touched[t];
    const c = candidateIndex[key];
    if (c < 0 || wholeWord[key] === 0) continue;
    const source = weight[key] * EXPANSION_SCALE;
    const floor = MIN_EXPANSION_SHARE * weight[key];
    for (let r = 0; r < k; r++) {
      const n = neighbours[c * k + r];
      if (n === NO_NEIGHBOUR) break;
      const strength = source * (scores[c * k + r] / SCORE_SCALE);
      const target = candidates[n];
      if (strength <= floor || strength <= weight[target]) continue;
      let f = LONE_WORD_CONTEXT;
      if (contentWords > 1) {
        if (fitStamp[n] !== generation) {
          let dot = 0;
          for (let x = 0, at = n * d; x < d; x++, at++) dot += vectors[at] * centroid[x];
          fit[n] = Math.max(0, dot * inverseNorm);
          fitStamp[n] = generation;
        }
        f = fit[n];
      }
      const e = strength * (CONTEXT_FREE_SHARE + (1 - CONTEXT_FREE_SHARE) * f);
      if (e <= floor) continue;
      if (weight[target] === 0) touched[touchedCount++] = target;
      if (e > weight[target]) weight[target] = e;
    }
  }

  // 4. Every lexical token and the strongest expansions within budget, heaviest first (ties by
  // token id, so output is deterministic). The budget's weight threshold is found with a native
  // numeric sort of the weights alone: a comparator sort of every expansion cost more than encoding.
  const budget = Math.round(EXPANSION_BUDGET * Math.sqrt(contentWords));
  const expansionCount = touchedCount - lexicalCount;
  let threshold = 0;
  if (expansionCount > budget) {
    const expansionWeights = scratchWeights.subarray(0, expansionCount);
    for (let t = 0; t < expansionCount; t++) expansionWeights[t] = weight[touched[lexicalCount + t]];
    expansionWeights.sort();
    threshold = expansionWeights[expansionCount - budget];
  }
  const order = Array.from(touched.subarray(0, lexicalCount));
  const atThreshold: number[] = [];
  for (let t = lexicalCount; t < touchedCount; t++) {
    const key = touched[t];
    if (weight[key] > threshold) order.push(key);
    else if (weight[key] === threshold) atThreshold.push(key);
  }
  atThreshold.sort((a, b) => a - b);
  order.push(...atThreshold.slice(0, Math.max(0, budget - (order.length - lexicalCount))));
  order.sort((a, b) => weight[b] - weight[a] || a - b);
  const kept = order.slice(0, MAX_TOKENS);
  const weights = new Float32Array(kept.length);
  const tokens = kept.map((key, i) => {
    weights[i] = weight[key];
    return model.vocab.tokens[key];
  });
  for (let t = 0; t < touchedCount; t++) {
    tf[touched[t]] = 0;
    weight[touched[t]] = 0;
    wholeWord[touched[t]] = 0;
  }
  return { tokens, weights, isTruncated: tokenized.truncated };
}
