/**
 * What a processor is once parsed: its ES type, the common options every processor takes (`tag`,
 * `description`, `ignore_failure`, `on_failure`) and its body. Most bodies change one document
 * synchronously; a batch body (the inference processor) sees every document of a bulk or reindex
 * batch at once, so a model deployment gets one request per batch instead of one per document.
 */
import type { EsError } from '../errors/index.js';
import type { SparseInference } from '../ml/index.js';
import type { IngestDocument } from './ingest-document.js';

/** What processors may call while running. */
export interface ExecutionContext {
  readonly inference: SparseInference;
}

export type ProcessorBody =
  | { readonly kind: 'document'; execute(doc: IngestDocument): void }
  /** Per document: null on success, else its error; the array lines up with `docs`. */
  | { readonly kind: 'batch'; execute(docs: readonly IngestDocument[], ctx: ExecutionContext): Promise<Array<EsError | null>> };

export interface Processor {
  readonly type: string;
  readonly tag: string | null;
  readonly description: string | null;
  readonly ignoreFailure: boolean;
  readonly onFailure: readonly Processor[];
  readonly body: ProcessorBody;
}
