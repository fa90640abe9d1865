/**
 * One shard's directory: its commit point, segment and live-docs files, and translog. The commit
 * point is the shard's last flush — which segment files (with which live docs) hold every op up to
 * `checkpoint`; recovery loads those and replays the translog's later ops.
 */
import { mkdirSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir, writeFileAtomic } from './atomic-file.js';
import { CorruptFileError, decodeChecksummed, encodeChecksummed, FILE_HEADER_BYTES, FileKind, verifyChecksummed } from './checksummed-file.js';
import { Translog, type TranslogOptions, type TranslogReadReport } from './translog.js';

export const COMMIT_VERSION = 1;

export interface CommittedSegment {
  /** Segment generation (its id is `<index uuid>/<shard>/<generation>`). */
  readonly generation: number;
  readonly file: string;
  readonly maxDoc: number;
  readonly liveDocsFile: string | null;
}

export interface Commit {
  readonly version: number;
  /** Every op with seq_no ≤ checkpoint is in these segments; later ones are in the translog. */
  readonly checkpoint: number;
  readonly segments: readonly CommittedSegment[];
}

export function segmentFileName(generation: number): string {
  return `segment-${generation}.tseg`;
}

export function liveDocsFileName(generation: number, liveGeneration: number): string {
  return `live-${generation}-${liveGeneration}.tlive`;
}

/**
 * A segment's bytes as written to its file: a view, not a copy. Segments are immutable once built, so
 * the write may read them while other threads search them; a copy used to double the segment in RSS
 * until the main thread's next GC, which an idle server does not run (issue 22: 637 MB at 1M docs).
 */
export function segmentPayload(sab: SharedArrayBuffer): Uint8Array {
  // A fixed-length view: merged segments are growable buffers, whose length-tracking views V8
  // handles on a slower path.
  return new Uint8Array(sab, 0, sab.byteLength);
}

/** A live-docs bitset's bytes as written to its file (a copy, as above). */
export function liveDocsPayload(bits: Uint32Array): Uint8Array {
  return new Uint8Array(bits.buffer, bits.byteOffset, bits.byteLength).slice();
}

/** Reads `into.length` bytes from `position` (a short read is a truncated file). */
async function readFully(fh: FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await fh.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
}

export class ShardStore {
  translog: Translog | null = null;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** The last commit, null when the shard never flushed; a CorruptFileError when unreadable. */
  async readCommit(): Promise<Commit | null> {
    let text: string;
    try {
      text = await readFile(join(this.dir, 'commit.json'), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    let c: Commit;
    try {
      c = JSON.parse(text) as Commit;
    } catch {
      throw new CorruptFileError('commit.json', 'not valid JSON');
    }
    if (c.version !== COMMIT_VERSION || !Array.isArray(c.segments) || typeof c.checkpoint !== 'number') {
      throw new CorruptFileError('commit.json', `unsupported or damaged commit (version ${String(c.version)})`);
    }
    return c;
  }

  /**
   * Moves damaged (or, when the commit is unreadable, unattributable) files into `corrupted/`, out
   * of the way of recovery and cleanup, and kept for inspection.
   */
  async quarantine(files: readonly string[]): Promise<void> {
    const dest = join(this.dir, 'corrupted');
    await mkdir(dest, { recursive: true });
    for (const f of files) {
      await rename(join(this.dir, f), join(dest, f)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    }
    await fsyncDir(this.dir);
  }

  /** Segment and live-docs files present (what an unreadable commit leaves unattributed). */
  async dataFiles(): Promise<string[]> {
    return (await readdir(this.dir)).filter((f) => f.endsWith('.tseg') || f.endsWith('.tlive'));
  }

  /** A file's bytes; a missing file is as damaged as a corrupt one. */
  private async readVerified(file: string, kind: FileKind): Promise<Buffer> {
    let bytes: Buffer;
    try {
      bytes = await readFile(join(this.dir, file));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new CorruptFileError(file, 'missing');
      throw e;
    }
    return decodeChecksummed(file, kind, bytes);
  }

  writeCommit(commit: Commit): Promise<void> {
    return writeFileAtomic(join(this.dir, 'commit.json'), JSON.stringify(commit));
  }

  private async writeChecksummed(file: string, kind: FileKind, payload: Uint8Array): Promise<void> {
    const fh = await open(join(this.dir, file), 'w');
    try {
      await fh.writev(encodeChecksummed(kind, payload));
      await fh.sync();
    } finally {
      await fh.close();
    }
  }

  async writeSegment(generation: number, sab: SharedArrayBuffer): Promise<string> {
    const file = segmentFileName(generation);
    await this.writeChecksummed(file, FileKind.Segment, segmentPayload(sab));
    return file;
  }

  async writeLiveDocs(generation: number, liveGeneration: number, bits: Uint32Array): Promise<string> {
    const file = liveDocsFileName(generation, liveGeneration);
    await this.writeChecksummed(file, FileKind.LiveDocs, liveDocsPayload(bits));
    return file;
  }

  /**
   * A segment file's bytes in a new SharedArrayBuffer, read straight into it (a Buffer in between
   * would double the segment in RSS until the next GC); throws CorruptFileError when damaged.
   */
  async readSegment(file: string): Promise<SharedArrayBuffer> {
    let fh: FileHandle;
    try {
      fh = await open(join(this.dir, file), 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new CorruptFileError(file, 'missing');
      throw e;
    }
    try {
      const size = (await fh.stat()).size;
      const header = Buffer.alloc(Math.min(size, FILE_HEADER_BYTES));
      await readFully(fh, header, 0);
      const length = size - header.length;
      const sab = new SharedArrayBuffer(length);
      const payload = new Uint8Array(sab);
      await readFully(fh, payload, header.length);
      verifyChecksummed(file, FileKind.Segment, header, payload);
      return sab;
    } finally {
      await fh.close();
    }
  }

  async readLiveDocs(file: string): Promise<Uint32Array> {
    const payload = await this.readVerified(file, FileKind.LiveDocs);
    const bits = new Uint32Array(new SharedArrayBuffer(payload.length));
    new Uint8Array(bits.buffer).set(payload);
    return bits;
  }

  /** Removes segment and live-docs files the commit no longer names. */
  async removeUnreferenced(commit: Commit): Promise<void> {
    const keep = new Set<string>(['commit.json']);
    for (const s of commit.segments) {
      keep.add(s.file);
      if (s.liveDocsFile) keep.add(s.liveDocsFile);
    }
    for (const f of await readdir(this.dir)) {
      if ((f.endsWith('.tseg') || f.endsWith('.tlive')) && !keep.has(f)) await unlink(join(this.dir, f)).catch(() => undefined);
    }
    await fsyncDir(this.dir);
  }

  /** Highest segment generation among the files present (so new ones never reuse a name). */
  async maxGeneration(): Promise<number> {
    let max = -1;
    for (const f of await readdir(this.dir)) {
      const m = /^(?:segment|live)-(\d+)(?:-(\d+))?\.t(?:seg|live)$/.exec(f);
      if (m) max = Math.max(max, Number(m[1]), m[2] !== undefined ? Number(m[2]) : -1);
    }
    return max;
  }

  readTranslog(): Promise<TranslogReadReport> {
    return Translog.read(this.dir);
  }

  /** Opens the translog for new writes (a new generation after `existing`, created in the background). */
  openTranslog(options: TranslogOptions, existing: TranslogReadReport['generations']): Translog {
    this.translog = Translog.create(this.dir, options, existing);
    return this.translog;
  }
}
