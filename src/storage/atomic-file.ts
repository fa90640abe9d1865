/**
 * Crash-safe whole-file writes: write a temporary file, fsync it, rename it over the target, fsync
 * the directory. After a crash a reader sees the old file or the new one, never a mix.
 */
import { open, rename, unlink } from 'node:fs/promises';
import { openSync, fsyncSync, closeSync, writeSync, renameSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';

let tempCounter = 0;

function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${tempCounter++}.tmp`);
}

export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  await writeAndRename(path, [typeof data === 'string' ? Buffer.from(data) : data]);
  await fsyncDir(dirname(path));
}

/**
 * The first half of `writeFileAtomic`: temp file, fsync, rename over `path`. The caller fsyncs the
 * directory — once for many files (a snapshot's blobs) — before anything depends on the names.
 */
export async function writeAndRename(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  const tmp = tempPath(path);
  const fh = await open(tmp, 'w');
  try {
    await fh.writev([...chunks]);
    await fh.sync();
  } catch (e) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await fh.close();
  await rename(tmp, path);
}

/** The same, synchronously (start-up and shutdown paths). */
export function writeFileAtomicSync(path: string, data: Uint8Array | string): void {
  const tmp = tempPath(path);
  const fd = openSync(tmp, 'w');
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dfd = openSync(dirname(path), 'r');
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}
