/**
 * Reads every document of one index through a point in time, in `_shard_doc` order with
 * `search_after` (ES's recommended way to read a whole index consistently): one page per batch,
 * with each document's id, routing and sort values. A point in time that expired (a resume after
 * its keep-alive, a long pause) is opened again and reading continues after the same sort values,
 * which is exact when the source was not written to in between.
 */
import { CliError } from '../cli-error.js';
import { errorText, type EsClient } from '../es-client.js';
import type { SourceDoc } from '../load/source-reader.js';
import { requestWithRetry, sleep, type RetryOptions } from '../retry.js';

export interface ExportDoc extends SourceDoc {
  /** The hit's sort values: where to continue after this document. */
  sort: unknown[];
}

export interface PitReaderOptions {
  index: string;
  pageSize: number;
  /** How long the source keeps the point in time between pages. */
  keepAlive: string;
  retry: RetryOptions;
  /** The point in time of an interrupted run, reused while it lives. */
  pitId?: string;
  searchAfter?: unknown[];
  /** Ordinal of the first document read (documents already acknowledged + 1). */
  firstOrdinal: number;
  /** Pages per second at most (0: as fast as the target takes them). */
  pagesPerSecond: number;
  /** Called with the point in time whenever one is opened (the checkpoint records it). */
  onPit: (pitId: string) => void;
  /** Called with the note to print when the point in time had to be opened again. */
  onNote: (note: string) => void;
  /** Stops reading between pages. */
  stopRequested: () => boolean;
}

export async function openPit(client: EsClient, index: string, keepAlive: string, retry: RetryOptions): Promise<string> {
  const res = await requestWithRetry<{ id: string }>(client, 'POST', `/${encodeURIComponent(index)}/_pit?keep_alive=${keepAlive}`, undefined, retry);
  return res.body.id;
}

export async function closePit(client: EsClient, pitId: string): Promise<void> {
  await client.request('DELETE', '/_pit', { id: pitId }, { allow: [404] });
}

export async function* readIndex(client: EsClient, o: PitReaderOptions): AsyncGenerator<ExportDoc> {
  let pitId = o.pitId ?? (await openPit(client, o.index, o.keepAlive, o.retry));
  if (pitId !== o.pitId) o.onPit(pitId);
  let after = o.searchAfter;
  let ordinal = o.firstOrdinal;
  const minPageMs = o.pagesPerSecond > 0 ? 1000 / o.pagesPerSecond : 0;
  let lastPage = 0;
  let reopened = false;
  for (;;) {
    if (o.stopRequested()) return;
    const wait = lastPage + minPageMs - performance.now();
    if (wait > 0) await sleep(wait);
    lastPage = performance.now();
    const body = {
      size: o.pageSize,
      pit: { id: pitId, keep_alive: o.keepAlive },
      sort: [{ _shard_doc: 'asc' }],
      track_total_hits: false,
      ...(after === undefined ? {} : { search_after: after }),
    };
    const res = await requestWithRetry<any>(client, 'POST', '/_search', body, { ...o.retry, allow: [404] });
    if (res.status === 404) {
      // search_context_missing_exception: the point in time expired between pages or runs. Once
      // per page: a fresh point in time that is missing too means something else is wrong.
      if (!contextMissing(res.body) || reopened) {
        throw new CliError(`reading [${o.index}] failed: 404 ${errorText(res.body)}`);
      }
      reopened = true;
      pitId = await openPit(client, o.index, o.keepAlive, o.retry);
      o.onPit(pitId);
      o.onNote(`[${o.index}]: the point in time expired; reading continues in a new one after the last copied document`);
      continue;
    }
    reopened = false;
    // A point in time's id may change from page to page (ES returns the one to use next).
    if (typeof res.body.pit_id === 'string' && res.body.pit_id !== pitId) {
      pitId = res.body.pit_id;
      o.onPit(pitId);
    }
    const hits = res.body.hits?.hits ?? [];
    for (const hit of hits) {
      yield {
        line: ordinal++,
        id: hit._id,
        source: hit._source ?? {},
        ...(typeof hit._routing === 'string' ? { routing: hit._routing } : {}),
        sort: hit.sort,
      };
    }
    if (hits.length < o.pageSize) return;
    after = hits[hits.length - 1].sort;
  }
}

/** ES answers an expired point in time with search_phase_execution_exception caused by search_context_missing_exception. */
function contextMissing(body: any): boolean {
  const err = body?.error;
  return err?.type === 'search_context_missing_exception' || err?.caused_by?.type === 'search_context_missing_exception' ||
    (Array.isArray(err?.root_cause) && err.root_cause.some((c: any) => c?.type === 'search_context_missing_exception'));
}
