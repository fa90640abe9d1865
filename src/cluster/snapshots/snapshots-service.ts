/**
 * Snapshots of indices into a registered repository, and their restore (ES SnapshotsService,
 * BlobStoreRepository, RestoreService), over the blob repository of storage/blob-repository.ts.
 *
 * - Consistent: each index is flushed and the commit that flush wrote — its segments and live
 *   docs, immutable buffers — is what the snapshot copies, with the index's settings, mappings and
 *   aliases taken after it (mappings only grow, so they cover the segments).
 * - Incremental: shard files are content-addressed blobs; a blob some finished snapshot already
 *   references is not copied again, and a segment buffer is hashed once per process (the hash is
 *   remembered by buffer, which never changes). `stats.incremental` counts what was copied.
 * - Crash-safe: blobs, then the snapshot's metadata, then the atomic root swap; deletion swaps
 *   the root first and only then removes what no remaining snapshot references (and whatever a
 *   crashed run left behind).
 *
 * Operations on one repository run one at a time (a queue), so a deletion's cleanup never races a
 * snapshot writing blobs nothing references yet, and a restore never reads a blob being removed.
 */
import { join } from 'node:path';
import { randomBase64Uuid } from '../../common/ids.js';
import { globMatcher } from '../../common/wildcard.js';
import {
  EsError, IllegalArgumentError, InvalidSnapshotNameError, RepositoryError, RepositoryVerificationError, SnapshotError, SnapshotMissingError, SnapshotRestoreError,
} from '../../errors/index.js';
import type { CreateSnapshotBody, JsonObject, RestoreSnapshotBody } from '../../dsl/index.js';
import { flattenSettings, validateSettings } from '../../index/index.js';
import type { IngestService } from '../../ingest/index.js';
import {
  blobName, COMMIT_VERSION, encodeChecksummed, FileKind, FILE_HEADER_BYTES, liveDocsFileName, liveDocsPayload, REPOSITORY_FORMAT, segmentFileName,
  segmentPayload, writeFileAtomic, type CommittedSegment, type RepositoryRoot,
} from '../../storage/index.js';
import type { IndicesService, StoredIndex } from '../indices/indices-service.js';
import { resolveIndexExpression } from '../indices/index-resolver.js';
import { liveDocsGeneration, segmentGeneration } from '../indices/shard-durability.js';
import type { ShardSnapshot as CommittedShard } from '../indices/shard-state.js';
import type { RepositoriesService, Repository } from './repositories.js';
import {
  renderSnapshotInfo, renderSnapshotStatus, snapshotBlobs, type IndexSnapshot, type ShardSnapshot, type ShardSnapshotStats, type SnapshotMetadata,
  type SnapshotSegment, type VersionInfo,
} from './snapshot-metadata.js';

export interface SnapshotsOptions {
  readonly version: VersionInfo;
  /**
   * Called after a snapshot's blobs and metadata are durable, just before the root swap that makes
   * it exist: tests make it fail to show that a crash there leaves the repository as it was.
   */
  readonly beforeRootSwap?: (repository: string, snapshot: string) => Promise<void> | void;
}

export interface GetSnapshotsOptions {
  readonly ignoreUnavailable: boolean;
  readonly verbose: boolean;
  readonly sort: 'start_time' | 'name' | 'duration' | 'index_count';
  readonly order: 'asc' | 'desc';
}

/** A snapshot being taken: the metadata so far (IN_PROGRESS), shards filled in as they finish. */
interface Running {
  meta: SnapshotMetadata;
  readonly details: Record<string, IndexSnapshot>;
}

/** ES Strings.INVALID_FILENAME_CHARS (also refused in snapshot names). */
const INVALID_FILENAME_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];

/** ES SnapshotsService.validate. */
export function validateSnapshotName(repository: string, name: string): void {
  const fail = (why: string): never => {
    throw new InvalidSnapshotNameError(repository, name, why);
  };
  if (name === '') fail('cannot be empty');
  if (/\s/.test(name)) fail('must not contain whitespace');
  if (name.includes(',')) fail("must not contain ','");
  if (name.includes('#')) fail("must not contain '#'");
  if (name.startsWith('_')) fail("must not start with '_'");
  if (name.toLowerCase() !== name) fail('must be lowercase');
  if (INVALID_FILENAME_CHARS.some((c) => name.includes(c))) fail(`must not contain the following characters [${INVALID_FILENAME_CHARS.join(', ')}]`);
}

function emptyShardStats(): ShardSnapshotStats {
  return { incremental: { file_count: 0, size_in_bytes: 0 }, total: { file_count: 0, size_in_bytes: 0 }, start_time_in_millis: Date.now(), time_in_millis: 0 };
}

function matchesAny(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => p === '_all' || globMatcher(p).test(name));
}

export class SnapshotsService {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly running = new Map<string, Map<string, Running>>();
  /** Content address of each segment / live-docs buffer already hashed (buffers are immutable). */
  private readonly blobNames = new WeakMap<object, string>();
  /** Per repository: the root generation read last and the blobs its snapshots reference. */
  private readonly referenced = new Map<string, { generation: number; blobs: Set<string> }>();

  constructor(
    private readonly repositories: RepositoriesService,
    private readonly indices: IndicesService,
    private readonly ingest: IngestService,
    private readonly options: SnapshotsOptions,
  ) {}

  /** Resolves once every queued snapshot, deletion and restore has finished (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
  }

  /** True while a snapshot of the repository is being taken (it may not be changed or removed). */
  inUse(repository: string): boolean {
    return (this.running.get(repository)?.size ?? 0) > 0;
  }

  /** Runs `op` after every earlier operation on the repository. */
  private serialized<T>(repository: string, op: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(repository) ?? Promise.resolve();
    const run = prev.then(op, op);
    const tail = run.then(() => undefined, () => undefined);
    this.queues.set(repository, tail);
    void tail.then(() => {
      if (this.queues.get(repository) === tail) this.queues.delete(repository);
    });
    return run;
  }

  // ---- create -----------------------------------------------------------------------------------

  /**
   * PUT /_snapshot/{repo}/{snap}: checks the request at once (name, duplicates, indices), then
   * takes the snapshot in the background; `done` settles when it is in the repository.
   */
  async create(repoName: string, name: string, body: CreateSnapshotBody): Promise<{ done: Promise<SnapshotMetadata> }> {
    const repo = this.repositories.require(repoName);
    validateSnapshotName(repoName, name);
    if (repo.readonly) throw new RepositoryError(repoName, 'cannot create snapshot in a readonly repository');
    const running = this.running.get(repoName) ?? new Map<string, Running>();
    if (running.has(name)) throw new InvalidSnapshotNameError(repoName, name, 'snapshot with the same name is already in-progress');
    const root = await this.readRoot(repo);
    if (root.snapshots.some((s) => s.name === name)) throw new InvalidSnapshotNameError(repoName, name, 'snapshot with the same name already exists');
    const expression = body.indices === null ? undefined : body.indices.join(',');
    const names = resolveIndexExpression(expression, this.indices.names(), {
      ignoreUnavailable: body.ignoreUnavailable, allowNoIndices: body.allowNoIndices, expandHidden: body.indices === null,
    }, this.indices.aliases.table()).sort();
    if (running.has(name)) throw new InvalidSnapshotNameError(repoName, name, 'snapshot with the same name is already in-progress');
    const entry: Running = {
      meta: {
        snapshot: name, uuid: randomBase64Uuid(), repository: repoName, indices: names, include_global_state: body.includeGlobalState,
        metadata: body.metadata as Record<string, unknown> | null, state: 'IN_PROGRESS', start_time_in_millis: Date.now(), end_time_in_millis: 0,
        index_details: {}, global_state: null,
      },
      details: {},
    };
    entry.meta = { ...entry.meta, index_details: entry.details };
    running.set(name, entry);
    this.running.set(repoName, running);
    const done = this.serialized(repoName, () => this.take(repo, entry)).finally(() => {
      running.delete(name);
      if (running.size === 0) this.running.delete(repoName);
    });
    return { done };
  }

  private async take(repo: Repository, entry: Running): Promise<SnapshotMetadata> {
    const { meta } = entry;
    const known = await this.referencedBlobs(repo);
    const written = new Set<string>();
    for (const name of meta.indices) {
      const index = this.indices.get(name);
      const committed = index ? await index.flushForSnapshot() : null;
      if (!index || committed === null) throw new SnapshotError(repo.name, meta.snapshot, `index [${name}] was deleted while the snapshot was taken`);
      const shards: ShardSnapshot[] = [];
      entry.details[name] = { index: this.indices.storedIndex(name), shards };
      for (const commit of committed) shards.push(await this.snapshotShard(repo, commit, known, written));
    }
    await repo.store.syncBlobs();
    const finished: SnapshotMetadata = {
      ...meta, index_details: { ...entry.details }, state: 'SUCCESS', end_time_in_millis: Date.now(),
      global_state: meta.include_global_state ? { ingest: this.ingest.snapshot() } : null,
    };
    await repo.store.writeSnapshotMetadata(meta.uuid, finished);
    await this.options.beforeRootSwap?.(repo.name, meta.snapshot);
    const root = await repo.store.readRoot();
    const next: RepositoryRoot = {
      format: REPOSITORY_FORMAT,
      generation: root.generation + 1,
      snapshots: [...root.snapshots, {
        name: meta.snapshot, uuid: meta.uuid, state: finished.state, indices: meta.indices,
        start_time_in_millis: meta.start_time_in_millis, end_time_in_millis: finished.end_time_in_millis,
      }],
    };
    await repo.store.writeRoot(next);
    for (const b of written) known.add(b);
    this.referenced.set(repo.name, { generation: next.generation, blobs: known });
    return finished;
  }

  /** Copies one shard's committed files that the repository does not hold yet. */
  private async snapshotShard(repo: Repository, commit: CommittedShard, known: ReadonlySet<string>, written: Set<string>): Promise<ShardSnapshot> {
    const stats = emptyShardStats();
    const put = async (key: object, kind: FileKind, payload: () => Uint8Array, payloadBytes: number) => {
      let chunks: Uint8Array[] | null = null;
      let name = this.blobNames.get(key);
      if (name === undefined) {
        chunks = encodeChecksummed(kind, payload());
        name = blobName(chunks);
        this.blobNames.set(key, name);
      }
      const length = FILE_HEADER_BYTES + payloadBytes;
      stats.total.file_count++;
      stats.total.size_in_bytes += length;
      if (!known.has(name) && !written.has(name)) {
        await repo.store.writeBlob(name, chunks ?? encodeChecksummed(kind, payload()));
        written.add(name);
        stats.incremental.file_count++;
        stats.incremental.size_in_bytes += length;
      }
      return { blob: name, length };
    };
    const segments: SnapshotSegment[] = [];
    for (const s of commit.segments) {
      const file = await put(s.sab, FileKind.Segment, () => segmentPayload(s.sab), s.sab.byteLength);
      let live: SnapshotSegment['live_docs'] = null;
      if (s.liveDocs && s.liveDocsId) {
        const bits = s.liveDocs;
        live = { ...(await put(bits, FileKind.LiveDocs, () => liveDocsPayload(bits), bits.byteLength)), generation: liveDocsGeneration(s.liveDocsId) };
      }
      segments.push({ ...file, generation: segmentGeneration(s.id), max_doc: s.reader.maxDoc, live_docs: live });
    }
    stats.time_in_millis = Date.now() - stats.start_time_in_millis;
    return { checkpoint: commit.checkpoint, segments, stats };
  }

  private async readRoot(repo: Repository): Promise<RepositoryRoot> {
    try {
      return await repo.store.readRoot();
    } catch (e) {
      if (e instanceof EsError) throw e;
      throw new RepositoryError(repo.name, `could not read repository data: ${(e as Error).message}`);
    }
  }

  /** The blobs the repository's finished snapshots reference (re-read when the root changed). */
  private async referencedBlobs(repo: Repository): Promise<Set<string>> {
    const root = await this.readRoot(repo);
    const cached = this.referenced.get(repo.name);
    if (cached && cached.generation === root.generation) return cached.blobs;
    const blobs = new Set<string>();
    for (const s of root.snapshots) for (const b of snapshotBlobs(await this.readMetadata(repo, s.name, s.uuid))) blobs.add(b);
    this.referenced.set(repo.name, { generation: root.generation, blobs });
    return blobs;
  }

  private async readMetadata(repo: Repository, name: string, uuid: string): Promise<SnapshotMetadata> {
    try {
      // The repository may be registered under another name than the one that wrote it.
      return { ...(await repo.store.readSnapshotMetadata<SnapshotMetadata>(uuid)), repository: repo.name };
    } catch (e) {
      throw new SnapshotError(repo.name, name, `could not read the snapshot metadata: ${(e as Error).message}`);
    }
  }

  // ---- read -------------------------------------------------------------------------------------

  /** The finished and running snapshots of a repository matching the patterns (`_all`, `*`, `_current`). */
  private async matching(repo: Repository, patterns: readonly string[], ignoreUnavailable: boolean): Promise<SnapshotMetadata[]> {
    const root = await this.readRoot(repo);
    const running = [...(this.running.get(repo.name)?.values() ?? [])].map((r) => r.meta);
    const out: SnapshotMetadata[] = [];
    for (const s of root.snapshots) if (matchesAny(patterns, s.name)) out.push(await this.readMetadata(repo, s.name, s.uuid));
    for (const m of running) if (patterns.includes('_current') || matchesAny(patterns, m.snapshot)) out.push(m);
    if (!ignoreUnavailable) {
      for (const p of patterns) {
        if (p === '_all' || p === '_current' || p.includes('*')) continue;
        if (!out.some((m) => m.snapshot === p)) throw new SnapshotMissingError(repo.name, p);
      }
    }
    return out;
  }

  /** GET /_snapshot/{repo}/{snapshot}: ES GetSnapshotsResponse. */
  async get(repoExpression: string, snapshots: string, options: GetSnapshotsOptions): Promise<Record<string, unknown>> {
    const patterns = snapshots.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const found: SnapshotMetadata[] = [];
    for (const repo of this.repositories.resolve(repoExpression)) found.push(...(await this.matching(repo, patterns, options.ignoreUnavailable)));
    const key = (m: SnapshotMetadata): number | string => {
      switch (options.sort) {
        case 'name': return m.snapshot;
        case 'duration': return (m.end_time_in_millis || Date.now()) - m.start_time_in_millis;
        case 'index_count': return m.indices.length;
        default: return m.start_time_in_millis;
      }
    };
    found.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      const c = ka < kb ? -1 : ka > kb ? 1 : a.snapshot < b.snapshot ? -1 : a.snapshot > b.snapshot ? 1 : 0;
      return options.order === 'desc' ? -c : c;
    });
    return { snapshots: found.map((m) => renderSnapshotInfo(m, this.options.version, options.verbose)), total: found.length, remaining: 0 };
  }

  /** Rows for `_cat/snapshots`. */
  async list(repoExpression: string | undefined): Promise<SnapshotMetadata[]> {
    const out: SnapshotMetadata[] = [];
    for (const repo of this.repositories.resolve(repoExpression)) out.push(...(await this.matching(repo, ['_all'], true)));
    return out;
  }

  /** GET /_snapshot[/{repo}[/{snap}]]/_status: running snapshots, or the named ones (finished too). */
  async status(repoName: string | undefined, snapshots: string | undefined, ignoreUnavailable: boolean): Promise<Record<string, unknown>> {
    let found: SnapshotMetadata[];
    if (snapshots === undefined) {
      const repos = repoName === undefined || repoName === '_all' ? [...this.running.keys()] : [this.repositories.require(repoName).name];
      found = repos.flatMap((r) => [...(this.running.get(r)?.values() ?? [])].map((x) => x.meta));
    } else {
      const repo = this.repositories.require(repoName!);
      const names = snapshots.split(',').map((s) => s.trim()).filter((s) => s !== '');
      if (names.some((n) => n.includes('*') || n === '_all')) throw new IllegalArgumentError('wildcards and _all are not supported by the snapshot status API');
      found = await this.matching(repo, names, ignoreUnavailable);
    }
    return { snapshots: found.map(renderSnapshotStatus) };
  }

  // ---- delete -----------------------------------------------------------------------------------

  /** DELETE /_snapshot/{repo}/{snapshots}: removes them from the root, then garbage-collects blobs. */
  delete(repoName: string, snapshots: string): Promise<{ removedBlobs: number }> {
    const repo = this.repositories.require(repoName);
    const patterns = snapshots.split(',').map((s) => s.trim()).filter((s) => s !== '');
    for (const p of patterns) if (!p.includes('*') && p !== '_all') validateSnapshotName(repoName, p);
    return this.serialized(repoName, async () => {
      const root = await this.readRoot(repo);
      for (const p of patterns) {
        if (!p.includes('*') && p !== '_all' && !root.snapshots.some((s) => s.name === p)) throw new SnapshotMissingError(repoName, p);
      }
      const keep = root.snapshots.filter((s) => !matchesAny(patterns, s.name));
      if (keep.length !== root.snapshots.length) {
        await repo.store.writeRoot({ format: REPOSITORY_FORMAT, generation: root.generation + 1, snapshots: keep });
      }
      const blobs = new Set<string>();
      for (const s of keep) for (const b of snapshotBlobs(await this.readMetadata(repo, s.name, s.uuid))) blobs.add(b);
      const removedBlobs = await repo.store.removeUnreferenced(blobs, new Set(keep.map((s) => s.uuid)));
      this.referenced.set(repoName, { generation: keep.length !== root.snapshots.length ? root.generation + 1 : root.generation, blobs });
      return { removedBlobs };
    });
  }

  // ---- restore ----------------------------------------------------------------------------------

  /**
   * POST /_snapshot/{repo}/{snap}/_restore: checks everything first (indices, renames, clashes
   * with open indices and aliases), then restores each index into a new directory; runs after
   * earlier operations on the repository.
   */
  async restore(repoName: string, name: string, body: RestoreSnapshotBody): Promise<{ done: Promise<Record<string, unknown>> }> {
    const repo = this.repositories.require(repoName);
    validateSnapshotName(repoName, name);
    const root = await this.readRoot(repo);
    const entry = root.snapshots.find((s) => s.name === name);
    if (!entry) throw new SnapshotMissingError(repoName, name);
    const meta = await this.readMetadata(repo, name, entry.uuid);
    const label = `${name}/${meta.uuid}`;
    const selected = resolveIndexExpression(body.indices === null ? undefined : body.indices.join(','), [...meta.indices], {
      ignoreUnavailable: body.ignoreUnavailable, allowNoIndices: body.allowNoIndices, expandHidden: body.indices === null,
    });
    const targets = new Map<string, string>();
    for (const index of selected.sort()) {
      const target = body.rename ? body.rename.replaceAll(index) : index;
      const previous = [...targets].find(([, t]) => t === target)?.[0];
      if (previous !== undefined) throw new SnapshotRestoreError(repoName, label, `indices [${index}] and [${previous}] are renamed into the same index [${target}]`);
      if (this.indices.get(target)) {
        throw new SnapshotRestoreError(repoName, label, `cannot restore index [${target}] because an open index with same name already exists in the cluster. Either close or delete the existing index or restore the index under a different name by providing a rename pattern and replacement name`);
      }
      if (this.indices.exists(target)) throw new SnapshotRestoreError(repoName, label, `cannot rename index [${index}] into [${target}] because of conflict with an alias with the same name`);
      targets.set(index, target);
    }
    const restored = [...targets].map(([index, target]) => ({ target, stored: this.restoredSettings(repoName, label, meta.index_details[index], body) }));
    const done = this.serialized(repoName, async () => {
      let shards = 0;
      for (const { target, stored } of restored) {
        const detail = meta.index_details[[...targets].find(([, t]) => t === target)![0]];
        await this.indices.restoreIndex(target, stored, body.includeAliases, (shard, dir) => this.placeShard(repo, detail.shards[shard], dir));
        shards += detail.shards.length;
      }
      if (body.includeGlobalState && meta.global_state !== null) {
        for (const [id, config] of Object.entries(meta.global_state.ingest.pipelines)) await this.ingest.put(id, config);
      }
      return { snapshot: name, indices: restored.map((r) => r.target), shards: { total: shards, failed: 0, successful: shards } };
    });
    return { done };
  }

  /** The stored index with `index_settings` applied and `ignore_index_settings` removed (ES RestoreService). */
  private restoredSettings(repoName: string, label: string, detail: IndexSnapshot, body: RestoreSnapshotBody): StoredIndex {
    const settings: Record<string, StoredIndex['settings'][string]> = { ...detail.index.settings };
    const full = (k: string) => (k.startsWith('index.') ? k : `index.${k}`);
    const fixed = new Set(['index.number_of_shards', 'index.uuid', 'index.creation_date', 'index.version.created']);
    for (const raw of body.ignoreIndexSettings) {
      const key = full(raw);
      if (fixed.has(key)) throw new SnapshotRestoreError(repoName, label, `cannot remove setting [${key}] on restore`);
      for (const k of Object.keys(settings)) if (globMatcher(key).test(k)) delete settings[k];
    }
    if (body.indexSettings !== null) {
      const overrides = flattenSettings(body.indexSettings as JsonObject);
      for (const k of overrides.keys()) if (fixed.has(k)) throw new SnapshotRestoreError(repoName, label, `cannot modify setting [${k}] on restore`);
      validateSettings(overrides);
      for (const [k, v] of overrides) settings[k] = v;
    }
    return { ...detail.index, settings };
  }

  /** Writes a shard's files from the blobs, then its commit point (recovery then verifies every file). */
  private async placeShard(repo: Repository, shard: ShardSnapshot, dir: string): Promise<void> {
    const segments: CommittedSegment[] = [];
    for (const s of shard.segments) {
      const file = segmentFileName(s.generation);
      await repo.store.copyBlobTo(s.blob, join(dir, file));
      let liveDocsFile: string | null = null;
      if (s.live_docs) {
        liveDocsFile = liveDocsFileName(s.generation, s.live_docs.generation);
        await repo.store.copyBlobTo(s.live_docs.blob, join(dir, liveDocsFile));
      }
      segments.push({ generation: s.generation, file, maxDoc: s.max_doc, liveDocsFile });
    }
    await writeFileAtomic(join(dir, 'commit.json'), JSON.stringify({ version: COMMIT_VERSION, checkpoint: shard.checkpoint, segments }));
  }

  // ---- repositories -----------------------------------------------------------------------------

  /** POST /_snapshot/{repo}/_verify: ES VerifyRepositoryResponse. */
  async verify(repoName: string, node: { id: string; name: string }): Promise<Record<string, unknown>> {
    const repo = this.repositories.require(repoName);
    try {
      await repo.store.init();
      await repo.store.verify();
    } catch (e) {
      throw new RepositoryVerificationError(repoName, `path is not accessible on the node: ${(e as Error).message}`);
    }
    return { nodes: { [node.id]: { name: node.name } } };
  }
}
