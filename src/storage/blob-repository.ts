/**
 * A shared-filesystem snapshot repository (ES's `fs` type) on disk:
 *
 *   index.json          the repository's root: its generation and the list of finished snapshots
 *   snap-<uuid>.json    one snapshot's metadata (indices, settings, mappings, per-shard files)
 *   blobs/<sha256>      content-addressed shard files: exactly the bytes of a segment or live-docs
 *                       file (header + CRC32 + payload), named by the SHA-256 of those bytes
 *
 * Crash safety is the order of writes, as ES's BlobStoreRepository: blobs first (each temp → fsync
 * → rename, then the blobs directory fsynced), then the snapshot's metadata file, and last the root
 * file, swapped atomically (temp → fsync → rename → fsync directory). Until the swap a new snapshot
 * does not exist; a crash anywhere before it leaves the previous root, and every snapshot it names
 * has all of its blobs. Whatever a crashed run left behind — blobs and metadata nothing names — is
 * removed by the next deletion's cleanup (`removeUnreferenced`).
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir, writeAndRename, writeFileAtomic } from './atomic-file.js';
import { CorruptFileError } from './checksummed-file.js';

export const REPOSITORY_FORMAT = 'threadsearch-snapshots 1';
const ROOT_FILE = 'index.json';
const BLOBS = 'blobs';

/** One finished snapshot as the root lists it (enough to list snapshots without opening each). */
export interface RepositorySnapshotEntry {
  readonly name: string;
  readonly uuid: string;
  readonly state: string;
  readonly indices: readonly string[];
  readonly start_time_in_millis: number;
  readonly end_time_in_millis: number;
}

export interface RepositoryRoot {
  readonly format: string;
  /** -1 for an empty repository; every swap writes generation + 1. */
  readonly generation: number;
  readonly snapshots: readonly RepositorySnapshotEntry[];
}

const EMPTY_ROOT: RepositoryRoot = { format: REPOSITORY_FORMAT, generation: -1, snapshots: [] };

/** The content address of a shard file's bytes. */
export function blobName(chunks: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const c of chunks) hash.update(c);
  return hash.digest('hex');
}

function isNotFound(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === 'ENOENT';
}

export class BlobRepository {
  constructor(readonly root: string) {}

  private get blobsDir(): string {
    return join(this.root, BLOBS);
  }

  /** Creates the directories (ES creates a new repository's location on registration). */
  async init(): Promise<void> {
    await mkdir(this.blobsDir, { recursive: true });
  }

  /** The root file; an empty repository when there is none yet, a CorruptFileError when unreadable. */
  async readRoot(): Promise<RepositoryRoot> {
    let text: string;
    try {
      text = await readFile(join(this.root, ROOT_FILE), 'utf8');
    } catch (e) {
      if (isNotFound(e)) return EMPTY_ROOT;
      throw e;
    }
    let root: RepositoryRoot;
    try {
      root = JSON.parse(text) as RepositoryRoot;
    } catch {
      throw new CorruptFileError(ROOT_FILE, 'not valid JSON');
    }
    if (root.format !== REPOSITORY_FORMAT || !Array.isArray(root.snapshots) || typeof root.generation !== 'number') {
      throw new CorruptFileError(ROOT_FILE, `not a repository root of format [${REPOSITORY_FORMAT}]`);
    }
    return root;
  }

  /** The atomic swap that makes a snapshot exist (or a deletion happen). */
  writeRoot(root: RepositoryRoot): Promise<void> {
    return writeFileAtomic(join(this.root, ROOT_FILE), JSON.stringify(root));
  }

  /** Writes a blob durably under its final name (temp → fsync → rename); `syncBlobs()` makes the names durable. */
  writeBlob(name: string, chunks: readonly Uint8Array[]): Promise<void> {
    return writeAndRename(join(this.blobsDir, name), chunks);
  }

  syncBlobs(): Promise<void> {
    return fsyncDir(this.blobsDir);
  }

  /** Copies a blob to a file (restore) and fsyncs the copy; a missing blob is a CorruptFileError. */
  async copyBlobTo(name: string, dest: string): Promise<void> {
    try {
      await copyFile(join(this.blobsDir, name), dest);
    } catch (e) {
      if (isNotFound(e)) throw new CorruptFileError(`${BLOBS}/${name}`, 'missing');
      throw e;
    }
    const fh = await open(dest, 'r+');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }

  writeSnapshotMetadata(uuid: string, metadata: unknown): Promise<void> {
    return writeFileAtomic(join(this.root, `snap-${uuid}.json`), JSON.stringify(metadata));
  }

  async readSnapshotMetadata<T>(uuid: string): Promise<T> {
    const file = `snap-${uuid}.json`;
    let text: string;
    try {
      text = await readFile(join(this.root, file), 'utf8');
    } catch (e) {
      if (isNotFound(e)) throw new CorruptFileError(file, 'missing');
      throw e;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CorruptFileError(file, 'not valid JSON');
    }
  }

  /**
   * Removes every blob and snapshot metadata file the root no longer needs (deleted snapshots, and
   * what crashed runs left), plus stray temp files. Returns how many blobs were removed.
   */
  async removeUnreferenced(blobs: ReadonlySet<string>, snapshotUuids: ReadonlySet<string>): Promise<number> {
    let removed = 0;
    for (const f of await readdir(this.blobsDir)) {
      if (blobs.has(f)) continue;
      await unlink(join(this.blobsDir, f)).catch(() => undefined);
      if (!f.endsWith('.tmp')) removed++;
    }
    for (const f of await readdir(this.root)) {
      const m = /^snap-(.+)\.json$/.exec(f);
      if ((m && !snapshotUuids.has(m[1])) || (f.startsWith('.') && f.endsWith('.tmp'))) await unlink(join(this.root, f)).catch(() => undefined);
    }
    await fsyncDir(this.blobsDir);
    await fsyncDir(this.root);
    return removed;
  }

  /** Blob files present (tests and cleanup accounting). */
  async listBlobs(): Promise<string[]> {
    return (await readdir(this.blobsDir)).filter((f) => !f.endsWith('.tmp'));
  }

  /** ES's repository verification: the location is writable and readable by this node. */
  async verify(): Promise<void> {
    const file = join(this.root, `.verify-${process.pid}-${Date.now()}.tmp`);
    await writeFileAtomic(file, 'threadsearch');
    const back = await readFile(file, 'utf8');
    await unlink(file);
    if (back !== 'threadsearch') throw new Error('read back different bytes');
  }
}
