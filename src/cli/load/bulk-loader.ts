/**
 * Sends documents to `_bulk` in batches with a fixed number of requests in flight, the way the ES
 * clients' bulk helpers do: a request or an item answered 429 (es_rejected_execution_exception, or
 * indexing pressure) is retried with exponential back-off and jitter; any other item failure is
 * recorded (counts by type, the first few in full) and the load goes on. Used by `load` (documents
 * from a file) and `export` (documents from another server, with their ids and routing).
 */
import { CliError, EXIT } from '../cli-error.js';
import type { EsClient } from '../es-client.js';
import { defaultBackoff, sleep } from '../retry.js';
import type { SourceDoc } from './source-reader.js';

export interface BulkLoadOptions {
  index: string;
  pipeline?: string;
  batch: number;
  concurrency: number;
  maxRetries: number;
  /** Called with the number of documents acknowledged (indexed or failed for good). */
  onProgress?: (docs: number) => void;
  /** Back-off before retry `attempt` (0-based), ms; the default doubles from 100 ms up to 10 s, jittered. */
  backoffMs?: (attempt: number) => number;
  /** Checked before each batch is read: true stops reading (in-flight batches still finish). */
  stopRequested?: () => boolean;
  /**
   * Statuses of a whole `_bulk` answer, and of single items, that are sent again. The default
   * (429 and 503 for requests, 429 for items) suits documents without ids, where a retried 500
   * could index a document twice; with explicit ids every status that may pass can be retried.
   */
  retryStatuses?: { request: readonly number[]; item: readonly number[] };
  /** Called once per batch when every document of it is acknowledged: `failed` of them failed for good. */
  onBatchDone?: (batch: readonly SourceDoc[], failed: number) => void;
}

export interface ItemFailure {
  line: number;
  id: string | undefined;
  status: number;
  type: string;
  reason: string;
}

export interface BulkLoadSummary {
  indexed: number;
  failed: number;
  failuresByType: Record<string, number>;
  /** The first FIRST_FAILURES failures, in the order they came back. */
  firstFailures: ItemFailure[];
  /** Requests and items sent again after a 429. */
  retried: number;
  requests: number;
  seconds: number;
  /** The line to pass to --resume-from when reading stopped early; undefined when the file was read to the end. */
  resumeFrom: number | undefined;
}

const FIRST_FAILURES = 5;
const LOAD_RETRY_STATUSES = { request: [429, 503], item: [429] };

export async function bulkLoad(client: EsClient, docs: AsyncIterable<SourceDoc>, options: BulkLoadOptions): Promise<BulkLoadSummary> {
  const backoff = options.backoffMs ?? defaultBackoff;
  const retryOn = options.retryStatuses ?? LOAD_RETRY_STATUSES;
  const path = `/_bulk${options.pipeline ? `?pipeline=${encodeURIComponent(options.pipeline)}` : ''}`;
  const summary: BulkLoadSummary = { indexed: 0, failed: 0, failuresByType: {}, firstFailures: [], retried: 0, requests: 0, seconds: 0, resumeFrom: undefined };
  const fail = (doc: SourceDoc, status: number, type: string, reason: string) => {
    summary.failed++;
    summary.failuresByType[type] = (summary.failuresByType[type] ?? 0) + 1;
    if (summary.firstFailures.length < FIRST_FAILURES) summary.firstFailures.push({ line: doc.line, id: doc.id, status, type, reason: reason.slice(0, 300) });
  };
  const action = (doc: SourceDoc) =>
    JSON.stringify({ index: { _index: options.index, ...(doc.id === undefined ? {} : { _id: doc.id }), ...(doc.routing === undefined ? {} : { routing: doc.routing }) } }) +
    '\n' + JSON.stringify(doc.source) + '\n';

  const send = async (batch: SourceDoc[]): Promise<void> => {
    let pending = batch;
    const failedInBatch = new Set<SourceDoc>();
    const failBatch = (doc: SourceDoc, status: number, type: string, reason: string) => {
      failedInBatch.add(doc);
      fail(doc, status, type, reason);
    };
    for (let attempt = 0; pending.length > 0; attempt++) {
      summary.requests++;
      const res = await client.request<any>('POST', path, pending.map(action).join(''), { ndjson: true, allow: [...retryOn.request, 413] });
      if (res.status === 413) throw new CliError(`a batch of ${pending.length} documents is larger than the server accepts (413); lower --batch`);
      let retry: SourceDoc[] = [];
      let lastStatus = res.status;
      let lastType = 'es_rejected_execution_exception';
      if (retryOn.request.includes(res.status)) {
        retry = pending;
        lastType = res.body?.error?.type ?? lastType;
      } else {
        const items = (res.body?.items ?? []) as Array<Record<string, { status: number; error?: { type?: string; reason?: string } }>>;
        if (items.length !== pending.length) throw new CliError(`_bulk answered ${items.length} items for ${pending.length} documents`);
        for (let i = 0; i < pending.length; i++) {
          const item = Object.values(items[i])[0];
          if (retryOn.item.includes(item.status)) {
            retry.push(pending[i]);
            lastStatus = item.status;
            lastType = item.error?.type ?? lastType;
          } else if (item.error) failBatch(pending[i], item.status, item.error.type ?? 'error', item.error.reason ?? '');
          else summary.indexed++;
        }
      }
      options.onProgress?.(pending.length - retry.length);
      if (retry.length === 0) break;
      if (attempt >= options.maxRetries) {
        for (const doc of retry) failBatch(doc, lastStatus, lastType, `still rejected after ${options.maxRetries} retries`);
        options.onProgress?.(retry.length);
        break;
      }
      summary.retried += retry.length === pending.length && res.status !== 200 ? 1 : retry.length;
      pending = retry;
      await sleep(backoff(attempt));
    }
    options.onBatchDone?.(batch, failedInBatch.size);
  };

  const started = performance.now();
  const inFlight = new Set<Promise<void>>();
  let firstError: unknown;
  let batch: SourceDoc[] = [];
  const dispatch = async () => {
    const p = send(batch).catch((e) => {
      firstError ??= e;
    });
    batch = [];
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
  };
  let nextLine: number | undefined;
  for await (const doc of docs) {
    if (firstError !== undefined) break;
    if (batch.length === 0 && options.stopRequested?.()) {
      nextLine = doc.line;
      break;
    }
    batch.push(doc);
    if (batch.length >= options.batch) await dispatch();
  }
  if (batch.length > 0 && firstError === undefined) await dispatch();
  await Promise.all(inFlight);
  summary.seconds = (performance.now() - started) / 1000;
  if (firstError !== undefined) throw firstError;
  summary.resumeFrom = nextLine;
  return summary;
}

/** Exit code for a finished load: documents rejected → partial. */
export function loadExitCode(summary: BulkLoadSummary): number {
  if (summary.resumeFrom !== undefined) return EXIT.interrupted;
  return summary.failed > 0 ? EXIT.partial : EXIT.ok;
}
