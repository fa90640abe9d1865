/**
 * Planned queries kept for the next request with the same parsed query (load tests repeat a fixed
 * set of query bodies; the parsed-request cache in http/search.ts hands back the same QueryNode for
 * the same body bytes). A plan depends on the query, the index's mapping and settings, and the
 * index-wide term statistics of the segments searched: an entry is used only while the index has
 * the same mapping and settings objects (both are replaced on every change) and the search reads
 * exactly the same segments (a refresh, merge or delete publishes new ones: the index generation).
 * Plans that read `now` (date math) are never stored.
 *
 * Keys are held weakly: an entry lives as long as its QueryNode does, so the parsed-request cache's
 * bound is this cache's bound too.
 */
import type { QueryNode } from '../../dsl/index.js';
import type { Segment } from '../../index/index.js';
import type { Exec } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';
import { sharePlan } from '../search-channel.js';

class Entry {
  /** The plans of a search of this index alone, made once: a one-index search takes this instead of a map of its own. */
  private only: ReadonlyMap<IndexService, Exec> | null = null;

  constructor(
    readonly segments: readonly Segment[],
    readonly mapping: IndexService['resolvedMapping'],
    readonly settings: IndexService['resolvedSettings'],
    readonly exec: Exec,
  ) {}

  alone(index: IndexService): ReadonlyMap<IndexService, Exec> {
    return (this.only ??= new Map([[index, this.exec]]));
  }
}

export class PlanCache {
  private readonly byQuery = new WeakMap<QueryNode, Map<IndexService, Entry>>();
  /** Lookups answered from the cache and not (for `_nodes/stats`-style diagnostics and tests). */
  hits = 0;
  misses = 0;

  get(index: IndexService, query: QueryNode, segments: readonly Segment[]): Exec | undefined {
    return this.entry(index, query, segments)?.exec;
  }

  /** The entry for `query` on `index` over exactly `segments`, if kept (its `exec`, or `alone` for a one-index search). */
  entry(index: IndexService, query: QueryNode, segments: readonly Segment[]): Entry | undefined {
    const e = this.byQuery.get(query)?.get(index);
    if (e !== undefined && e.mapping === index.resolvedMapping && e.settings === index.resolvedSettings && sameSegments(e.segments, segments)) {
      this.hits++;
      return e;
    }
    this.misses++;
    return undefined;
  }

  set(index: IndexService, query: QueryNode, segments: readonly Segment[], exec: Exec): void {
    let perIndex = this.byQuery.get(query);
    if (perIndex === undefined) this.byQuery.set(query, (perIndex = new Map()));
    perIndex.set(index, new Entry(segments, index.resolvedMapping, index.resolvedSettings, exec));
    // Reused by later searches: each worker channel gets its tree once (search-channel.ts).
    sharePlan(exec);
  }
}

function sameSegments(a: readonly Segment[], b: readonly Segment[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
