/**
 * ES InferenceProcessor for the sparse (text_expansion) model, exactly as es-api.md §4.3 describes
 * ES writing its results:
 * - `input_output` (one object or a list): each input's text is inferred; the output field is split
 *   at its last dot into a base path and a leaf, `{leaf: {token: weight}}` (+ `is_truncated`) is
 *   written under the base path (or the document root), and the first entry also writes `model_id`
 *   there. An existing value is appended to, not replaced (ES setOrAppendValue).
 * - legacy `target_field` (+ `field_map`, `inference_config.text_expansion.results_field`):
 *   `{<results_field>: {...}, model_id}` under `target_field` (default `ml.inference[.<tag>]`).
 * The processor is a batch body: every document of a bulk or reindex batch goes to the model
 * deployment in one infer request. Weights are written as ES writes Java floats: the shortest
 * decimal that reads back as the float32.
 */
import { EsError, IllegalArgumentError, InternalError, StatusError } from '../../errors/index.js';
import { defineOwn, isPlainObject } from '../../common/json.js';
import { float32ToJson } from '../../common/float-json.js';
import type { SparseVector } from '../../ml/index.js';
import { ProcessorConfig } from '../config.js';
import { javaType, type IngestDocument, type JsonMap } from '../ingest-document.js';
import type { ExecutionContext, ProcessorBody } from '../processor.js';

const TYPE = 'inference';
const INCOMPATIBLE = 'option is incompatible with [input_output]. Use the [output_field] option to specify where to write the inference results to.';
const DEFAULT_RESULTS_FIELD = 'predicted_value';

interface InputOutput {
  readonly input: string;
  readonly output: string;
}

type Mode =
  | { readonly kind: 'input_output'; readonly entries: readonly InputOutput[]; readonly ignoreMissing: boolean }
  | { readonly kind: 'target_field'; readonly targetField: string; readonly fieldMap: Readonly<Record<string, string>>; readonly resultsField: string };

/** `{token: weight}` with weights as ES prints float32s. */
export function tokenWeights(v: SparseVector): JsonMap {
  const out: JsonMap = {};
  for (let i = 0; i < v.tokens.length; i++) defineOwn(out, v.tokens[i], Number(float32ToJson(v.weights[i])));
  return out;
}

function parseInputOutput(config: ProcessorConfig, raw: unknown): InputOutput[] {
  const list = Array.isArray(raw) ? raw : [raw];
  if (!Array.isArray(raw) && !isPlainObject(raw)) throw config.error('input_output', `property isn't a list, but of type [${javaType(raw)}]`);
  if (list.length === 0) throw config.error('input_output', 'property cannot be empty at least one is required');
  const entries = list.map((item) => {
    if (!isPlainObject(item)) throw config.error('input_output', `property isn't a map, but of type [${javaType(item)}]`);
    const entry = new ProcessorConfig(TYPE, config.tag, item);
    const input = entry.string('input_field');
    const output = entry.optionalString('output_field') ?? `ml.inference.${input}`;
    const extra = entry.leftovers();
    if (extra.length > 0) throw config.error('input_output', `unknown option(s) [${extra.join(', ')}]`);
    return { input, output };
  });
  for (const [prop, key] of [['input_field', 'input'], ['output_field', 'output']] as const) {
    const seen = new Set<string>();
    for (const e of entries) {
      if (seen.has(e[key])) throw config.error(prop, `names must be unique but [${e[key]}] is repeated`);
      seen.add(e[key]);
    }
  }
  return entries;
}

/** `inference_config: {text_expansion: {results_field?, tokenization?}}`; its results field. */
function parseInferenceConfig(config: ProcessorConfig, raw: JsonMap | null): string | null {
  if (raw === null) return null;
  const keys = Object.keys(raw);
  if (keys.length !== 1 || !isPlainObject(raw[keys[0]])) throw config.error('inference_config', 'must be an object with one inference type mapped to an object.');
  if (keys[0] !== 'text_expansion') {
    throw config.error('inference_config', `unrecognized inference configuration type [${keys[0]}]. Supported types [text_expansion]`);
  }
  const body = raw.text_expansion as JsonMap;
  const rf = body.results_field;
  if (rf !== undefined && typeof rf !== 'string') throw config.error('inference_config', `[results_field] must be a string, but was [${javaType(rf)}]`);
  return (rf as string | undefined) ?? null;
}

export function inference(config: ProcessorConfig): ProcessorBody {
  const modelId = config.string('model_id');
  const rawIo = config.take('input_output');
  const resultsField = parseInferenceConfig(config, config.optionalMap('inference_config'));
  let mode: Mode;
  if (rawIo !== null) {
    if (config.has('target_field')) throw config.error('target_field', INCOMPATIBLE);
    if (config.has('field_map') || config.has('field_mappings')) throw config.error('field_map', INCOMPATIBLE);
    if (resultsField !== null) throw config.error('inference_config.results_field', INCOMPATIBLE);
    mode = { kind: 'input_output', entries: parseInputOutput(config, rawIo), ignoreMissing: config.bool('ignore_missing', false) };
  } else {
    if (config.has('ignore_missing')) throw config.error('ignore_missing', 'option is only supported with [input_output]');
    const targetField = config.string('target_field', config.tag ? `ml.inference.${config.tag}` : 'ml.inference');
    const map = config.optionalMap('field_map') ?? config.optionalMap('field_mappings') ?? {};
    for (const [k, v] of Object.entries(map)) if (typeof v !== 'string') throw config.error('field_map', `value for [${k}] isn't a string, but of type [${javaType(v)}]`);
    mode = { kind: 'target_field', targetField, fieldMap: map as Record<string, string>, resultsField: resultsField ?? DEFAULT_RESULTS_FIELD };
  }
  return { kind: 'batch', execute: (docs, ctx) => run(modelId, mode, docs, ctx) };
}

/** A document's texts for this processor, or its error, or null when it is skipped. */
type Inputs = { texts: string[] } | { error: EsError } | null;

function textAt(doc: IngestDocument, field: string): string {
  const v = doc.getFieldValue(field);
  if (typeof v !== 'string') throw new StatusError(`input field [${field}] cannot be processed because it is not a text field`, 400);
  return v;
}

function inputsOf(doc: IngestDocument, mode: Mode, inputField: () => string): Inputs {
  try {
    if (mode.kind === 'target_field') {
      const name = inputField();
      // field_map renames a document field to the model's input name; else the doc uses that name.
      const source = Object.keys(mode.fieldMap).find((k) => mode.fieldMap[k] === name && doc.hasField(k)) ?? name;
      if (!doc.hasField(source)) throw new StatusError(`Input field [${name}] does not exist in the request document`, 400);
      return { texts: [textAt(doc, source)] };
    }
    const texts: string[] = [];
    for (let i = 0; i < mode.entries.length; i++) {
      const field = mode.entries[i].input;
      if (mode.ignoreMissing && !doc.hasField(field)) {
        // ES asks "any input present so far?": a missing first input skips the whole processor.
        if (i === 0) return null;
        texts.push('');
        continue;
      }
      texts.push(textAt(doc, field));
    }
    return { texts };
  } catch (e) {
    return { error: e instanceof EsError ? e : new IllegalArgumentError(String(e)) };
  }
}

/** ES setOrAppendValue: an existing value turns into a list with the new one appended. */
function setOrAppend(doc: IngestDocument, path: string, value: unknown): void {
  doc.setFieldValue(path, value, doc.hasField(path));
}

function writeResult(doc: IngestDocument, basePath: string | null, result: JsonMap): void {
  for (const [k, v] of Object.entries(result)) setOrAppend(doc, basePath === null ? k : `${basePath}.${k}`, v);
}

async function run(modelId: string, mode: Mode, docs: readonly IngestDocument[], ctx: ExecutionContext): Promise<Array<EsError | null>> {
  const errors: Array<EsError | null> = docs.map(() => null);
  const inputField = () => (ctx.inference.inputField ? ctx.inference.inputField(modelId) : 'text_field');
  const inputs = docs.map((d) => inputsOf(d, mode, inputField));
  const texts: string[] = [];
  inputs.forEach((inp, i) => {
    if (inp === null) return;
    if ('error' in inp) errors[i] = inp.error;
    else texts.push(...inp.texts);
  });
  if (texts.length === 0) return errors;
  let vectors: SparseVector[];
  try {
    // ES InferModelAction.Request.DEFAULT_TIMEOUT_FOR_INGEST is TimeValue.MAX_VALUE: a document waits
    // for its model however long the queue (a transformer-cost deployment takes seconds per batch).
    vectors = await ctx.inference.infer(modelId, texts, { timeoutMs: Infinity });
  } catch (e) {
    const err = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
    return inputs.map((inp, i) => (inp !== null && !('error' in inp) ? err : errors[i]));
  }
  let offset = 0;
  inputs.forEach((inp, i) => {
    if (inp === null || 'error' in inp) return;
    const doc = docs[i];
    // Each document owns a fixed run of vectors, whatever happens while writing its results.
    let next = offset;
    offset += inp.texts.length;
    try {
      if (mode.kind === 'target_field') {
        const v = vectors[next++];
        const result: JsonMap = {};
        defineOwn(result, mode.resultsField, tokenWeights(v));
        if (v.isTruncated) result.is_truncated = true;
        result.model_id = modelId;
        writeResult(doc, mode.targetField, result);
        return;
      }
      mode.entries.forEach((entry, j) => {
        const v = vectors[next++];
        const dot = entry.output.lastIndexOf('.');
        const base = dot < 0 ? null : entry.output.slice(0, dot);
        const result: JsonMap = {};
        defineOwn(result, dot < 0 ? entry.output : entry.output.slice(dot + 1), tokenWeights(v));
        if (v.isTruncated) result.is_truncated = true;
        if (j === 0) result.model_id = modelId;
        writeResult(doc, base, result);
      });
    } catch (e) {
      errors[i] = e instanceof EsError ? e : new IllegalArgumentError(String(e));
    }
  });
  return errors;
}
