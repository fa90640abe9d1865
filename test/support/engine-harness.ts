/**
 * The search engine in one thread, without HTTP or the worker pool: documents → segments
 * (SegmentBuilder + writer, exactly what refresh runs in a worker), index-wide statistics, planning
 * and the shard query phase (exactly what a worker runs). The engine benchmark and the engine
 * correctness tests both drive it, so what they measure and check is the production code path.
 */
import { SegmentStatsSource } from '../../src/search/index.js';
import { DEFAULT_MAX_REGEX_LENGTH } from '../../src/common/pattern/index.js';
import { parseQuery, type QueryNode } from '../../src/dsl/index.js';
import {
  EMPTY_ROOT, SegmentBuilder, docForId, mergeSegments, openSegment, parseRootMapping, readId, resolveMapping, resolveSettings,
  withDeletes, writeSegment, type ResolvedMapping, type RootMapping, type Segment,
} from '../../src/index/index.js';
import { HIT_STRIDE, planQuery, searchShard, type Exec, type ShardSearchRequest, type ShardSearchResult } from '../../src/search/index.js';

export interface HarnessDoc {
  readonly id: string;
  readonly source: Record<string, unknown>;
}

/** A document as the JSON text a client sends (what a build from `_bulk` parses). */
export interface HarnessJsonDoc {
  readonly id: string;
  readonly json: string;
}

export interface EngineHit {
  readonly id: string;
  readonly score: number;
}

export interface EngineResult {
  readonly hits: EngineHit[];
  readonly total: number;
  readonly relation: 'eq' | 'gte';
}

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };

export class InProcessIndex {
  segments: Segment[] = [];
  liveDocs: Array<Uint32Array | null> = [];
  readonly mapping: RootMapping;
  readonly resolved: ResolvedMapping;
  /** Index settings are resolved once, when the index is created, as the coordinator does. */
  private readonly defaultFields = resolveSettings(new Map()).defaultFields;
  private nextOrder = 0;
  private nextSeqNo = 0;
  private generation = 0;

  constructor(mappingJson: unknown = null) {
    this.mapping = mappingJson === null ? EMPTY_ROOT : parseRootMapping(mappingJson);
    this.resolved = resolveMapping(this.mapping);
  }

  /** Adds one segment holding `docs` (in order); earlier copies of their ids are deleted. */
  addSegment(docs: readonly (HarnessDoc | HarnessJsonDoc)[]): void {
    const builder = new SegmentBuilder(this.mapping, LIMITS);
    for (const d of docs) {
      this.deleteIds([d.id]);
      builder.add({ id: d.id, source: 'json' in d ? d.json : JSON.stringify(d.source), seqNo: this.nextSeqNo++, version: 1, indexOrder: this.nextOrder++ });
    }
    this.segments.push(openSegment(`seg${this.generation++}`, writeSegment(builder.finish())));
    this.liveDocs.push(null);
  }

  deleteIds(ids: readonly string[]): void {
    this.segments.forEach((seg, s) => {
      const docs = ids.map((id) => docForId(seg, id)).filter((d) => d >= 0);
      if (docs.length > 0) this.liveDocs[s] = withDeletes(this.liveDocs[s], seg.maxDoc, docs);
    });
  }

  /** Force-merges everything into one segment (what `_forcemerge?max_num_segments=1` does). */
  forceMerge(): void {
    const merged = mergeSegments(this.segments.map((segment, i) => ({ segment, liveDocs: this.liveDocs[i] })));
    this.segments = [openSegment(`seg${this.generation++}`, writeSegment(merged))];
    this.liveDocs = [null];
  }

  plan(query: QueryNode | unknown, now = 0): Exec {
    const node = query === null || (query as { kind?: string }).kind !== undefined ? (query as QueryNode | null) : parseQuery(query);
    return planQuery({
      mapping: this.resolved,
      defaultFields: this.defaultFields,
      maxRegexLength: DEFAULT_MAX_REGEX_LENGTH,
      stats: new SegmentStatsSource(this.segments),
      now,
      index: { name: 'harness', uuid: 'harness' },
    }, node);
  }

  /** The shard query phase over all segments, as one worker task would run it. */
  searchPlan(exec: Exec, options: Partial<ShardSearchRequest> = {}): ShardSearchResult {
    return searchShard({
      query: exec, k: 10, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null,
      terminateAfter: 0, ...options,
    }, { segments: this.segments, liveDocs: this.liveDocs });
  }

  search(query: unknown, options: Partial<ShardSearchRequest> = {}): EngineResult {
    return this.hits(this.searchPlan(this.plan(query), options));
  }

  hits(r: ShardSearchResult): EngineResult {
    const hits: EngineHit[] = [];
    for (let o = 0; o < r.hits.length; o += HIT_STRIDE) {
      hits.push({ id: readId(this.segments[r.hits[o + 1]], r.hits[o + 2]), score: r.hits[o] });
    }
    return { hits, total: r.totalHits, relation: r.totalRelation };
  }
}
