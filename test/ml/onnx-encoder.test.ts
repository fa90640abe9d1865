/**
 * User ONNX models in one thread (src/ml/onnx/): the generated tiny BERT-MLM graph loads in
 * onnxruntime-node and its SPLADE vectors equal a pure-JS float64 forward pass of the same weights
 * (max abs error ≤ 1e-5), batched and padded or not; config options; bad folders and graphs fail
 * with clear reasons.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EsError } from '../../src/errors/index.js';
import { buildBertGraph } from '../../src/ml/onnx/bert-graph.js';
import { readModelFolder } from '../../src/ml/onnx/model-folder.js';
import { OnnxSparseEncoder } from '../../src/ml/onnx/onnx-encoder.js';
import { runtimeLoadError } from '../../src/ml/onnx/onnx-runtime.js';
import { FLOAT, INT64, writeOnnxModel } from '../../src/ml/onnx/onnx-writer.js';
import { maxAbsDiff, referenceVector, tinyShape, tinyVocabText, writeTinyModel, type TinyModel } from '../support/tiny-bert.js';

const root = mkdtempSync(join(tmpdir(), 'threadsearch-onnx-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TEXTS = [
  'The quick brown fox jumps over the lazy dog.',
  'sparse vector search',
  'how do vaccines work?',
  'river bank, money bank; fish and birds',
  'Xylophone zebra', // unknown words become [UNK] or pieces
  'the red car runs fast and the blue car walks slowly over the green trees by the water',
];

function asMap(v: { tokens: readonly string[]; weights: Float32Array }): Map<string, number> {
  return new Map(v.tokens.map((t, i) => [t, v.weights[i]]));
}

async function load(dir: string, threads = 1): Promise<OnnxSparseEncoder> {
  return OnnxSparseEncoder.load(readModelFolder(dir), threads);
}

async function loadError(dir: string): Promise<EsError> {
  try {
    (await load(dir)).release();
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return e as EsError;
  }
  throw new Error('expected the model to be refused');
}

describe('the tiny BERT-MLM model against the JS reference', () => {
  let model: TinyModel;
  let encoder: OnnxSparseEncoder;

  it('loads and encodes every text within 1e-5 of the reference, in batches with padding', async () => {
    model = writeTinyModel(join(root, 'tiny'));
    encoder = await load(model.dir, 2);
    const vectors = await encoder.encode(TEXTS);
    let worst = 0;
    TEXTS.forEach((text, i) => {
      const ref = referenceVector(model, text);
      expect(ref.size).toBeGreaterThan(5);
      expect(new Set(vectors[i].tokens)).toEqual(new Set(ref.keys()));
      worst = Math.max(worst, maxAbsDiff(asMap(vectors[i]), ref));
      expect(vectors[i].tokens.some((t) => t.startsWith('['))).toBe(false);
      // Ordered by weight, descending.
      for (let j = 1; j < vectors[i].weights.length; j++) expect(vectors[i].weights[j]).toBeLessThanOrEqual(vectors[i].weights[j - 1]);
    });
    expect(worst).toBeLessThanOrEqual(1e-5);
    // One text alone (no padding) gives the same vector as inside a padded batch.
    const [alone] = await encoder.encode([TEXTS[1]]);
    expect(maxAbsDiff(asMap(alone), asMap(vectors[1]))).toBeLessThanOrEqual(1e-6);
    await encoder.release();
  });

  it('applies max_tokens, top_k and threshold', async () => {
    const dir = join(root, 'pruned');
    const m = writeTinyModel(dir, { max_tokens: 6, top_k: 4, threshold: 0.05, batch_size: 2 });
    const enc = await load(dir);
    const [v] = await enc.encode([TEXTS[5]]);
    expect(v.isTruncated).toBe(true);
    expect(v.tokens.length).toBeLessThanOrEqual(4);
    const ref = [...referenceVector(m, TEXTS[5], 6)].filter(([, w]) => w > 0.05).sort((a, b) => b[1] - a[1]).slice(0, 4);
    expect(v.tokens).toEqual(ref.map(([t]) => t));
    ref.forEach(([, w], i) => expect(Math.abs(v.weights[i] - w)).toBeLessThanOrEqual(1e-5));
    await enc.release();
  });

  it('weights queries from idf.json without a model pass in query_mode idf', async () => {
    const dir = join(root, 'idf');
    writeTinyModel(dir, { query_mode: 'idf' });
    writeFileSync(join(dir, 'idf.json'), JSON.stringify({ search: 2.5, engine: 1.25, the: 0.1 }));
    const enc = await load(dir);
    const [q] = await enc.encode(['the search engine for the fox'], 'query');
    expect(Object.fromEntries(q.tokens.map((t, i) => [t, q.weights[i]]))).toEqual({ search: 2.5, engine: 1.25, the: Math.fround(0.1) });
    const [d] = await enc.encode(['the search engine for the fox'], 'document');
    expect(d.tokens.length).toBeGreaterThan(3);
    await enc.release();
  });

  it('reads a tokenizer.json vocabulary', async () => {
    const dir = join(root, 'hf');
    const m = writeTinyModel(dir);
    rmSync(join(dir, 'vocab.txt'));
    const vocab = Object.fromEntries(tinyVocabText().trimEnd().split('\n').map((t, i) => [t, i]));
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({ normalizer: { type: 'BertNormalizer', lowercase: true }, model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', vocab } }));
    const enc = await load(dir);
    const [v] = await enc.encode([TEXTS[0]]);
    expect(maxAbsDiff(asMap(v), referenceVector(m, TEXTS[0]))).toBeLessThanOrEqual(1e-5);
    await enc.release();
  });
});

describe('bad models fail with a clear reason', () => {
  const folder = (name: string): string => {
    const dir = join(root, name);
    writeTinyModel(dir);
    return dir;
  };

  it.each([
    ['a missing folder', () => join(root, 'nope'), /model folder \[.*nope\] does not exist/],
    ['no model.onnx', () => {
      const d = folder('no-onnx');
      rmSync(join(d, 'model.onnx'));
      return d;
    }, /has no \[model\.onnx\]/],
    ['no vocabulary', () => {
      const d = folder('no-vocab');
      rmSync(join(d, 'vocab.txt'));
      return d;
    }, /has neither \[vocab\.txt\] nor \[tokenizer\.json\]/],
    ['a vocabulary without [CLS]', () => {
      const d = folder('no-cls');
      writeFileSync(join(d, 'vocab.txt'), tinyVocabText().replace('[CLS]', 'cls'));
      return d;
    }, /not a BERT WordPiece vocabulary: vocabulary has no \[CLS\] token/],
    ['a config typo', () => {
      const d = folder('typo');
      writeFileSync(join(d, 'sparse_encoder.json'), JSON.stringify({ max_token: 128 }));
      return d;
    }, /\[sparse_encoder\.json\] unknown setting \[max_token\]/],
    ['a bad config value', () => {
      const d = folder('bad-activation');
      writeFileSync(join(d, 'sparse_encoder.json'), JSON.stringify({ activation: 'gelu' }));
      return d;
    }, /\[activation\] must be one of \[log1p_relu, relu, none\]/],
    ['idf mode without idf.json', () => {
      const d = folder('no-idf');
      writeFileSync(join(d, 'sparse_encoder.json'), JSON.stringify({ query_mode: 'idf' }));
      return d;
    }, /has no \[idf\.json\]/],
  ])('%s', async (_name, make, reason) => {
    expect(() => readModelFolder(make())).toThrow(reason);
  });

  it('a file that is not ONNX', async () => {
    const d = folder('garbage');
    writeFileSync(join(d, 'model.onnx'), 'not a model at all');
    const e = await loadError(d);
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/cannot load the model graph/);
  });

  it('a vocabulary size mismatch', async () => {
    const d = join(root, 'mismatch');
    writeTinyModel(d, undefined, { vocabSize: 70 });
    const e = await loadError(d);
    expect(e.message).toMatch(/vocabulary size mismatch: output \[logits\] scores 70 tokens but the vocabulary has \d+/);
  });

  it('wrong input names, a wrong output name, a wrong output shape', async () => {
    const vocabText = tinyVocabText();
    const V = vocabText.trimEnd().split('\n').length;
    const emb = buildBertGraph(tinyShape(V)).weights.get('word_embeddings')!;
    const write = (name: string, inputName: string, output: 'logits' | 'pooled-2d'): string => {
      const d = join(root, name);
      writeTinyModel(d);
      // Gather(embeddings [V, 16], ids) → [batch, seq, 16]: a graph whose output is not vocabulary-sized.
      const graph = {
        name: 'bad', opset: 17,
        nodes: [{ op: 'Gather', inputs: ['emb', inputName], outputs: ['logits'], attributes: { axis: { i: 0 } } }],
        initializers: [{ name: 'emb', dims: [V, 16], data: emb }],
        inputs: [{ name: inputName, elemType: INT64, shape: ['batch', 'sequence'] }, { name: 'attention_mask', elemType: INT64, shape: ['batch', 'sequence'] }],
        outputs: [{ name: 'logits', elemType: FLOAT, shape: ['batch', 'sequence', 16] }],
      } as const;
      writeFileSync(join(d, 'model.onnx'), writeOnnxModel(graph));
      if (output === 'pooled-2d') writeFileSync(join(d, 'sparse_encoder.json'), JSON.stringify({ output: 'pooled' }));
      return d;
    };
    expect((await loadError(write('bad-input', 'ids', 'logits'))).message).toMatch(/the model graph has no input \[input_ids\]; its inputs are \[ids, attention_mask\]/);
    expect((await loadError(write('bad-shape', 'input_ids', 'logits'))).message).toMatch(/vocabulary size mismatch: output \[logits\] scores 16 tokens/);
    expect((await loadError(write('bad-rank', 'input_ids', 'pooled-2d'))).message).toMatch(/output \[logits\] has shape \[1, \d+, 16\] \(float32\) but \[output: pooled\] needs float32 \[1, \d+\]/);
    const d = folder('bad-output-name');
    writeFileSync(join(d, 'sparse_encoder.json'), JSON.stringify({ output_name: 'sparse' }));
    expect((await loadError(d)).message).toMatch(/the model graph has no output \[sparse\]; its outputs are \[logits\]/);
  });
});

describe('without onnxruntime-node', () => {
  it('a missing runtime package is a 400 that says how to install it', async () => {
    let importError: unknown;
    try {
      const missing: string = 'onnxruntime-node-that-is-not-installed';
      await import(missing);
    } catch (e) {
      importError = e;
    }
    const e = runtimeLoadError(importError);
    expect(e.status).toBe(400);
    expect(e.message).toBe('the optional package [onnxruntime-node] is not installed; install it with `ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node` to serve ONNX models');
  });
});
