/**
 * Test fixtures for user ONNX models: a tiny BERT-MLM-shaped graph with seeded random weights
 * (the same builder as the simulation mode's BERT-base, at hidden 16) and a matching WordPiece
 * vocabulary, written as a model folder; and a pure-JS float64 forward pass + SPLADE pooling of
 * the same math, which the runtime's vectors are compared with.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBertGraph, LAYER_NORM_EPSILON, type BertShape } from '../../src/ml/onnx/bert-graph.js';
import { writeOnnxModel } from '../../src/ml/onnx/onnx-writer.js';
import { encodeIds } from '../../src/ml/onnx/onnx-encoder.js';
import { isSpecialToken, parseVocabulary, type Vocabulary } from '../../src/ml/vocabulary.js';

const WORDS = [
  'the', 'a', 'of', 'and', 'to', 'in', 'is', 'for', 'on', 'with', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'cat', 'search',
  'engine', 'sparse', 'vector', 'model', 'text', 'query', 'document', 'index', 'heart', 'attack', 'vaccine', 'work', 'how', 'do', 'car',
  'river', 'bank', 'money', 'water', 'fish', 'bird', 'tree', 'green', 'red', 'blue', 'fast', 'slow', 'run', 'walk', 'data', 'shape', 'check',
  '.', ',', '!', '?', 'e', 'x', 's',
];
const PIECES = ['##s', '##ing', '##ed', '##er', '##ly', '##x', '##e'];

/** `[PAD] [unused0] [UNK] [CLS] [SEP] [MASK]`, then words and `##` pieces (specials not at BERT's ids on purpose). */
export function tinyVocabText(): string {
  return ['[PAD]', '[unused0]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...WORDS, ...PIECES].join('\n') + '\n';
}

export function tinyShape(vocabSize: number, seed = 42): BertShape {
  // Larger weights than BERT's σ 0.02 so that logits spread out and many are positive.
  return { vocabSize, hidden: 16, layers: 2, heads: 2, intermediate: 32, maxPositions: 64, seed, weightScale: 0.5 };
}

export interface TinyModel {
  readonly dir: string;
  readonly vocab: Vocabulary;
  readonly shape: BertShape;
  readonly weights: ReadonlyMap<string, Float32Array>;
}

/** Writes `model.onnx` + `vocab.txt` (+ `sparse_encoder.json` when given) into `dir`. */
export function writeTinyModel(dir: string, config?: Record<string, unknown>, options: { seed?: number; vocabSize?: number } = {}): TinyModel {
  mkdirSync(dir, { recursive: true });
  const vocabText = tinyVocabText();
  const vocab = parseVocabulary(vocabText);
  const shape = tinyShape(options.vocabSize ?? vocab.tokens.length, options.seed);
  const { graph, weights } = buildBertGraph(shape);
  writeFileSync(join(dir, 'model.onnx'), writeOnnxModel(graph));
  writeFileSync(join(dir, 'vocab.txt'), vocabText);
  if (config) writeFileSync(join(dir, 'sparse_encoder.json'), JSON.stringify(config));
  return { dir, vocab, shape, weights };
}

// ---- the pure-JS reference ----

type Matrix = Float64Array[];

function dense(x: Matrix, w: Float32Array, b: Float32Array, inDim: number, outDim: number): Matrix {
  return x.map((row) => {
    const out = new Float64Array(outDim);
    for (let o = 0; o < outDim; o++) {
      let s = b[o];
      for (let i = 0; i < inDim; i++) s += row[i] * w[i * outDim + o];
      out[o] = s;
    }
    return out;
  });
}

function layerNorm(x: Matrix, gamma: Float32Array, beta: Float32Array): Matrix {
  return x.map((row) => {
    const mean = row.reduce((a, b) => a + b, 0) / row.length;
    const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / row.length;
    const inv = 1 / Math.sqrt(variance + LAYER_NORM_EPSILON);
    return row.map((v, i) => (v - mean) * inv * gamma[i] + beta[i]);
  });
}

/** erf to ~1e-16 (Taylor series near 0, continued fraction for erfc beyond). */
function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax < 2.5) {
    let sum = ax;
    let term = ax;
    for (let n = 1; n < 200; n++) {
      term *= (-ax * ax) / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17) break;
    }
    return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * sum;
  }
  // Lentz's continued fraction for erfc(x) = exp(-x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …)))).
  let f = ax;
  for (let n = 60; n >= 1; n--) f = ax + n / 2 / f;
  const erfc = Math.exp(-ax * ax) / Math.sqrt(Math.PI) / f;
  return Math.sign(x) * (1 - erfc);
}

const gelu = (v: number): number => 0.5 * v * (1 + erf(v / Math.SQRT2));

function add(a: Matrix, b: Matrix): Matrix {
  return a.map((row, i) => row.map((v, j) => v + b[i][j]));
}

/** Logits [sequence][vocab] of one unpadded sequence, float64 throughout. */
export function referenceLogits(model: Pick<TinyModel, 'shape' | 'weights'>, ids: readonly number[]): Matrix {
  const { hidden: H, heads: NH, intermediate: I, vocabSize: V } = model.shape;
  const W = (n: string): Float32Array => model.weights.get(n)!;
  const DH = H / NH;
  const word = W('word_embeddings');
  let x: Matrix = ids.map((id, pos) => Float64Array.from({ length: H }, (_, h) => word[id * H + h] + W('token_type_embeddings')[h] + W('position_embeddings')[pos * H + h]));
  x = layerNorm(x, W('embeddings.layer_norm.gamma'), W('embeddings.layer_norm.beta'));
  for (let l = 0; l < model.shape.layers; l++) {
    const p = `layer.${l}`;
    const proj = (n: string) => dense(x, W(`${p}.${n}.weight`), W(`${p}.${n}.bias`), H, H);
    const q = proj('query');
    const k = proj('key');
    const v = proj('value');
    const context: Matrix = ids.map(() => new Float64Array(H));
    for (let h = 0; h < NH; h++) {
      for (let i = 0; i < ids.length; i++) {
        const scores = ids.map((_, j) => {
          let s = 0;
          for (let d = 0; d < DH; d++) s += q[i][h * DH + d] * k[j][h * DH + d];
          return s / Math.sqrt(DH);
        });
        const max = Math.max(...scores);
        const exps = scores.map((s) => Math.exp(s - max));
        const total = exps.reduce((a, b) => a + b, 0);
        for (let j = 0; j < ids.length; j++) for (let d = 0; d < DH; d++) context[i][h * DH + d] += (exps[j] / total) * v[j][h * DH + d];
      }
    }
    x = layerNorm(add(dense(context, W(`${p}.attention_output.weight`), W(`${p}.attention_output.bias`), H, H), x), W(`${p}.attention_layer_norm.gamma`), W(`${p}.attention_layer_norm.beta`));
    const inter = dense(x, W(`${p}.intermediate.weight`), W(`${p}.intermediate.bias`), H, I).map((r) => r.map(gelu));
    x = layerNorm(add(dense(inter, W(`${p}.output.weight`), W(`${p}.output.bias`), I, H), x), W(`${p}.output_layer_norm.gamma`), W(`${p}.output_layer_norm.beta`));
  }
  const t = layerNorm(dense(x, W('head.transform.weight'), W('head.transform.bias'), H, H).map((r) => r.map(gelu)), W('head.layer_norm.gamma'), W('head.layer_norm.beta'));
  const bias = W('head.decoder.bias');
  return t.map((row) => Float64Array.from({ length: V }, (_, j) => {
    let s = bias[j];
    for (let h = 0; h < H; h++) s += row[h] * word[j * H + h];
    return s;
  }));
}

/** The reference sparse vector of `text`: w_j = max_i log(1 + relu(logit_ij)), specials and zeros dropped. */
export function referenceVector(model: TinyModel, text: string, maxTokens = 512): Map<string, number> {
  const { ids } = encodeIds(model, text, maxTokens);
  const logits = referenceLogits(model, ids);
  const out = new Map<string, number>();
  model.vocab.tokens.forEach((token, j) => {
    if (isSpecialToken(token)) return;
    let w = 0;
    for (const row of logits) w = Math.max(w, Math.log1p(Math.max(0, row[j])));
    if (w > 0) out.set(token, w);
  });
  return out;
}

/** Largest |a − b| over the union of keys (a missing key counts as 0). */
export function maxAbsDiff(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let max = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) max = Math.max(max, Math.abs((a.get(k) ?? 0) - (b.get(k) ?? 0)));
  return max;
}
