/**
 * Scroll and point-in-time search contexts (ES SearchService's reader contexts): each holds the
 * segment snapshots of its shards as they were when it opened — and keeps their buffers in the
 * search pool (`SearchPool.hold`) — so every page sees one point in time while refreshes and
 * merges go on; expiry or clearing lets go of them, after which merged-away segments are freed.
 *
 * Pages are searches over the held snapshots sorted by the request's sort (else score) and then
 * `_shard_doc` — index position and write order, unique per document — continuing after the last
 * hit of the previous page. A scroll hides that tiebreaker and reports its first page's total on
 * every page, as ES does; a point in time shows it (ES's implicit `_shard_doc`).
 *
 * Ids are opaque base64 strings naming a context number; contexts expire `keep_alive` after their
 * last use, checked on access and by a one-second sweep.
 */
import { randomBytes } from 'node:crypto';
import { IllegalArgumentError, SearchContextMissingError, SearchPhaseExecutionError, TooManyScrollContextsError } from '../../errors/index.js';
import { parseTimeValue } from '../../common/time-value.js';
import type { JsonPieces } from '../../common/json-pieces.js';
import type { SearchRequest, SortSpec } from '../../dsl/index.js';
import type { SortValue } from '../../search/index.js';
import type { IndicesService } from '../indices/indices-service.js';
import { awaitSearchActive, type IndexService } from '../indices/index-service.js';
import type { ResolveOptions } from '../indices/index-resolver.js';
import type { SearchPool } from '../search-pool.js';
import { NODE_ID, type SearchOptions, type SearchService, type ShardTarget } from './search-service.js';

export interface SearchContextLimits {
  /** `search.max_open_scroll_context` (ES default 500). */
  readonly maxOpenScrollContexts: number;
  /** `search.max_keep_alive` in ms (ES default 24h). */
  readonly maxKeepAliveMs: number;
}

export const DEFAULT_SEARCH_CONTEXT_LIMITS: SearchContextLimits = { maxOpenScrollContexts: 500, maxKeepAliveMs: 24 * 3600 * 1000 };

interface SearchContext {
  readonly id: number;
  readonly kind: 'scroll' | 'pit';
  readonly targets: readonly ShardTarget[];
  /** The resolved indices (IndicesService remembers the expression, so alias filters apply). */
  readonly indices: readonly IndexService[];
  keepAliveMs: number;
  expiresAt: number;
  readonly release: () => void;
  /** Scroll only: the request, where its last page ended, and its total. */
  request?: SearchRequest;
  after?: readonly SortValue[] | null;
  total?: { readonly value: number; readonly gte: boolean };
  searchOptions?: SearchOptions;
  /** A page is being searched: the next one must wait for its `after`. */
  busy?: Promise<unknown>;
}

const TIEBREAKER: SortSpec = { kind: 'shard_doc', order: 'asc' };
const SCORE: SortSpec = { kind: 'score', order: 'desc' };

export class SearchContexts {
  private readonly contexts = new Map<number, SearchContext>();
  private next = 1;
  /** Distinguishes this node's ids from a previous run's (a restart forgets every context). */
  private readonly nodeToken = randomBytes(6).toString('base64url');
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly indices: IndicesService,
    private readonly search: SearchService,
    private readonly pool: SearchPool,
    private limits: SearchContextLimits = DEFAULT_SEARCH_CONTEXT_LIMITS,
  ) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), 1000);
    this.sweeper.unref();
  }

  /** `search.max_open_scroll_context` changed through the cluster settings. */
  setMaxOpenScrollContexts(max: number): void {
    this.limits = { ...this.limits, maxOpenScrollContexts: max };
  }

  /** Open contexts by kind (for stats and tests). */
  openCount(kind: 'scroll' | 'pit'): number {
    let n = 0;
    for (const c of this.contexts.values()) if (c.kind === kind) n++;
    return n;
  }

  /** Bytes of the distinct segment and live-docs buffers the open contexts hold (for measurements). */
  heldBytes(): number {
    const seen = new Map<string, number>();
    for (const c of this.contexts.values()) {
      for (const t of c.targets) {
        for (const s of t.snapshot.segments) {
          seen.set(s.id, s.sab.byteLength);
          if (s.liveDocs !== null && s.liveDocsId !== null) seen.set(s.liveDocsId, s.liveDocs.byteLength);
        }
      }
    }
    let total = 0;
    for (const b of seen.values()) total += b;
    return total;
  }

  /** `keep_alive` / `scroll` → ms, within `search.max_keep_alive`. */
  keepAlive(value: string, name: string): number {
    const ms = parseTimeValue(value, name);
    if (ms > this.limits.maxKeepAliveMs) {
      throw new IllegalArgumentError(`Keep alive for request (${value}) is too large. It must be less than (${formatMs(this.limits.maxKeepAliveMs)}). This limit can be set by changing the [search.max_keep_alive] cluster level setting.`);
    }
    return ms;
  }

  private async open(kind: 'scroll' | 'pit', expression: string | undefined, keepAliveMs: number, resolve: ResolveOptions | undefined): Promise<SearchContext> {
    const indices = this.indices.resolve(expression, resolve);
    const owed = awaitSearchActive(indices);
    if (owed !== null) await owed;
    // From here to the context's registration in one tick: the limit holds, the snapshots are current.
    this.sweep(Date.now());
    if (kind === 'scroll' && this.openCount('scroll') >= this.limits.maxOpenScrollContexts) {
      throw new SearchPhaseExecutionError('query', [{ shard: -1, index: expression ?? '_all', node: NODE_ID, cause: new TooManyScrollContextsError(this.limits.maxOpenScrollContexts) }]);
    }
    const targets: ShardTarget[] = [];
    indices.forEach((index, indexPos) => {
      for (const shard of index.shards) targets.push({ index, indexPos, shardId: shard.shardId, snapshot: shard.snapshot });
    });
    const release = this.pool.hold(targets.flatMap((t) => t.snapshot.segments.map((s) => ({ segment: s.id, liveDocs: s.liveDocsId }))));
    const context: SearchContext = { id: this.next++, kind, targets, indices, keepAliveMs, expiresAt: Date.now() + keepAliveMs, release };
    this.contexts.set(context.id, context);
    return context;
  }

  private encode(c: SearchContext): string {
    return Buffer.from(`${c.kind}:${this.nodeToken}:${c.id}`).toString('base64url');
  }

  /** The context an id names (kept alive `keepAliveMs` more when given), or ES's errors. */
  private lookup(id: string, kind: 'scroll' | 'pit', keepAliveMs: number | null): SearchContext {
    const m = /^(scroll|pit):([A-Za-z0-9_-]+):(\d+)$/.exec(Buffer.from(id, 'base64url').toString('latin1'));
    if (!m || m[1] !== kind) throw new IllegalArgumentError(kind === 'scroll' ? 'Cannot parse scroll id' : `invalid id: [${id.slice(0, 64)}]`);
    const n = Number(m[3]);
    const c = m[2] === this.nodeToken ? this.contexts.get(n) : undefined;
    const now = Date.now();
    if (c && c.expiresAt <= now) this.free(c);
    if (!c || c.expiresAt <= now) {
      throw new SearchPhaseExecutionError('query', [{ shard: -1, index: '_na_', node: NODE_ID, cause: new SearchContextMissingError(n) }]);
    }
    if (keepAliveMs !== null) c.keepAliveMs = keepAliveMs;
    c.expiresAt = now + c.keepAliveMs;
    return c;
  }

  private free(c: SearchContext): boolean {
    if (!this.contexts.delete(c.id)) return false;
    c.release();
    return true;
  }

  private sweep(now: number): void {
    for (const c of this.contexts.values()) if (c.expiresAt <= now) this.free(c);
  }

  // ---- scroll -----------------------------------------------------------------------------------

  /** `_search?scroll=`: opens a scroll context and returns its first page with `_scroll_id`. */
  async startScroll(expression: string | undefined, req: SearchRequest, keepAliveMs: number, opts: SearchOptions): Promise<JsonPieces> {
    const c = await this.open('scroll', expression, keepAliveMs, opts.resolve);
    const request: SearchRequest = { ...req, sort: [...(req.sort ?? [SCORE]), TIEBREAKER] };
    c.request = request;
    c.searchOptions = opts;
    try {
      const first = await this.page(c, req.sort === null ? 0 : req.sort.length);
      // ES reads `include_named_queries_score` from the request that renders the hits, and
      // `_search/scroll` takes no such parameter: later pages show names only.
      if (opts.includeNamedQueriesScore) c.searchOptions = { ...opts, includeNamedQueriesScore: false };
      return first;
    } catch (e) {
      this.free(c);
      throw e;
    }
  }

  /** `POST /_search/scroll`: the next page after the last one returned. */
  async continueScroll(id: string, keepAliveMs: number | null): Promise<JsonPieces> {
    const c = this.lookup(id, 'scroll', keepAliveMs);
    const visible = c.request!.sort!.length - 1;
    // Pages of one scroll are sequential: a page starts where the previous one ended.
    const previous = c.busy;
    const run = (async () => {
      await previous?.catch(() => undefined);
      return this.page(c, visible);
    })();
    c.busy = run;
    return run;
  }

  private async page(c: SearchContext, visibleSortKeys: number): Promise<JsonPieces> {
    const outcome = await this.search.search(undefined, c.request!, {
      ...c.searchOptions,
      context: { targets: c.targets, indices: c.indices, visibleSortKeys, total: c.total ?? null, searchAfter: c.after ?? null, scroll: true },
    });
    c.total ??= outcome.total;
    if (outcome.lastSort) c.after = outcome.lastSort;
    return outcome.body.withFirstMember(`"_scroll_id":${JSON.stringify(this.encode(c))}`);
  }

  /** `DELETE /_search/scroll`: frees the named scrolls (or all with `_all`); how many there were. */
  clearScrolls(ids: readonly string[] | 'all'): number {
    if (ids === 'all') {
      let n = 0;
      for (const c of [...this.contexts.values()]) if (c.kind === 'scroll' && this.free(c)) n++;
      return n;
    }
    let n = 0;
    for (const id of ids) {
      try {
        if (this.free(this.lookup(id, 'scroll', null))) n++;
      } catch (e) {
        if (e instanceof IllegalArgumentError) throw e;
      }
    }
    return n;
  }

  // ---- point in time ----------------------------------------------------------------------------

  /** `POST /{index}/_pit?keep_alive=`: the id and the shards it covers. */
  async openPointInTime(expression: string, keepAliveMs: number, resolve: ResolveOptions | undefined): Promise<{ id: string; shards: number }> {
    const c = await this.open('pit', expression, keepAliveMs, resolve);
    return { id: this.encode(c), shards: c.targets.length };
  }

  /** `DELETE /_pit`: whether the point in time was open. */
  closePointInTime(id: string): boolean {
    try {
      return this.free(this.lookup(id, 'pit', null));
    } catch (e) {
      if (e instanceof IllegalArgumentError) throw e;
      return false;
    }
  }

  /** A search with `pit`: over the held snapshots, `_shard_doc` appended to the sort unless given. */
  async searchPointInTime(req: SearchRequest, opts: SearchOptions): Promise<JsonPieces> {
    const ref = req.pit!;
    const c = this.lookup(ref.id, 'pit', ref.keepAlive === null ? null : this.keepAlive(ref.keepAlive, 'keep_alive'));
    const sort = req.sort ?? [SCORE];
    const request: SearchRequest = { ...req, sort: sort.some((s) => s.kind === 'shard_doc') ? sort : [...sort, TIEBREAKER] };
    const outcome = await this.search.search(undefined, request, { ...opts, context: { targets: c.targets, indices: c.indices, visibleSortKeys: null, total: null, searchAfter: null } });
    return outcome.body.withFirstMember(`"pit_id":${JSON.stringify(this.encode(c))}`);
  }

  /** Frees every context (shutdown). */
  close(): void {
    clearInterval(this.sweeper);
    for (const c of [...this.contexts.values()]) this.free(c);
  }
}

function formatMs(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
