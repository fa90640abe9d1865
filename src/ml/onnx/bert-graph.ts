/**
 * A BERT masked-language-model graph (Devlin et al. 2019; Hugging Face BertForMaskedLM) with
 * deterministic pseudo-random weights, as ONNX: the shape of an ELSER/SPLADE document encoder.
 * `BERT_BASE` is the cost model of the simulation mode (12 layers, hidden 768, 12 heads,
 * intermediate 3072, MLM head over 30,522 tokens); tests build tiny ones and check the runtime's
 * output against a pure-JS forward pass over the same `weights`.
 *
 * Inputs `input_ids`, `attention_mask`, `token_type_ids` (int64 [batch, sequence]); output
 * `logits` (float [batch, sequence, vocab]). Layers are post-LayerNorm as in BERT; GELU is the
 * exact erf form; masked key positions get −10000 added before the softmax; the decoder's
 * weights are the word embeddings' transpose (tied, as in BERT), plus its own bias.
 */
import { FLOAT, INT64, type Attribute, type OnnxGraph, type OnnxNode, type OnnxTensor } from './onnx-writer.js';
import { mulberry32 } from '../../common/prng.js';

export interface BertShape {
  readonly vocabSize: number;
  readonly hidden: number;
  readonly layers: number;
  readonly heads: number;
  readonly intermediate: number;
  readonly maxPositions: number;
  /** PRNG seed: the same shape and seed always give the same weights. */
  readonly seed: number;
  /** Half-width of the uniform weight distribution (BERT initialises with σ 0.02 ⇒ 0.035). */
  readonly weightScale: number;
}

export const BERT_BASE: BertShape = {
  vocabSize: 30_522, hidden: 768, layers: 12, heads: 12, intermediate: 3072, maxPositions: 512, seed: 0x5eed_b357, weightScale: 0.0346,
};

export const LAYER_NORM_EPSILON = 1e-12;
export const MASK_BIAS = -10_000;

export interface BertGraph {
  readonly graph: OnnxGraph;
  /** Every weight by name (word_embeddings, layer.N.query.weight, …), [in, out] row-major. */
  readonly weights: ReadonlyMap<string, Float32Array>;
}

/** The graph and its weights for `shape`. */
export function buildBertGraph(shape: BertShape): BertGraph {
  const { vocabSize: V, hidden: H, heads: NH, intermediate: I, maxPositions: P } = shape;
  if (H % NH !== 0) throw new Error(`hidden size ${H} is not a multiple of ${NH} heads`);
  const DH = H / NH;
  const random = mulberry32(shape.seed);
  const weights = new Map<string, Float32Array>();
  const initializers: OnnxTensor[] = [];
  const nodes: OnnxNode[] = [];

  const param = (name: string, dims: number[], fill: 'random' | 'ones' | 'near-ones' = 'random'): string => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) {
      const r = (random() * 2 - 1) * shape.weightScale;
      data[i] = fill === 'random' ? r : fill === 'ones' ? 1 : 1 + r;
    }
    weights.set(name, data);
    initializers.push({ name, dims, data });
    return name;
  };
  const constant = (name: string, dims: number[], data: Float32Array | BigInt64Array): string => {
    initializers.push({ name, dims, data });
    return name;
  };
  let counter = 0;
  const op = (type: string, inputs: string[], attributes?: Record<string, Attribute>): string => {
    const out = `${type.toLowerCase()}_${counter++}`;
    nodes.push({ op: type, inputs, outputs: [out], attributes });
    return out;
  };
  const dense = (x: string, name: string, inDim: number, outDim: number): string =>
    op('Add', [op('MatMul', [x, param(`${name}.weight`, [inDim, outDim])]), param(`${name}.bias`, [outDim])]);
  const layerNorm = (x: string, name: string): string =>
    op('LayerNormalization', [x, param(`${name}.gamma`, [H], 'near-ones'), param(`${name}.beta`, [H])], { axis: { i: -1 }, epsilon: { f: LAYER_NORM_EPSILON } });
  const half = constant('half', [], Float32Array.of(0.5));
  const one = constant('one', [], Float32Array.of(1));
  const sqrt2 = constant('sqrt2', [], Float32Array.of(Math.SQRT2));
  const gelu = (x: string): string => op('Mul', [op('Mul', [x, half]), op('Add', [one, op('Erf', [op('Div', [x, sqrt2])])])]);

  // Embeddings: word + position + token type, then LayerNorm.
  const wordEmbeddings = param('word_embeddings', [V, H]);
  const seqLength = op('Gather', [op('Shape', ['input_ids']), constant('index_1', [], BigInt64Array.of(1n))], { axis: { i: 0 } });
  const positions = op('Range', [constant('zero_i64', [], BigInt64Array.of(0n)), seqLength, constant('one_i64', [], BigInt64Array.of(1n))]);
  let x = op('Add', [
    op('Add', [op('Gather', [wordEmbeddings, 'input_ids'], { axis: { i: 0 } }), op('Gather', [param('token_type_embeddings', [2, H]), 'token_type_ids'], { axis: { i: 0 } })]),
    op('Gather', [param('position_embeddings', [P, H]), positions], { axis: { i: 0 } }),
  ]);
  x = layerNorm(x, 'embeddings.layer_norm');

  // [batch, 1, 1, sequence]: 0 where attended, −10000 where masked.
  const maskBias = op('Unsqueeze', [
    op('Mul', [op('Sub', [one, op('Cast', ['attention_mask'], { to: { i: FLOAT } })]), constant('mask_bias', [], Float32Array.of(MASK_BIAS))]),
    constant('axes_1_2', [2], BigInt64Array.of(1n, 2n)),
  ]);
  const splitHeads = constant('split_heads', [4], BigInt64Array.of(0n, 0n, BigInt(NH), BigInt(DH)));
  const mergeHeads = constant('merge_heads', [3], BigInt64Array.of(0n, 0n, BigInt(H)));
  const scale = constant('attention_scale', [], Float32Array.of(Math.sqrt(DH)));
  for (let l = 0; l < shape.layers; l++) {
    const p = `layer.${l}`;
    const heads = (name: string, perm: number[]): string => op('Transpose', [op('Reshape', [dense(x, `${p}.${name}`, H, H), splitHeads])], { perm: { ints: perm } });
    const q = heads('query', [0, 2, 1, 3]);
    const k = heads('key', [0, 2, 3, 1]);
    const v = heads('value', [0, 2, 1, 3]);
    const probs = op('Softmax', [op('Add', [op('Div', [op('MatMul', [q, k]), scale]), maskBias])], { axis: { i: -1 } });
    const context = op('Reshape', [op('Transpose', [op('MatMul', [probs, v])], { perm: { ints: [0, 2, 1, 3] } }), mergeHeads]);
    x = layerNorm(op('Add', [dense(context, `${p}.attention_output`, H, H), x]), `${p}.attention_layer_norm`);
    const ffn = dense(gelu(dense(x, `${p}.intermediate`, H, I)), `${p}.output`, I, H);
    x = layerNorm(op('Add', [ffn, x]), `${p}.output_layer_norm`);
  }

  // MLM head: dense + GELU + LayerNorm, then the tied decoder.
  const transformed = layerNorm(gelu(dense(x, 'head.transform', H, H)), 'head.layer_norm');
  const decoder = op('Transpose', [wordEmbeddings], { perm: { ints: [1, 0] } });
  nodes.push({ op: 'Add', inputs: [op('MatMul', [transformed, decoder]), param('head.decoder.bias', [V])], outputs: ['logits'] });

  const ids = (name: string) => ({ name, elemType: INT64, shape: ['batch', 'sequence'] }) as const;
  return {
    graph: {
      name: 'bert_mlm',
      nodes,
      initializers,
      inputs: [ids('input_ids'), ids('attention_mask'), ids('token_type_ids')],
      outputs: [{ name: 'logits', elemType: FLOAT, shape: ['batch', 'sequence', V] }],
      opset: 17,
    },
    weights,
  };
}
