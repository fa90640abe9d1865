/**
 * The registry of indices on this node: create (with settings and mappings validated as ES does),
 * delete, look up, auto-create on write, and resolve index expressions. Index metadata lives in
 * the cluster state's `indices` section; changes are recorded at once and made durable by
 * `persist()` before they are acknowledged (writes do it through `IndexService.sync`).
 */
import { readdir, rm } from 'node:fs/promises';
import { randomBase64Uuid } from '../../common/ids.js';
import { AutoCreateForbiddenError, IllegalArgumentError, IndexNotFoundError, InvalidAliasNameError, InvalidIndexNameError, MapperParsingError, ResourceAlreadyExistsError } from '../../errors/index.js';
import {
  EMPTY_ROOT, analyzeText, checkObjectDepthLimit, flattenSettings, parseRootMapping, renderRootMapping, resolveMapping, resolveSettings, resolveTextContext, textSettingsOf,
  validateSettings, type AnalyzeRequest, type RootMapping, type SettingValue,
} from '../../index/index.js';
import type { ClusterStateStore, DataDir } from '../../storage/index.js';
import { parseIndexAliases, type AliasAction, type JsonObject, type QueryNode } from '../../dsl/index.js';
import { isPlainObject } from '../../common/json.js';
import { AliasRegistry, aliasFilteredQuery, singleIndexOf, validateAliasName, type StoredAlias } from './aliases.js';
import { IndexService, type IndexDeps, type IndexMetadata, type IndexRecovery } from './index-service.js';
import { validateIndexName } from './index-names.js';
import { IndexingMemoryController } from './indexing-memory-controller.js';
import type { IndexShard } from './index-shard.js';
import { resolveIndexExpression, type ResolveOptions } from './index-resolver.js';
import type { SearchPool } from '../search-pool.js';
import { IndexTemplateService, mergeTemplateMappings } from './index-templates.js';
import type { SlowLog } from '../slow-log.js';

export interface CreateIndexBody {
  readonly settings?: unknown;
  readonly mappings?: unknown;
  readonly aliases?: unknown;
}

/** The `indices` section of the cluster state: one entry per index, by name (also what a repository snapshot stores). */
export interface StoredIndex {
  readonly uuid: string;
  readonly creation_date: number;
  readonly settings: Record<string, SettingValue>;
  readonly mappings: Record<string, unknown>;
  /** Absent when the index has no aliases. */
  readonly aliases?: Record<string, StoredAlias>;
}

const SECTION = 'indices';

export interface IndicesOptions {
  /** `indices.memory.index_buffer_size` in bytes: unrefreshed documents across all shards. */
  readonly indexBufferBytes: number;
  /** Where indexing slow-log lines go (null: nowhere). */
  readonly slowLog?: SlowLog | null;
}

/** Start-up recovery of every index, for the log and health. */
export interface NodeRecovery {
  readonly indices: number;
  readonly tookMs: number;
  readonly perIndex: ReadonlyMap<string, IndexRecovery>;
  /** Directories of indices the cluster state does not name (a create or delete cut short) that were removed. */
  readonly removedOrphans: readonly string[];
}

export class IndicesService {
  private readonly indices = new Map<string, IndexService>();
  /** The aliases of every index, stored with it in the `indices` section. */
  readonly aliases = new AliasRegistry();
  /** Composable and component templates, applied to every index created (also by a write). */
  readonly templates: IndexTemplateService;
  /**
   * The expression each `resolve()` result came from, so a search can apply the filters of the
   * aliases it reached an index through without every caller threading the expression along.
   */
  private readonly resolvedFrom = new WeakMap<readonly IndexService[], string | undefined>();
  private readonly deps: IndexDeps;
  /** `indices.memory.index_buffer_size`: refreshes the largest buffers, throttles writes when refreshes fall behind. */
  readonly memoryController: IndexingMemoryController;

  constructor(
    pool: SearchPool,
    private readonly dataDir: DataDir,
    private readonly state: ClusterStateStore,
    private readonly options: IndicesOptions = { indexBufferBytes: Infinity },
  ) {
    this.deps = {
      pool, dataDir, stateChanged: () => state.markChanged(), persistState: () => state.persist(), bufferGrew: (bytes) => this.memoryController.bufferGrew(bytes),
      slowLog: options.slowLog ?? null,
    };
    this.memoryController = new IndexingMemoryController(options.indexBufferBytes, () => [...this.indices.values()].flatMap((i) => i.shards));
    this.templates = new IndexTemplateService(state);
    state.register(SECTION, () => {
      const out: Record<string, StoredIndex> = {};
      for (const name of this.indices.keys()) out[name] = this.storedIndex(name);
      return out;
    });
  }

  /** An index's metadata as stored: uuid, settings, mappings, aliases. */
  storedIndex(name: string): StoredIndex {
    const index = this.indices.get(name)!;
    const aliases = this.aliases.stored(name);
    return {
      uuid: index.uuid, creation_date: index.creationDate, settings: Object.fromEntries(index.settings), mappings: renderRootMapping(index.mapping),
      ...(aliases ? { aliases } : {}),
    };
  }

  /**
   * Adds an index from a repository snapshot (ES RestoreService): a new uuid, the stored settings,
   * mappings and (optionally) aliases; `place` writes each shard's commit and files into its new
   * directory, then the shards recover from them as at start-up. The index joins the cluster state
   * only once its files are in place, so a crash half-way leaves a directory start-up removes.
   */
  async restoreIndex(name: string, stored: StoredIndex, includeAliases: boolean, place: (shard: number, dir: string) => Promise<void>): Promise<IndexService> {
    validateIndexName(name);
    const existing = this.indices.get(name);
    if (existing) throw new ResourceAlreadyExistsError(name, existing.uuid);
    const uuid = randomBase64Uuid();
    const settings = new Map(Object.entries(stored.settings));
    settings.set('index.uuid', uuid);
    const index = new IndexService({ name, uuid, creationDate: stored.creation_date, settings, mapping: parseRootMapping(stored.mappings) }, this.deps);
    try {
      for (let shard = 0; shard < index.shards.length; shard++) await place(shard, this.dataDir.shardDir(uuid, shard));
      await index.recover();
    } catch (e) {
      index.close();
      await index.closeStores();
      await rm(this.dataDir.indexDir(uuid), { recursive: true, force: true });
      throw e;
    }
    this.indices.set(name, index);
    // An alias may not take the name of an index that exists meanwhile (ES skips it with the others).
    const aliases = includeAliases && stored.aliases ? Object.fromEntries(Object.entries(stored.aliases).filter(([a]) => !this.indices.has(a))) : undefined;
    this.aliases.load(name, aliases);
    this.state.markChanged();
    await this.state.persist();
    return index;
  }

  /**
   * Opens every index the cluster state names and recovers its shards (commit + translog), then
   * removes index directories nothing names. Runs once, before the node serves requests.
   */
  async recover(): Promise<NodeRecovery> {
    const start = performance.now();
    const stored = this.state.section<Record<string, StoredIndex>>(SECTION) ?? {};
    const perIndex = new Map<string, IndexRecovery>();
    for (const [name, s] of Object.entries(stored)) {
      const meta: IndexMetadata = {
        name, uuid: s.uuid, creationDate: s.creation_date, settings: new Map(Object.entries(s.settings)), mapping: parseRootMapping(s.mappings),
      };
      const index = new IndexService(meta, this.deps);
      this.indices.set(name, index);
      this.aliases.load(name, s.aliases);
      perIndex.set(name, await index.recover());
    }
    const known = new Set([...this.indices.values()].map((i) => i.uuid));
    const removedOrphans: string[] = [];
    for (const dir of await readdir(this.dataDir.indicesDir)) {
      if (known.has(dir)) continue;
      await rm(this.dataDir.indexDir(dir), { recursive: true, force: true });
      removedOrphans.push(dir);
    }
    return { indices: this.indices.size, tookMs: performance.now() - start, perIndex, removedOrphans };
  }

  /** Resolves once every metadata change so far (create, delete, mapping, settings) is durable. */
  persist(): Promise<void> {
    return this.state.persist();
  }

  /** True when some index recovered with data loss (reported as red health). */
  recoveredWithLoss(name: string): boolean {
    return this.indices.get(name)?.recoveredWithLoss ?? false;
  }

  names(): string[] {
    return [...this.indices.keys()].sort();
  }

  get(name: string): IndexService | undefined {
    return this.indices.get(name);
  }

  /** The index a read of one document names: an index, or an alias with exactly one index. */
  require(name: string): IndexService {
    const index = this.indices.get(name);
    if (index) return index;
    return this.indices.get(singleIndexOf(this.aliases, name))!;
  }

  /** The index a write of one document to `name` goes to: an index, or an alias's write index. */
  requireWrite(name: string): IndexService {
    const index = this.indices.get(name);
    if (index) return index;
    if (!this.aliases.has(name)) throw new IndexNotFoundError(name);
    return this.indices.get(this.aliases.writeIndexOf(name))!;
  }

  /** What a write to `name` would reach without creating anything (for pipelines and checks), or undefined. */
  writeTarget(name: string): IndexService | undefined {
    const index = this.indices.get(name);
    if (index || !this.aliases.has(name)) return index;
    try {
      return this.indices.get(this.aliases.writeIndexOf(name));
    } catch {
      return undefined;
    }
  }

  /** `index.hidden: true`: wildcards reach the index only with `expand_wildcards=hidden|all`. */
  readonly isHiddenIndex = (name: string): boolean => this.indices.get(name)?.settings.get('index.hidden') === 'true';

  /** A hidden index or a hidden alias (`is_hidden: true`): what a wildcard skips unless it expands hidden ones. */
  readonly isHidden = (name: string): boolean => (this.indices.has(name) ? this.isHiddenIndex(name) : this.aliases.isHidden(name));

  /** True when `name` is an index or an alias. */
  exists(name: string): boolean {
    return this.indices.has(name) || this.aliases.has(name);
  }

  resolve(expression: string | undefined, options?: ResolveOptions): IndexService[] {
    // The common case, one existing index named as it is: what resolveIndexExpression answers for
    // it, without sorting every index name and building the alias table per search. An index
    // named directly is never filtered by an alias (searchQuery), so it is not recorded.
    const named = expression === undefined ? undefined : this.indices.get(expression);
    if (named !== undefined && !expression!.includes(',') && !expression!.includes('*')) return [named];
    const out = resolveIndexExpression(expression, this.names(), options, this.aliases.table(), this.isHidden).map((n) => this.indices.get(n)!);
    this.resolvedFrom.set(out, expression);
    return out;
  }

  /**
   * `query` for `index` as a search over `resolved` (a `resolve()` result) must run it: with the
   * filters of the filtered aliases the index was reached through (ES IndicesService.buildAliasFilter).
   */
  searchQuery(resolved: readonly IndexService[], index: IndexService, query: QueryNode | null): QueryNode | null {
    if (!this.resolvedFrom.has(resolved)) return query;
    const filters = this.aliases.searchFilters(this.resolvedFrom.get(resolved), index.name);
    return filters === null ? query : aliasFilteredQuery(query, filters);
  }

  /**
   * Applies `POST /_aliases` actions atomically and durably; `remove_index` actions delete their
   * indices once the new aliases are saved.
   */
  async applyAliasActions(actions: readonly AliasAction[]): Promise<void> {
    const removed = this.aliases.apply(
      actions,
      (expression) => resolveIndexExpression(expression, this.names(), { ignoreUnavailable: false, allowNoIndices: false, expandHidden: false }, undefined, this.isHiddenIndex),
      (name) => {
        const index = this.indices.get(name);
        return index ? { name, uuid: index.uuid } : undefined;
      },
    );
    this.state.markChanged();
    if (removed.length > 0) await this.deleteResolved(removed);
    await this.state.persist();
  }

  /** Creates an index from the request and the template matching its name (request wins). */
  create(name: string, body: CreateIndexBody, autoCreate = false): IndexService {
    validateIndexName(name);
    const existing = this.indices.get(name);
    if (existing) throw new ResourceAlreadyExistsError(name, existing.uuid);
    for (const key of Object.keys(body)) {
      if (key !== 'settings' && key !== 'mappings' && key !== 'aliases') {
        throw new IllegalArgumentError(`unknown key [${key}] for create index`);
      }
    }
    // ES MetadataCreateIndexService.validateIndexName: an index may not take an alias's name.
    if (this.aliases.has(name)) throw new InvalidIndexNameError(name, 'already exists as alias');
    const requested = flattenSettings(body.settings);
    const template = this.templates.templateFor(name, requested.get('index.hidden') === 'true');
    if (autoCreate && template?.allowAutoCreate === false) throw new AutoCreateForbiddenError(name, template.name);
    const aliases = new Map(template?.aliases);
    if (body.aliases !== undefined) for (const [a, p] of parseIndexAliases(body.aliases)) aliases.set(a, p);
    for (const alias of aliases.keys()) {
      validateAliasName(alias);
      if (alias === name || this.indices.has(alias)) {
        const clash = this.indices.get(alias);
        throw new InvalidAliasNameError(alias, 'an index or data stream exists with the same name as the alias', clash ? { name: alias, uuid: clash.uuid } : undefined);
      }
    }
    const settings = new Map([...(template?.settings ?? []), ...requested]);
    validateSettings(settings);
    // Analysis and similarity definitions are checked as a whole, as ES builds them at creation.
    const text = textSettingsOf(settings);
    resolveTextContext(text);
    let mapping: RootMapping = EMPTY_ROOT;
    const mappings = template?.mappings && isPlainObject(body.mappings ?? {})
      ? mergeTemplateMappings(template.mappings, (body.mappings ?? null) as JsonObject | null)
      : body.mappings;
    let resolvedMapping;
    try {
      if (mappings !== undefined) mapping = parseRootMapping(mappings);
      resolvedMapping = resolveMapping(mapping, text);
    } catch (e) {
      if (e instanceof MapperParsingError) throw new MapperParsingError(`Failed to parse mapping: ${e.message}`, e);
      throw e;
    }
    const resolved = resolveSettings(settings);
    if (resolvedMapping.totalFields > resolved.totalFieldsLimit) {
      throw new IllegalArgumentError(`Limit of total fields [${resolved.totalFieldsLimit}] has been exceeded`);
    }
    checkObjectDepthLimit(resolvedMapping, resolved.depthLimit);
    const uuid = randomBase64Uuid();
    const creationDate = Date.now();
    const full = new Map(settings);
    // ES renders these with every index; they are read-only.
    full.set('index.number_of_shards', String(resolved.numberOfShards));
    full.set('index.number_of_replicas', String(resolved.numberOfReplicas));
    full.set('index.uuid', uuid);
    full.set('index.creation_date', String(creationDate));
    full.set('index.provided_name', name);
    full.set('index.version.created', '8505000');
    full.set('index.routing.allocation.include._tier_preference', full.get('index.routing.allocation.include._tier_preference') ?? 'data_content');
    const index = new IndexService({ name, uuid, creationDate, settings: full, mapping }, this.deps);
    if (aliases.size > 0) {
      this.aliases.apply([...aliases].map(([alias, properties]) => ({ kind: 'add', indices: [name], aliases: [alias], properties, mustExist: null })), () => [name], () => undefined);
    }
    this.indices.set(name, index);
    this.state.markChanged();
    index.open();
    return index;
  }

  /**
   * `_analyze`: over one concrete index's analysis and mapping (an alias must name exactly one
   * index), or over the built-in analysis when `name` is null.
   */
  analyze(name: string | null, request: AnalyzeRequest): Record<string, unknown> {
    if (name === null) return analyzeText(request, null);
    const resolved = this.resolve(name, { ignoreUnavailable: false, allowNoIndices: false, expandHidden: false });
    if (resolved.length !== 1) throw new IllegalArgumentError(`[${name}] must resolve to a single index, got [${resolved.length}]`);
    return analyzeText(request, resolved[0].resolvedMapping);
  }

  /** Write to a missing index creates it with dynamic mapping (action.auto_create_index: true). */
  getOrAutoCreate(name: string): IndexService {
    const index = this.indices.get(name);
    if (index) return index;
    if (this.aliases.has(name)) return this.requireWrite(name);
    return this.create(name, {}, true);
  }

  /**
   * Deletes indices: gone from the cluster state (durably) first, then their files; a crash in
   * between leaves a directory that start-up removes.
   */
  async delete(expression: string): Promise<string[]> {
    const parts = expression.split(',');
    if (parts.some((p) => p.includes('*') || p === '_all')) {
      // action.destructive_requires_name defaults to true in 8.x.
      throw new IllegalArgumentError('Wildcard expressions or all indices are not allowed');
    }
    // ES 8: deleting through an alias is refused rather than deleting what it points to.
    const alias = parts.map((p) => p.trim()).find((p) => !this.indices.has(p) && this.aliases.has(p));
    if (alias) throw new IllegalArgumentError(`The provided expression [${alias}] matches an alias, specify the corresponding concrete indices instead.`);
    const names = resolveIndexExpression(expression, this.names(), undefined, undefined, this.isHiddenIndex);
    await this.deleteResolved(names);
    return names;
  }

  /** Removes indices (and their aliases) from the cluster state durably, then their files. */
  private async deleteResolved(names: readonly string[]): Promise<void> {
    const removed = names.map((n) => this.indices.get(n)!);
    for (const n of names) {
      this.indices.delete(n);
      this.aliases.removeIndex(n);
    }
    this.state.markChanged();
    await this.state.persist();
    for (const index of removed) {
      index.close();
      await index.closeStores();
      await rm(this.dataDir.indexDir(index.uuid), { recursive: true, force: true });
    }
  }

  /**
   * Holds a write request's response while the shards it wrote to are throttled because refreshes
   * fell behind (indexing-memory-controller.ts); resolves at once otherwise.
   */
  throttleWrites(shards: Iterable<IndexShard>): Promise<void> {
    return this.memoryController.throttle(shards);
  }

  /** Flushes every index (graceful shutdown: the next start replays nothing). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.indices.values()].map((i) => i.flush()));
  }

  /** Stops background work and closes translogs (after in-flight writes are done). */
  async close(): Promise<void> {
    const all = [...this.indices.values()];
    this.indices.clear();
    for (const index of all) index.close();
    await Promise.all(all.map((i) => i.closeStores()));
  }
}
