/** The body ES returns for one write (single-document APIs and each bulk item). */
import type { IndexService, WriteResult } from '../cluster/index.js';
import { filterSource, type SourceFilter } from '../common/source-filter.js';

type ShardsSection = Readonly<{ total: number; successful: number; failed: number }>;

const NO_SHARDS: ShardsSection = Object.freeze({ total: 0, successful: 0, failed: 0 });
/** One `_shards` section per replica count, shared by every response (a bulk renders thousands). */
const writtenShards: ShardsSection[] = [];

export function shardsWritten(index: IndexService, result: string): ShardsSection {
  if (result === 'noop') return NO_SHARDS;
  const replicas = index.resolvedSettings.numberOfReplicas;
  return (writtenShards[replicas] ??= Object.freeze({ total: 1 + replicas, successful: 1, failed: 0 }));
}

export function writeBody(index: IndexService, r: Pick<WriteResult, 'id' | 'version' | 'seqNo' | 'primaryTerm'> & { result: string }, forcedRefresh: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    _index: index.name,
    _id: r.id,
    _version: r.version,
    result: r.result,
    _shards: shardsWritten(index, r.result),
    _seq_no: r.seqNo,
    _primary_term: r.primaryTerm,
  };
  if (forcedRefresh) body.forced_refresh = true;
  return body;
}

/**
 * The `get` section of an update response (ES UpdateResponse + GetResult.toXContentEmbedded) when
 * the request asked for `_source`: the document as the update left it, filtered as asked.
 */
export function updateGetSection(index: IndexService, id: string, routing: string | null, filter: SourceFilter | null): Record<string, unknown> | null {
  if (filter === null || !filter.fetch) return null;
  const doc = index.get(id, routing);
  const get: Record<string, unknown> = { _seq_no: doc.seqNo, _primary_term: doc.primaryTerm, found: doc.found };
  if (doc.source !== null) {
    const source = JSON.parse(doc.source) as Record<string, unknown>;
    get._source = filter.includes.length > 0 || filter.excludes.length > 0 ? filterSource(source, filter) : source;
  }
  return get;
}

export function writeStatus(result: string): number {
  return result === 'created' ? 201 : result === 'not_found' ? 404 : 200;
}
