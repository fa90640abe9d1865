/**
 * The BERT-MLM graph builder behind the test fixtures and the simulation mode: deterministic
 * weights per seed, BERT's parameter layout (so BERT_BASE is the ~110M-parameter ELSER-class
 * shape), and the simulation graph file reused once generated. Its math against a JS reference is
 * checked in onnx-encoder.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BERT_BASE, buildBertGraph, type BertShape } from '../../src/ml/onnx/bert-graph.js';
import { ensureSimulationGraph, simulationGraphPath } from '../../src/ml/onnx/simulation-graph.js';
import { tinyShape } from '../support/tiny-bert.js';

const root = mkdtempSync(join(tmpdir(), 'threadsearch-bert-graph-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** BertForMaskedLM's trainable parameters with a tied decoder (Devlin et al.; HF's count for bert-base-uncased is 109,514,298). */
function bertParameters(s: BertShape): number {
  const { vocabSize: V, hidden: H, intermediate: I, maxPositions: P } = s;
  const embeddings = V * H + P * H + 2 * H + 2 * H;
  const layer = 4 * (H * H + H) + 2 * H + (H * I + I) + (I * H + H) + 2 * H;
  const head = H * H + H + 2 * H + V;
  return embeddings + s.layers * layer + head;
}

describe('buildBertGraph', () => {
  it('is BERT-base at BERT_BASE: 12 layers, hidden 768, 12 heads, intermediate 3072, 30,522 tokens, 109.5M parameters', () => {
    expect(BERT_BASE).toMatchObject({ vocabSize: 30_522, hidden: 768, layers: 12, heads: 12, intermediate: 3072, maxPositions: 512 });
    expect(bertParameters(BERT_BASE)).toBe(109_514_298);
  });

  it('holds exactly BERT\'s parameters (tied decoder) at a small shape', () => {
    const shape = tinyShape(64);
    const { weights, graph } = buildBertGraph(shape);
    let total = 0;
    for (const w of weights.values()) total += w.length;
    expect(total).toBe(bertParameters(shape));
    expect(graph.inputs.map((i) => i.name)).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    expect(graph.outputs).toEqual([{ name: 'logits', elemType: 1, shape: ['batch', 'sequence', 64] }]);
    expect(graph.nodes.filter((n) => n.op === 'Softmax')).toHaveLength(shape.layers);
  });

  it('gives the same weights for the same seed and different ones for another', () => {
    const a = buildBertGraph(tinyShape(64, 1)).weights.get('layer.0.query.weight')!;
    const b = buildBertGraph(tinyShape(64, 1)).weights.get('layer.0.query.weight')!;
    const c = buildBertGraph(tinyShape(64, 2)).weights.get('layer.0.query.weight')!;
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(Math.max(...a.map(Math.abs))).toBeLessThanOrEqual(0.5);
  });
});

describe('ensureSimulationGraph', () => {
  it('reuses a generated graph instead of generating it again', () => {
    const dir = join(root, '.simulation');
    const path = simulationGraphPath(dir, 'bert-base');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'already generated');
    expect(ensureSimulationGraph(dir, 'bert-base')).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe('already generated');
  });
});
