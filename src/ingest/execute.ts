/**
 * Running a pipeline over a batch of documents (ES CompoundProcessor semantics, batched):
 * processors run in order, each over every document still in play, so a batch processor (the
 * inference processor) sees the whole batch at once. For one document, a failing processor
 * - with `ignore_failure` is skipped;
 * - with its own `on_failure` runs those handlers (seeing `_ingest.on_failure_message`,
 *   `_processor_type`, `_processor_tag`, `_pipeline`), then the pipeline goes on;
 * - otherwise fails the document at pipeline level: the pipeline's `on_failure` handlers run and
 *   the rest of the pipeline is skipped, or, without handlers, the document fails with the error.
 * A dropped document leaves the batch. Other documents are never affected by one's failure.
 */
import { EsError, InternalError } from '../errors/index.js';
import type { IngestDocument } from './ingest-document.js';
import type { Pipeline } from './pipeline.js';
import type { ExecutionContext, Processor } from './processor.js';

/** Simulate's verbose mode: called after each processor ran on a document. */
export type ProcessorTrace = (doc: IngestDocument, processor: Processor, status: 'success' | 'error' | 'error_ignored' | 'dropped', error: EsError | null) => void;

interface State {
  readonly doc: IngestDocument;
  error: EsError | null;
  /** The processor whose failure `error` is (what on_failure handlers are told). */
  failedBy: Processor | null;
}

function asEsError(e: unknown): EsError {
  return e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
}

async function runProcessor(p: Processor, states: readonly State[], ctx: ExecutionContext): Promise<Array<EsError | null>> {
  if (p.body.kind === 'batch') return p.body.execute(states.map((s) => s.doc), ctx);
  const body = p.body;
  return states.map((s) => {
    try {
      body.execute(s.doc);
      return null;
    } catch (e) {
      return asEsError(e);
    }
  });
}

const FAILURE_KEYS = ['on_failure_message', 'on_failure_processor_type', 'on_failure_processor_tag', 'on_failure_pipeline'] as const;

/** Runs on_failure handlers for failed documents, which see what failed in `_ingest.on_failure_*`. */
async function handleFailures(handlers: readonly Processor[], states: State[], pipelineId: string, ctx: ExecutionContext, trace?: ProcessorTrace): Promise<void> {
  const saved = states.map((s) => FAILURE_KEYS.map((k) => s.doc.ingest[k]));
  for (const s of states) {
    s.doc.ingest.on_failure_message = s.error!.message;
    s.doc.ingest.on_failure_processor_type = s.failedBy?.type ?? null;
    s.doc.ingest.on_failure_processor_tag = s.failedBy?.tag ?? null;
    s.doc.ingest.on_failure_pipeline = pipelineId;
    s.error = null;
  }
  await runCompound(handlers, [], states, pipelineId, ctx, trace);
  // ES removes the on_failure metadata once the handlers are done (nested handlers restore theirs).
  states.forEach((s, i) => FAILURE_KEYS.forEach((k, j) => {
    if (saved[i][j] === undefined) delete s.doc.ingest[k];
    else s.doc.ingest[k] = saved[i][j];
  }));
}

async function runCompound(
  processors: readonly Processor[], onFailure: readonly Processor[], states: State[], pipelineId: string, ctx: ExecutionContext, trace?: ProcessorTrace,
): Promise<void> {
  const failedHere: State[] = [];
  for (const p of processors) {
    const active = states.filter((s) => s.error === null && !s.doc.dropped);
    if (active.length === 0) break;
    const errors = await runProcessor(p, active, ctx);
    const handled: State[] = [];
    active.forEach((s, i) => {
      const err = errors[i];
      if (err === null) {
        trace?.(s.doc, p, s.doc.dropped ? 'dropped' : 'success', null);
        return;
      }
      if (p.ignoreFailure) {
        trace?.(s.doc, p, 'error_ignored', err);
        return;
      }
      trace?.(s.doc, p, 'error', err);
      s.error = err;
      s.failedBy = p;
      if (p.onFailure.length > 0) handled.push(s);
      else failedHere.push(s);
    });
    if (handled.length > 0) {
      // The failing processor's own handlers: their failures fail the document at this level.
      await handleFailures(p.onFailure, handled, pipelineId, ctx, trace);
      for (const s of handled) if (s.error !== null) failedHere.push(s);
    }
  }
  if (onFailure.length > 0 && failedHere.length > 0) {
    // Pipeline-level handlers: the rest of the pipeline is skipped for these documents.
    const failing = failedHere.filter((s) => s.error !== null);
    await handleFailures(onFailure, failing, pipelineId, ctx, trace);
  }
}

/** Runs `pipeline` over `docs`; per document, its error (null when it went through or was dropped). */
export async function executePipeline(pipeline: Pipeline, docs: readonly IngestDocument[], ctx: ExecutionContext, trace?: ProcessorTrace): Promise<Array<EsError | null>> {
  const states: State[] = docs.map((doc) => ({ doc, error: null, failedBy: null }));
  await runCompound(pipeline.processors, pipeline.onFailure, states, pipeline.id, ctx, trace);
  return states.map((s) => s.error);
}
