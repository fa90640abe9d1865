/**
 * Pipelines on the write path (ES IngestService.executeBulkRequest): every document of a request
 * that has pipelines runs through them before anything is indexed, batched per pipeline chain.
 * A document comes out changed (possibly with a new `_index`, `_id` or `_routing`), dropped, or
 * failed; the caller indexes the first kind and reports the others per item.
 */
import type { EsError } from '../errors/index.js';
import { IngestDocument, type JsonMap } from './ingest-document.js';
import { ingestTimestamp, type IngestService } from './ingest-service.js';

export interface WriteDocument {
  readonly index: string;
  readonly id: string | null;
  readonly routing: string | null;
  readonly source: JsonMap;
  /** The pipelines to run, in order (see resolvePipelines); empty = none. */
  readonly pipelines: readonly string[];
}

export type WriteDocumentOutcome =
  | { readonly kind: 'index'; readonly index: string; readonly id: string | null; readonly routing: string | null; readonly source: JsonMap }
  | { readonly kind: 'dropped' }
  | { readonly kind: 'failed'; readonly error: EsError };

export async function runWritePipelines(ingest: IngestService, docs: readonly WriteDocument[]): Promise<WriteDocumentOutcome[]> {
  const timestamp = ingestTimestamp();
  const ingestDocs = docs.map((d) => {
    const meta: JsonMap = { _index: d.index, _id: d.id };
    if (d.routing !== null) meta._routing = d.routing;
    return new IngestDocument(d.source, meta, timestamp);
  });
  const errors = await ingest.execute(docs.map((d, i) => ({ doc: ingestDocs[i], pipelines: d.pipelines })));
  return ingestDocs.map((doc, i): WriteDocumentOutcome => {
    if (errors[i]) return { kind: 'failed', error: errors[i]! };
    if (doc.dropped) return { kind: 'dropped' };
    const m = doc.metadata;
    return {
      kind: 'index',
      index: String(m._index),
      id: m._id === null || m._id === undefined ? null : String(m._id),
      routing: m._routing === null || m._routing === undefined ? null : String(m._routing),
      source: doc.source,
    };
  });
}
