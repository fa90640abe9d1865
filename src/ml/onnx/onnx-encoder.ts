/**
 * A user's ONNX sparse encoder in one thread: the folder's WordPiece tokenizer, an onnxruntime
 * session with the deployment's intra-op threads, batched runs and SPLADE pooling. `load` checks
 * the graph against the folder (input names, output name and shape, vocabulary size) with one
 * sample run, so a bad model fails where it is registered or deployed with a clear reason.
 */
import { StatusError } from '../../errors/index.js';
import type { SparseVector } from '../sparse-encoder.js';
import { inputIds, tokenize } from '../wordpiece-tokenizer.js';
import type { ModelFolder } from './model-folder.js';
import { createSession, loadOnnxRuntime, type OrtModule, type OrtSession, type OrtTensor } from './onnx-runtime.js';
import { idfQueryVector, maxPoolLogits, outputMask, pooledRow, toSparseVector } from './splade-pooling.js';

const REQUIRED_INPUTS = ['input_ids', 'attention_mask'];
const KNOWN_INPUTS = new Set([...REQUIRED_INPUTS, 'token_type_ids']);

export type Purpose = 'document' | 'query';

/** Token ids of one text (`[CLS] … [SEP]`, at most `maxTokens`) and whether it was cut. */
export function encodeIds(folder: Pick<ModelFolder, 'vocab'>, text: string, maxTokens: number): { ids: number[]; isTruncated: boolean } {
  const tokenized = tokenize(folder.vocab, text);
  let ids = inputIds(folder.vocab, tokenized);
  let isTruncated = tokenized.truncated;
  if (ids.length > maxTokens) {
    ids = [...ids.slice(0, maxTokens - 1), folder.vocab.sepId];
    isTruncated = true;
  }
  return { ids, isTruncated };
}

/** One padded batch: int64 [batch, sequence] inputs. */
interface Batch {
  readonly rows: readonly number[];
  readonly sequence: number;
  readonly inputIds: BigInt64Array;
  readonly attentionMask: BigInt64Array;
  readonly tokenTypeIds: BigInt64Array;
}

/** Texts grouped `batchSize` at a time in length order (less padding), each batch padded to its longest. */
export function makeBatches(encoded: ReadonlyArray<{ ids: readonly number[] }>, batchSize: number, padId: number): Batch[] {
  const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].ids.length - encoded[b].ids.length);
  const batches: Batch[] = [];
  for (let start = 0; start < order.length; start += batchSize) {
    const rows = order.slice(start, start + batchSize);
    const sequence = Math.max(...rows.map((r) => encoded[r].ids.length));
    const ids = new BigInt64Array(rows.length * sequence).fill(BigInt(padId));
    const mask = new BigInt64Array(rows.length * sequence);
    rows.forEach((r, b) => encoded[r].ids.forEach((id, i) => {
      ids[b * sequence + i] = BigInt(id);
      mask[b * sequence + i] = 1n;
    }));
    batches.push({ rows, sequence, inputIds: ids, attentionMask: mask, tokenTypeIds: new BigInt64Array(rows.length * sequence) });
  }
  return batches;
}

export class OnnxSparseEncoder {
  private readonly allowed: Uint8Array;
  private readonly scratch: Float32Array;

  private constructor(
    readonly folder: ModelFolder,
    private readonly ort: OrtModule,
    private readonly session: OrtSession,
    private readonly outputName: string,
    private readonly feedsTokenTypes: boolean,
  ) {
    this.allowed = outputMask(folder.vocab);
    this.scratch = new Float32Array(folder.vocab.tokens.length);
  }

  /** Loads the graph with `threads` intra-op threads and checks it against the folder. */
  static async load(folder: ModelFolder, threads: number): Promise<OnnxSparseEncoder> {
    const ort = await loadOnnxRuntime();
    const session = await createSession(ort, folder.modelFile, threads);
    try {
      for (const name of REQUIRED_INPUTS) {
        if (!session.inputNames.includes(name)) throw new StatusError(`the model graph has no input [${name}]; its inputs are [${session.inputNames.join(', ')}]`, 400);
      }
      const extra = session.inputNames.filter((n) => !KNOWN_INPUTS.has(n));
      if (extra.length > 0) throw new StatusError(`the model graph has inputs this server cannot feed: [${extra.join(', ')}]; expected [input_ids, attention_mask] and optionally [token_type_ids]`, 400);
      const outputName = folder.config.output_name ?? session.outputNames[0];
      if (!session.outputNames.includes(outputName)) throw new StatusError(`the model graph has no output [${outputName}]; its outputs are [${session.outputNames.join(', ')}]`, 400);
      const encoder = new OnnxSparseEncoder(folder, ort, session, outputName, session.inputNames.includes('token_type_ids'));
      await encoder.checkOutputShape();
      return encoder;
    } catch (e) {
      await session.release().catch(() => undefined);
      throw e;
    }
  }

  /** One sample run: the output must be [1, sequence, vocab] (logits) or [1, vocab] (pooled). */
  private async checkOutputShape(): Promise<void> {
    const sample = encodeIds(this.folder, 'shape check', this.folder.config.max_tokens);
    const [batch] = makeBatches([sample], 1, this.folder.vocab.padId);
    let out: OrtTensor;
    try {
      out = await this.run(batch);
    } catch (e) {
      throw new StatusError(`the model graph failed on a sample input: ${(e as Error).message.slice(0, 300)}`, 400);
    }
    const vocabSize = this.folder.vocab.tokens.length;
    const dims = out.dims;
    const expected = this.folder.config.output === 'logits' ? `[1, ${batch.sequence}, ${vocabSize}]` : `[1, ${vocabSize}]`;
    const rankOk = this.folder.config.output === 'logits' ? dims.length === 3 && dims[1] === batch.sequence : dims.length === 2;
    if (!rankOk || dims[0] !== 1 || out.type !== 'float32') {
      throw new StatusError(`output [${this.outputName}] has shape [${dims.join(', ')}] (${out.type}) but [output: ${this.folder.config.output}] needs float32 ${expected}`, 400);
    }
    if (dims[dims.length - 1] !== vocabSize) {
      throw new StatusError(`vocabulary size mismatch: output [${this.outputName}] scores ${dims[dims.length - 1]} tokens but the vocabulary has ${vocabSize}`, 400);
    }
  }

  private async run(batch: Batch): Promise<OrtTensor> {
    const dims = [batch.rows.length, batch.sequence];
    const feeds: Record<string, OrtTensor> = {
      input_ids: new this.ort.Tensor('int64', batch.inputIds, dims),
      attention_mask: new this.ort.Tensor('int64', batch.attentionMask, dims),
    };
    if (this.feedsTokenTypes) feeds.token_type_ids = new this.ort.Tensor('int64', batch.tokenTypeIds, dims);
    const out = await this.session.run(feeds, [this.outputName]);
    return out[this.outputName];
  }

  /** Encodes texts in batches; queries of an idf-mode model skip the graph. Results in input order. */
  async encode(texts: readonly string[], purpose: Purpose = 'document'): Promise<SparseVector[]> {
    const { config, vocab, idf } = this.folder;
    const encoded = texts.map((t) => encodeIds(this.folder, t, config.max_tokens));
    if (purpose === 'query' && idf) return encoded.map((e) => idfQueryVector(e.ids, idf, vocab, this.allowed, config, e.isTruncated));
    const out: SparseVector[] = new Array(texts.length);
    const vocabSize = vocab.tokens.length;
    for (const batch of makeBatches(encoded, config.batch_size, vocab.padId)) {
      const data = (await this.run(batch)).data as Float32Array;
      batch.rows.forEach((r, b) => {
        const weights = config.output === 'logits'
          ? maxPoolLogits(data, b, batch.sequence, vocabSize, batch.attentionMask, config.activation, this.scratch)
          : pooledRow(data, b, vocabSize, config.activation, this.scratch);
        out[r] = toSparseVector(weights, vocab, this.allowed, config, encoded[r].isTruncated);
      });
    }
    return out;
  }

  /**
   * Runs the graph and the pooling over `texts` and discards the result: the simulation mode's
   * cost (a BERT-base graph beside the built-in model).
   */
  async burn(texts: readonly string[]): Promise<void> {
    await this.encode(texts, 'document');
  }

  release(): Promise<void> {
    return this.session.release();
  }
}
