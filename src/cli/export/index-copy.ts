/**
 * Copies one index: creates it on the target (settings the target accepts, mappings, aliases),
 * copies its documents (point in time → `_bulk` with their ids, checkpointed after every
 * acknowledged batch), applies the settings held back until the documents are in, and compares
 * the target's `_count` (after a refresh) with what was read.
 */
import { CliError } from '../cli-error.js';
import { errorText, type EsClient } from '../es-client.js';
import { bulkLoad, type BulkLoadSummary } from '../load/bulk-loader.js';
import type { SourceDoc } from '../load/source-reader.js';
import { docsProgress } from '../progress.js';
import { TRANSIENT_STATUSES, requestWithRetry, type RetryOptions } from '../retry.js';
import type { CheckpointFile, IndexProgress } from './checkpoint.js';
import { closePit, readIndex, type ExportDoc } from './pit-reader.js';
import { flattenSettings, planMappings, planSettings, type ServerKind } from './target-translation.js';

export interface IndexCopyOptions {
  batchSize: number;
  concurrency: number;
  retry: RetryOptions;
  keepAlive: string;
  pagesPerSecond: number;
  progress: boolean;
  stopRequested: () => boolean;
  onNote: (note: string) => void;
}

export interface IndexCopyResult {
  index: string;
  /** Documents the source holds (its `_count` when the copy started). */
  sourceCount: number;
  indexed: number;
  failed: number;
  /** The target's `_count` after the copy; undefined when the copy stopped early. */
  targetCount: number | undefined;
  seconds: number;
  bulk: BulkLoadSummary | undefined;
  stopped: boolean;
}

const enc = encodeURIComponent;

/** The index as it is created on the target: its settings, mappings and aliases translated. */
export function createBody(meta: { settings?: any; mappings?: any; aliases?: any }, target: ServerKind): { body: Record<string, unknown>; afterDocuments: Record<string, unknown>; notes: string[] } {
  const settings = planSettings(flattenSettings(meta.settings ?? {}), target);
  const mappings = planMappings(meta.mappings ?? {}, target);
  const body: Record<string, unknown> = { settings: settings.create, mappings: mappings.mappings };
  if (meta.aliases && Object.keys(meta.aliases).length > 0) body.aliases = meta.aliases;
  return { body, afterDocuments: settings.afterDocuments, notes: [...settings.notes, ...mappings.notes] };
}

export async function copyIndex(
  source: EsClient, target: EsClient, targetKind: ServerKind, index: string, meta: any, checkpoint: CheckpointFile, o: IndexCopyOptions,
): Promise<IndexCopyResult> {
  const plan = createBody(meta, targetKind);
  for (const note of plan.notes) o.onNote(`[${index}]: ${note}`);
  let progress: IndexProgress | undefined = checkpoint.index(index);
  if (progress === undefined) {
    const created = await target.request('PUT', `/${enc(index)}`, plan.body, { allow: [400] });
    if (created.status === 400) throw new CliError(`the target refused to create [${index}]: ${errorText(created.body)}`);
    progress = { state: 'copying', indexed: 0, failed: 0 };
    checkpoint.update(index, progress);
  }
  // What was written but not refreshed on the source is part of the export too.
  await source.request('POST', `/${enc(index)}/_refresh`, undefined, { allow: [403] });
  const sourceCount = (await requestWithRetry<{ count: number }>(source, 'GET', `/${enc(index)}/_count`, undefined, o.retry)).body.count;

  const started = performance.now();
  const bar = docsProgress(sourceCount, o.progress, progress.indexed + progress.failed, `${index} `);
  // Batches may finish out of order (--concurrency); the checkpoint moves only past a run of
  // finished batches with no gap, keyed by the ordinal of their first document.
  const finished = new Map<number, { last: ExportDoc; size: number; failed: number }>();
  let next = progress.indexed + progress.failed + 1;
  const p = progress;
  let bulk: BulkLoadSummary;
  try {
    bulk = await bulkLoad(target, readIndex(source, {
      index, pageSize: o.batchSize, keepAlive: o.keepAlive, retry: o.retry, pitId: p.pitId, searchAfter: p.searchAfter,
      firstOrdinal: next, pagesPerSecond: o.pagesPerSecond, stopRequested: o.stopRequested, onNote: o.onNote,
      onPit: (pitId) => checkpoint.update(index, Object.assign(p, { pitId })),
    }), {
      index, batch: o.batchSize, concurrency: o.concurrency, maxRetries: o.retry.maxRetries, backoffMs: o.retry.backoffMs,
      retryStatuses: { request: TRANSIENT_STATUSES, item: TRANSIENT_STATUSES },
      onProgress: (n) => bar.add(n),
      onBatchDone: (batch: readonly SourceDoc[], failed: number) => {
        finished.set(batch[0].line, { last: batch[batch.length - 1] as ExportDoc, size: batch.length, failed });
        let moved = false;
        for (let f = finished.get(next); f !== undefined; f = finished.get(next)) {
          finished.delete(next);
          next += f.size;
          p.indexed += f.size - f.failed;
          p.failed += f.failed;
          p.searchAfter = f.last.sort;
          moved = true;
        }
        if (moved) checkpoint.update(index, p);
      },
    });
  } finally {
    bar.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  if (bulk.resumeFrom !== undefined || o.stopRequested()) {
    return { index, sourceCount, indexed: p.indexed, failed: p.failed, targetCount: undefined, seconds, bulk, stopped: true };
  }
  if (p.pitId !== undefined) await closePit(source, p.pitId);
  if (Object.keys(plan.afterDocuments).length > 0) {
    const res = await target.request('PUT', `/${enc(index)}/_settings`, plan.afterDocuments, { allow: [400] });
    if (res.status === 400) o.onNote(`[${index}]: the target refused ${Object.keys(plan.afterDocuments).join(', ')}: ${errorText(res.body)}`);
  }
  await target.request('POST', `/${enc(index)}/_refresh`);
  const targetCount = (await requestWithRetry<{ count: number }>(target, 'GET', `/${enc(index)}/_count`, undefined, o.retry)).body.count;
  checkpoint.update(index, { state: 'done', indexed: p.indexed, failed: p.failed });
  return { index, sourceCount, indexed: p.indexed, failed: p.failed, targetCount, seconds, bulk, stopped: false };
}
