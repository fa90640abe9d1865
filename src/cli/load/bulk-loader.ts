/**
 * Sends documents to `_bulk` in batches with a fixed number of requests in flight, the way the ES
 * clients' bulk helpers do: a request or an item answered 429 (es_rejected_execution_exception, or
 * indexing pressure) is retried with exponential back-off and jitter; any other item failure is
 * recorded (counts by type, the first few in full) and the load goes on.
 */
import { CliError, EXIT } from '../cli-error.js';
import type { EsClient } from '../es-client.js';
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

function defaultBackoff(attempt: number): number {
  const base = Math.min(10_000, 100 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function bulkLoad(client: EsClient, docs: AsyncIterable<SourceDoc>, options: BulkLoadOptions): Promise<BulkLoadSummary> {
  const backoff = options.backoffMs ?? defaultBackoff;
  const path = `/_bulk${options.pipeline ? `?pipeline=${encodeURIComponent(options.pipeline)}` : ''}`;
  const summary: BulkLoadSummary = { indexed: 0, failed: 0, failuresByType: {}, firstFailures: [], retried: 0, requests: 0, seconds: 0, resumeFrom: undefined };
  const fail = (doc: SourceDoc, status: number, type: string, reason: string) => {
    summary.failed++;
    summary.failuresByType[type] = (summary.failuresByType[type] ?? 0) + 1;
    if (summary.firstFailures.length < FIRST_FAILURES) summary.firstFailures.push({ line: doc.line, id: doc.id, status, type, reason: reason.slice(0, 300) });
  };
  const action = (doc: SourceDoc) =>
    JSON.stringify({ index: doc.id === undefined ? { _index: options.index } : { _index: options.index, _id: doc.id } }) + '\n' + JSON.stringify(doc.source) + '\n';

  const send = async (batch: SourceDoc[]): Promise<void> => {
    let pending = batch;
    for (let attempt = 0; pending.length > 0; attempt++) {
      summary.requests++;
      const res = await client.request<any>('POST', path, pending.map(action).join(''), { ndjson: true, allow: [429, 503, 413] });
      if (res.status === 413) throw new CliError(`a batch of ${pending.length} documents is larger than the server accepts (413); lower --batch`);
      let retry: SourceDoc[] = [];
      if (res.status === 429 || res.status === 503) {
        retry = pending;
      } else {
        const items = (res.body?.items ?? []) as Array<Record<string, { status: number; error?: { type?: string; reason?: string } }>>;
        if (items.length !== pending.length) throw new CliError(`_bulk answered ${items.length} items for ${pending.length} documents`);
        for (let i = 0; i < pending.length; i++) {
          const item = Object.values(items[i])[0];
          if (item.status === 429) retry.push(pending[i]);
          else if (item.error) fail(pending[i], item.status, item.error.type ?? 'error', item.error.reason ?? '');
          else summary.indexed++;
        }
      }
      options.onProgress?.(pending.length - retry.length);
      if (retry.length === 0) return;
      if (attempt >= options.maxRetries) {
        for (const doc of retry) fail(doc, 429, 'es_rejected_execution_exception', `still rejected after ${options.maxRetries} retries`);
        options.onProgress?.(retry.length);
        return;
      }
      summary.retried += retry.length === pending.length && res.status !== 200 ? 1 : retry.length;
      pending = retry;
      await sleep(backoff(attempt));
    }
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
