/**
 * One open index: its metadata (uuid, settings, mapping), its shards, routing, and the document
 * operations (index, create, delete, update, get) with dynamic mapping applied synchronously on the
 * coordinator before a write is acknowledged — the "one lock" of ES's mapping updates is the single
 * coordinator thread.
 */
import { shardForRouting } from '../../common/routing.js';
import { DocumentMissingError, EsError, IllegalArgumentError } from '../../errors/index.js';
import { defineOwn, isPlainObject } from '../../common/json.js';
import { wildcardMatch } from '../../common/wildcard.js';
import type { UpdateRequest } from '../../dsl/index.js';
import {
  DocumentParser, checkObjectDepthLimit, flattenSettings, mergeRootMapping, parseRootMapping, renderRootMapping, resolveMapping, resolveSettings,
  validateSettings, settingString, storedSource, nestSettings, textSettingsOf, type IndexTextSettings, type DocumentParseLimits, type FlatSettings, type ResolvedIndexSettings, type ResolvedMapping,
  type RootMapping, featureSourceParser, type SourceParser,
} from '../../index/index.js';
import { IndexShard, type WriteOutcome } from './index-shard.js';
import { ShardStore, type DataDir } from '../../storage/index.js';
import type { SearchPool } from '../search-pool.js';
import type { DocVersion, ShardSnapshot } from './shard-state.js';
import type { SlowLog } from '../slow-log.js';

export interface IndexMetadata {
  readonly name: string;
  readonly uuid: string;
  readonly creationDate: number;
  readonly settings: FlatSettings;
  readonly mapping: RootMapping;
}

/** What an index needs from the node: the pool, where its files go, and how to persist metadata. */
export interface IndexDeps {
  readonly pool: SearchPool;
  readonly dataDir: DataDir;
  /** Records that this index's metadata (mapping, settings) changed. */
  stateChanged(): void;
  /** Resolves once every recorded metadata change is durable. */
  persistState(): Promise<void>;
  /** Reports documents added to an indexing buffer (the node-wide memory budget). */
  bufferGrew(bytes: number): void;
  /** The indexing slow log (null: none). */
  readonly slowLog: SlowLog | null;
}

/** Per-index result of start-up recovery, for the log and for health. */
export interface IndexRecovery {
  readonly shards: number;
  readonly segments: number;
  readonly replayed: number;
  readonly skipped: number;
  readonly lostDocs: number;
  readonly lostOps: number;
  readonly problems: string[];
}

export interface WriteOptions {
  readonly create: boolean;
  readonly ifSeqNo: number | null;
  readonly ifPrimaryTerm: number | null;
  readonly routing: string | null;
}

export interface WriteResult extends WriteOutcome {
  readonly id: string;
  readonly shard: number;
  readonly primaryTerm: number;
}

export interface GetResult {
  readonly id: string;
  readonly found: boolean;
  readonly version: number;
  readonly seqNo: number;
  readonly primaryTerm: number;
  readonly source: string | null;
}

export class IndexService {
  readonly name: string;
  readonly uuid: string;
  readonly creationDate: number;
  settings: FlatSettings;
  resolvedSettings: ResolvedIndexSettings;
  mapping: RootMapping;
  resolvedMapping: ResolvedMapping;
  /** The analysis and similarity settings (fixed once the index exists), as plain data. */
  readonly text: IndexTextSettings;
  readonly shards: IndexShard[];
  /** Index-wide write order: the tie-breaker that keeps ranking independent of sharding. */
  private nextIndexOrder = 0;
  private refreshTimer: NodeJS.Timeout | null = null;
  private parser: DocumentParser;
  /**
   * Parses a document's source for this mapping with its feature objects kept as text (the parser
   * reads them from it), or null when the mapping has none: for writes that run no pipeline.
   */
  sourceParser: SourceParser | null;

  constructor(meta: IndexMetadata, private readonly deps: IndexDeps) {
    this.name = meta.name;
    this.uuid = meta.uuid;
    this.creationDate = meta.creationDate;
    this.settings = meta.settings;
    this.resolvedSettings = resolveSettings(meta.settings);
    this.mapping = meta.mapping;
    this.text = textSettingsOf(meta.settings);
    this.resolvedMapping = resolveMapping(meta.mapping, this.text);
    this.parser = new DocumentParser(this.mapping, this.limits(), this.resolvedMapping);
    this.sourceParser = featureSourceParser(this.mapping);
    this.shards = Array.from({ length: this.resolvedSettings.numberOfShards }, (_, i) => new IndexShard(i, {
      indexName: this.name,
      indexUuid: this.uuid,
      pool: deps.pool,
      buildInputs: () => ({ mapping: this.mapping, limits: this.limits(), text: this.text, codec: this.resolvedSettings.codec }),
      store: new ShardStore(deps.dataDir.shardDir(this.uuid, i)),
      translogOptions: () => ({ durability: this.resolvedSettings.translogDurability, syncIntervalMs: this.resolvedSettings.translogSyncIntervalMs }),
      flushThresholdBytes: () => this.resolvedSettings.translogFlushThresholdBytes,
    }));
    this.scheduleRefresh();
  }

  limits(): DocumentParseLimits {
    const s = this.resolvedSettings;
    return { totalFieldsLimit: s.totalFieldsLimit, depthLimit: s.depthLimit, ignoreDynamicBeyondLimit: s.ignoreDynamicBeyondLimit };
  }

  // ---- settings and mapping ---------------------------------------------------------------------

  private scheduleRefresh(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
    const interval = this.resolvedSettings.refreshIntervalMs;
    if (interval > 0) {
      this.refreshTimer = setInterval(() => {
        const s = this.resolvedSettings;
        const idleAfterMs = s.explicitRefresh ? null : s.searchIdleAfterMs;
        for (const shard of this.shards) shard.scheduledRefresh(idleAfterMs);
      }, interval);
      this.refreshTimer.unref();
    }
  }

  updateSettings(input: unknown): void {
    const update = flattenSettings(input);
    validateSettings(update, { name: this.name, uuid: this.uuid });
    const next = new Map(this.settings);
    for (const [k, v] of update) {
      if (v === '') next.delete(k); // null resets to the default
      else next.set(k, v);
    }
    this.settings = next;
    this.resolvedSettings = resolveSettings(next);
    this.parser = new DocumentParser(this.mapping, this.limits(), this.resolvedMapping);
    this.scheduleRefresh();
    for (const shard of this.shards) shard.reconfigureTranslog();
    this.deps.stateChanged();
  }

  /** PUT _mapping (and create-index mappings): merge, then enforce the total fields limit. */
  putMapping(json: unknown): void {
    this.applyMappingUpdate(mergeRootMapping(this.mapping, parseRootMapping(json)), true);
  }

  private applyMappingUpdate(next: RootMapping, checkLimit: boolean): void {
    const resolved = resolveMapping(next, this.text);
    if (checkLimit && resolved.totalFields > this.resolvedSettings.totalFieldsLimit) {
      throw new IllegalArgumentError(`Limit of total fields [${this.resolvedSettings.totalFieldsLimit}] has been exceeded`);
    }
    if (checkLimit) checkObjectDepthLimit(resolved, this.resolvedSettings.depthLimit);
    this.mapping = next;
    this.resolvedMapping = resolved;
    this.parser = new DocumentParser(this.mapping, this.limits(), this.resolvedMapping);
    this.sourceParser = featureSourceParser(this.mapping);
    this.deps.stateChanged();
  }

  /** A scalar setting's value as stored (lists joined), or undefined. */
  setting(key: string): string | undefined {
    return settingString(this.settings, key);
  }

  /** GET _settings: nested (default) or flat keys, optionally only the named (wildcard) settings. */
  renderSettings(flat: boolean, names: readonly string[] | null = null): Record<string, unknown> {
    let entries = [...this.settings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (names) {
      const patterns = names.map((n) => (n.startsWith('index.') ? n : `index.${n}`));
      entries = entries.filter(([k]) => patterns.some((p) => wildcardMatch(p, k)));
    }
    return flat ? Object.fromEntries(entries) : nestSettings(new Map(entries));
  }

  renderMapping(): Record<string, unknown> {
    return renderRootMapping(this.mapping);
  }

  // ---- documents --------------------------------------------------------------------------------

  shardFor(id: string, routing: string | null): IndexShard {
    const n = this.shards.length;
    const routingShards = this.resolvedSettings.routingNumShards ?? undefined;
    return this.shards[shardForRouting(routing ?? id, n, routingShards)];
  }

  /**
   * Validates a document against the mapping and applies any dynamic mapping it introduces.
   * Throws the ES per-document error (document_parsing_exception, strict_dynamic_mapping_exception).
   */
  private parseForWrite(id: string, sourceText: string, parsed: unknown): void {
    if (!isPlainObject(parsed)) {
      throw new EsError('document_parsing_exception', `[1:1] failed to parse: root must be an object`, 400);
    }
    const { mappingUpdate } = this.parser.parse(parsed, id, sourceText, null);
    if (mappingUpdate) this.applyMappingUpdate(mergeRootMapping(this.mapping, mappingUpdate), false);
  }

  /**
   * `autoGeneratedId`: the id was generated for this write (`ids.next()`), so no older copy can
   * exist and the version lookup is skipped — ES's append-only optimisation for auto-generated ids.
   */
  index(id: string, sourceText: string, parsed: unknown, opts: WriteOptions, autoGeneratedId = false): WriteResult {
    // The clock runs only while an indexing slow-log threshold is set.
    const started = this.resolvedSettings.slowLog.index !== null ? performance.now() : -1;
    const shard = this.shardFor(id, opts.routing);
    // ES parses (and updates the mapping) before the engine checks versions.
    this.parseForWrite(id, sourceText, parsed);
    const prev = autoGeneratedId ? null : shard.lookup(id);
    shard.checkPreconditions(id, prev, { create: opts.create, ifSeqNo: opts.ifSeqNo, ifPrimaryTerm: opts.ifPrimaryTerm });
    const before = shard.bufferedBytes;
    const outcome = shard.index(id, sourceText, this.nextIndexOrder++, prev);
    this.deps.bufferGrew(shard.bufferedBytes - before);
    if (started >= 0) this.deps.slowLog?.onIndex(this, shard.shardId, performance.now() - started, id, opts.routing, sourceText);
    // Fields named, not `...outcome`: once per document, and the spread's generic copy stood out in
    // the coordinator's profile of a bulk load (issue 19). Same fields, same order.
    return { seqNo: outcome.seqNo, version: outcome.version, result: outcome.result, id, shard: shard.shardId, primaryTerm: shard.primaryTerm };
  }

  delete(id: string, opts: WriteOptions): WriteResult {
    const shard = this.shardFor(id, opts.routing);
    const prev = shard.lookup(id);
    if (opts.ifSeqNo !== null || opts.ifPrimaryTerm !== null) shard.checkPreconditions(id, prev, { ...opts, create: false });
    const outcome = shard.delete(id, prev);
    return { seqNo: outcome.seqNo, version: outcome.version, result: outcome.result, id, shard: shard.shardId, primaryTerm: shard.primaryTerm };
  }

  /**
   * Partial update (ES UpdateHelper): merges `doc` into the current source, or indexes `upsert`
   * (or `doc` with doc_as_upsert) when the document is missing. An unchanged source is a `noop`,
   * unless `detect_noop` is false.
   */
  update(id: string, body: UpdateRequest, opts: WriteOptions): WriteResult | (Omit<WriteResult, 'result'> & { result: 'noop' }) {
    const shard = this.shardFor(id, opts.routing);
    const prev = shard.lookup(id);
    if (!prev?.exists) {
      const upsert = body.upsert ?? (body.docAsUpsert ? body.doc : null);
      if (!upsert) throw new DocumentMissingError(id, this.name, this.uuid, shard.shardId);
      const text = JSON.stringify(upsert);
      return this.index(id, text, upsert, opts);
    }
    shard.checkPreconditions(id, prev, { create: false, ifSeqNo: opts.ifSeqNo, ifPrimaryTerm: opts.ifPrimaryTerm });
    const current = JSON.parse(prev.source ?? '{}') as Record<string, unknown>;
    const merged = deepMerge(current, body.doc ?? {});
    if (!merged.changed && body.detectNoop) {
      return { id, shard: shard.shardId, primaryTerm: shard.primaryTerm, seqNo: prev.seqNo, version: prev.version, result: 'noop' };
    }
    const text = JSON.stringify(merged.value);
    return this.index(id, text, merged.value, { ...opts, ifSeqNo: null, ifPrimaryTerm: null });
  }

  /** A document by id: its newest state (realtime, as ES's GET by default), or with `realtime` false what the last refresh published. */
  get(id: string, routing: string | null, realtime = true): GetResult {
    const shard = this.shardFor(id, routing);
    const v: DocVersion | null = realtime ? shard.lookup(id) : shard.lookupRefreshed(id);
    const found = v?.exists === true;
    // Realtime GET of a buffered doc returns what the segment will store (`_source` filtering applied).
    let source = found ? v.source : null;
    if (realtime && found && source !== null && this.mapping.source !== null && shard.isBuffered(id)) {
      source = storedSource(this.mapping, source, JSON.parse(source) as Record<string, unknown>);
    }
    return {
      id, found, version: v?.version ?? -1, seqNo: v?.seqNo ?? -2, primaryTerm: shard.primaryTerm,
      source: source === '' ? null : source,
    };
  }

  // ---- durability -------------------------------------------------------------------------------

  /**
   * Makes the writes applied so far on these shards durable before they are acknowledged: their
   * translog records fsynced (shared with concurrent writers) and, when documents added fields,
   * the mapping saved in the cluster state.
   */
  async sync(shardIds: Iterable<number>): Promise<void> {
    const waits: Promise<void>[] = [this.deps.persistState()];
    for (const id of new Set(shardIds)) waits.push(this.shards[id].sync());
    await Promise.all(waits);
  }

  async flush(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.flush()));
  }

  /** Flushes every shard and returns the snapshots committed, by shard; null for a closed (deleted) index. */
  async flushForSnapshot(): Promise<ShardSnapshot[] | null> {
    const snaps = await Promise.all(this.shards.map((s) => s.flushForSnapshot()));
    return snaps.some((s) => s === null) ? null : (snaps as ShardSnapshot[]);
  }

  /**
   * Start-up: each shard loads its last commit and translog; the ops above the commit are
   * replayed through the same write path (mapping included), then made searchable.
   */
  async recover(): Promise<IndexRecovery> {
    let replayed = 0;
    let skipped = 0;
    let lostDocs = 0;
    let lostOps = 0;
    let segments = 0;
    const problems: string[] = [];
    for (const shard of this.shards) {
      const r = await shard.recover();
      segments += shard.snapshot.segments.length;
      this.nextIndexOrder = Math.max(this.nextIndexOrder, r.maxIndexOrder + 1);
      for (const op of r.ops) {
        try {
          if (op.op === 'index') this.parseForWrite(op.id, op.source, JSON.parse(op.source));
          shard.replay(op);
          if (op.op === 'index') this.nextIndexOrder = Math.max(this.nextIndexOrder, op.indexOrder + 1);
          replayed++;
        } catch (e) {
          // Only an op that was never acknowledged can fail here (its mapping change did not
          // become durable before the crash); it is dropped and reported.
          skipped++;
          problems.push(`shard [${shard.shardId}]: translog op seq_no ${op.seqNo} for [${op.id}] could not be replayed: ${(e as Error).message}`);
        }
      }
      lostDocs += r.lostDocs;
      lostOps += r.lostOps;
      problems.push(...r.problems.map((p) => `shard [${shard.shardId}]: ${p}`));
    }
    await this.deps.persistState();
    await this.refresh();
    // After damage, commit what was recovered: the next start then loads a consistent commit (the
    // damaged files stay in corrupted/ for inspection).
    if (this.recoveredWithLoss) await this.flush();
    return { shards: this.shards.length, segments, replayed, skipped, lostDocs, lostOps, problems };
  }

  /** True when recovery found data it could not restore (reported as red health). */
  get recoveredWithLoss(): boolean {
    return this.shards.some((s) => s.recoveredWithLoss);
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  /** A newly created index: opens its shards' translogs. */
  open(): void {
    for (const shard of this.shards) shard.open();
  }

  async refresh(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.refresh()));
  }

  /** Every shard is about to be searched: awaitSearchActive([this]). */
  awaitSearchActive(): Promise<unknown> | null {
    return awaitSearchActive([this]);
  }

  async forceMerge(maxSegments: number): Promise<void> {
    await Promise.all(this.shards.map((s) => s.forceMerge(maxSegments)));
  }

  /** Stops timers and background work and releases memory (the translogs stay open). */
  close(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    for (const s of this.shards) s.close();
  }

  async closeStores(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.closeStore()));
  }

  metadata(): IndexMetadata {
    return { name: this.name, uuid: this.uuid, creationDate: this.creationDate, settings: this.settings, mapping: this.mapping };
  }
}

/** ES XContentHelper.update: objects merge recursively, everything else is replaced. */
function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): { value: Record<string, unknown>; changed: boolean } {
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(target)) defineOwn(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k];
    if (isPlainObject(cur) && isPlainObject(v)) {
      const r = deepMerge(cur, v);
      if (r.changed) changed = true;
      defineOwn(out, k, r.value);
    } else if (JSON.stringify(cur) !== JSON.stringify(v)) {
      defineOwn(out, k, v);
      changed = true;
    }
  }
  return { value: out, changed };
}

/**
 * Marks every shard of `indices` searched (ES's search idle); a promise only when a search-idle shard
 * owes a refresh, which the search awaits before it captures its snapshots.
 */
export function awaitSearchActive(indices: readonly IndexService[]): Promise<unknown> | null {
  let owed: Promise<void>[] | null = null;
  for (const index of indices) {
    for (const shard of index.shards) {
      const refresh = shard.awaitSearchActive();
      if (refresh !== null) (owed ??= []).push(refresh);
    }
  }
  return owed === null ? null : owed.length === 1 ? owed[0] : Promise.all(owed);
}
