/**
 * Trained model configurations (ES TrainedModelConfig) for the models this server can register:
 * built-in ones, whose artifacts ship with the server, and user ONNX sparse encoders read from a
 * local folder (`location.local.path`), so a PUT registers the model without downloading anything
 * and it is `fully_defined` at once. The stored record is plain data (the `ml` cluster-state
 * section); the ES JSON shape is rendered from it.
 */
import { SPARSE_MODEL_ID } from './sparse-model.js';
import type { ModelMemory } from './memory-estimate.js';

/** What is stored per registered model. */
export interface TrainedModelRecord {
  readonly model_id: string;
  /** Epoch millis. */
  readonly create_time: number;
  readonly input: { readonly field_names: readonly string[] };
  /** The artifact's size, measured when the model was registered. */
  readonly model_size_bytes: number;
  /** The loaded model, once per deployment (ES `metadata.per_deployment_memory_bytes`). */
  readonly per_deployment_memory_bytes: number;
  /** One inference thread's measured footprint (ES `metadata.per_allocation_memory_bytes`, per thread here). */
  readonly per_allocation_memory_bytes: number;
  /** A user ONNX model's folder (absent for built-in models). */
  readonly location?: { readonly local: { readonly path: string } };
  /** Positions per text of a user model (its `max_tokens`). */
  readonly max_sequence_length?: number;
}

/** What a worker thread measures about the built-in model (see workers/encode.ts `describe`). */
export interface ModelProbe {
  readonly sizeBytes: number;
  readonly threadFootprintBytes: number;
}

interface BuiltInModel {
  readonly description: string;
  readonly maxSequenceLength: number;
}

/** Built-in models by id. */
export const BUILT_IN_MODELS: ReadonlyMap<string, BuiltInModel> = new Map([
  [SPARSE_MODEL_ID, { description: 'Built-in learned sparse encoder (BERT uncased WordPiece vocabulary), ELSER-compatible API', maxSequenceLength: 512 }],
]);

/** ES InferenceIndexConstants.nativeDefinitionStore(): where ES keeps PyTorch definitions (shown for compatibility). */
const NATIVE_DEFINITION_STORE = '.ml-inference-native-000002';
/** The MlConfigVersion ES 8.15+ reports for configs it creates. */
const CONFIG_VERSION = '12.0.0';

export function modelMemory(r: TrainedModelRecord, threadsPerAllocation = 1): ModelMemory {
  return {
    modelBytes: r.model_size_bytes,
    perDeploymentMemoryBytes: r.per_deployment_memory_bytes,
    perAllocationMemoryBytes: r.per_allocation_memory_bytes * threadsPerAllocation,
  };
}

/** A user model's folder and sequence length (null for built-in models). */
export interface LocalModel {
  readonly path: string;
  readonly maxSequenceLength: number;
}

export function newModelRecord(modelId: string, fieldNames: readonly string[], probe: ModelProbe, now: number, local: LocalModel | null = null): TrainedModelRecord {
  return {
    ...(local ? { location: { local: { path: local.path } }, max_sequence_length: local.maxSequenceLength } : {}),
    model_id: modelId,
    create_time: now,
    input: { field_names: [...fieldNames] },
    model_size_bytes: probe.sizeBytes,
    per_deployment_memory_bytes: probe.sizeBytes,
    per_allocation_memory_bytes: probe.threadFootprintBytes,
  };
}

/** The config as GET / PUT answer it; `fully_defined` only with `include=definition_status`. */
export function renderModelConfig(r: TrainedModelRecord, options: { definitionStatus?: boolean } = {}): Record<string, unknown> {
  const builtIn = BUILT_IN_MODELS.get(r.model_id);
  return {
    model_id: r.model_id,
    model_type: 'pytorch',
    created_by: 'api_user',
    version: CONFIG_VERSION,
    create_time: r.create_time,
    model_size_bytes: r.model_size_bytes,
    estimated_operations: 0,
    license_level: 'platinum',
    description: builtIn?.description ?? (r.location ? 'ONNX sparse encoder (SPLADE max pooling) from a local model folder' : ''),
    tags: builtIn ? ['elastic'] : [],
    metadata: {
      per_deployment_memory_bytes: r.per_deployment_memory_bytes,
      per_allocation_memory_bytes: r.per_allocation_memory_bytes,
    },
    input: { field_names: [...r.input.field_names] },
    inference_config: {
      text_expansion: {
        vocabulary: { index: NATIVE_DEFINITION_STORE },
        tokenization: {
          bert: { do_lower_case: true, with_special_tokens: true, max_sequence_length: builtIn?.maxSequenceLength ?? r.max_sequence_length ?? 512, truncate: 'first', span: -1 },
        },
      },
    },
    location: r.location ? { local: { path: r.location.local.path } } : { index: { name: NATIVE_DEFINITION_STORE } },
    ...(options.definitionStatus ? { fully_defined: true } : {}),
  };
}
