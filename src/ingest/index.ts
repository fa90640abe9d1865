/**
 * ingest/ — ingest pipelines (ES ingest-common + the ML inference processor): definitions parsed
 * with ES's validation errors, one file per processor plus a registry, batched execution with
 * `on_failure` / `ignore_failure` / `tag`, `_simulate`, and the pipeline store (a cluster-state
 * section, persisted through a callback). Imports ml/ (the SparseInference interface), index/ and
 * leaves; never cluster/, storage/ or http/. Invariant: a batch processor gets every document of a
 * batch in one call, and one document's failure never affects another.
 */
export { IngestDocument, javaType, type JsonMap } from './ingest-document.js';
export type { Processor, ProcessorBody, ExecutionContext } from './processor.js';
export { parsePipeline, type Pipeline } from './pipeline.js';
export { PROCESSOR_TYPES } from './registry.js';
export { executePipeline } from './execute.js';
export { IngestService, NO_PIPELINE, resolvePipelines, ingestTimestamp, type IngestRequest, type IngestState } from './ingest-service.js';
export { simulatePipeline } from './simulate.js';
export { tokenWeights } from './processors/inference.js';
export { runWritePipelines, type WriteDocument, type WriteDocumentOutcome } from './write-pipelines.js';
