/**
 * `GET|POST /{index}/_explain/{id}` (ES TransportExplainAction): the query planned for the index as
 * a search would plan it (index-wide statistics over the shards' current snapshots, alias filters),
 * the document found by `_id` in its shard's snapshot, and the explanation of its score computed
 * from the same scorers the query phase runs (search/explain.ts) — so `explanation.value` is the
 * `_score` a search over the index gives the document. One document of one segment: it runs in
 * the coordinator, as the fetch phase does.
 */
import { float32ToJson } from '../../common/float-json.js';
import { docForId, isLive, type Segment } from '../../index/index.js';
import type { QueryNode } from '../../dsl/index.js';
import type { SparseInference } from '../../ml/index.js';
import { explainDoc, planQuery, type Exec, type Explanation } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';
import type { IndicesService } from '../indices/indices-service.js';
import { resolveQueryInference } from './query-inference.js';
import { SegmentStatsSource } from '../../search/index.js';

/** The live copy of a document in its shard's current snapshot, or null. */
export function locateDocument(index: IndexService, id: string, routing: string | null): { segment: Segment; doc: number } | null {
  const shard = index.shardFor(id, routing);
  const segments = shard.snapshot.segments;
  // Newer segments last; an updated document has one live copy, so any order finds the same one.
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i];
    const doc = docForId(s.reader, id);
    if (doc >= 0 && (s.liveDocs === null || isLive(s.liveDocs, doc))) return { segment: s.reader, doc };
  }
  return null;
}

/** The query of a search over `index` alone, planned as the search flow plans it. */
export function planForIndex(indices: IndicesService, index: IndexService, query: QueryNode | null): { exec: Exec; stats: SegmentStatsSource } {
  const resolved = indices.resolve(index.name);
  const stats = new SegmentStatsSource(index.shards.flatMap((s) => s.snapshot.segments.map((seg) => seg.reader)));
  const exec = planQuery({
    mapping: index.resolvedMapping, defaultFields: index.resolvedSettings.defaultFields, maxRegexLength: index.resolvedSettings.maxRegexLength, stats, now: Date.now(), index: { name: index.name, uuid: index.uuid },
  }, indices.searchQuery(resolved, index, query));
  return { exec, stats };
}

export function renderExplanation(e: Explanation): string {
  return `{"value":${float32ToJson(e.value)},"description":${JSON.stringify(e.description)},"details":[${e.details.map(renderExplanation).join(',')}]}`;
}

export async function explainDocument(
  indices: IndicesService, inference: SparseInference | null, name: string, id: string, routing: string | null, query: QueryNode | null,
): Promise<{ status: number; body: string }> {
  const resolvedQuery = await resolveQueryInference(query, inference);
  const index = indices.require(name);
  // As ES's explain action: a search-idle shard that owes a refresh refreshes before it is read.
  const owed = index.awaitSearchActive();
  if (owed !== null) await owed;
  const indexJson = JSON.stringify(index.name);
  const { exec, stats } = planForIndex(indices, index, resolvedQuery);
  const found = locateDocument(index, id, routing);
  if (!found) return { status: 404, body: `{"_index":${indexJson},"_id":${JSON.stringify(id)},"matched":false}` };
  const { matched, explanation } = explainDoc(exec, found.segment, found.doc, stats);
  return { status: 200, body: `{"_index":${indexJson},"_id":${JSON.stringify(id)},"matched":${matched},"explanation":${renderExplanation(explanation)}}` };
}
