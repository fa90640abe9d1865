/**
 * What ingest/ (inference processor) and search (text_expansion) call to encode text: the
 * interface lives here, beside the encoder, so they need not import cluster/; cluster/MlService
 * implements it over the deployments' thread pools. Errors are ES's (see MlService.infer).
 */
import type { SparseVector } from './sparse-encoder.js';

export interface SparseInference {
  /**
   * Encodes `texts` on a started deployment of the model (`id` is a deployment id or a model id
   * with a deployment). Rejects with 404 `resource_not_found_exception` for an unknown id, 409
   * `status_exception` when the model is not deployed, 429 `es_rejected_execution_exception` when
   * the deployment's queue is full, 408 `status_exception` after `timeoutMs`. `purpose: query`
   * (text_expansion, sparse_vector queries) lets an inference-free model weight query tokens from
   * its idf table instead of running the graph; documents are the default.
   */
  infer(id: string, texts: readonly string[], options?: { timeoutMs?: number; purpose?: 'document' | 'query' }): Promise<SparseVector[]>;
  /**
   * The model's first input field name (`input.field_names[0]`), which the inference processor's
   * legacy `field_map` form maps document fields onto; throws as `infer` does for an unknown id.
   */
  inputField?(id: string): string;
}
