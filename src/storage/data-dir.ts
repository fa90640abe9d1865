/**
 * The data directory (layout version 1; docs/ARCHITECTURE.md §2 and the README's operations
 * section describe it):
 *
 *   VERSION                              "threadsearch-data 1"
 *   node.lock                            the server using the directory (pid, boot id, start time)
 *   cluster-state.json                   indices (settings, mappings) and every later feature's state
 *   indices/<index uuid>/<shard>/
 *     commit.json                        the shard's last flush: checkpoint seq_no + segment files
 *     segment-<gen>.tseg                 a segment's SharedArrayBuffer bytes (header + CRC32)
 *     live-<gen>-<livegen>.tlive         a segment's live-docs bitset (header + CRC32)
 *     translog-<gen>.tlog                writes since the last flush
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from './atomic-file.js';

export const DATA_FORMAT = 'threadsearch-data 1';

export class DataDirError extends Error {}

export interface DataDir {
  readonly root: string;
  readonly clusterStateFile: string;
  /** Holds one directory per index, named by its uuid. */
  readonly indicesDir: string;
  /** Finished task results (`tasks/<n>.json`). */
  readonly tasksDir: string;
  /** User model folders (`models/<model id>/`) and generated simulation graphs (`models/.simulation/`). */
  readonly modelsDir: string;
  shardDir(indexUuid: string, shard: number): string;
  indexDir(indexUuid: string): string;
  /** Releases the lock (graceful shutdown). */
  unlock(): void;
}

/**
 * Who holds a lock: pid, plus (on Linux) the boot id and the process start time, so a pid reused
 * by another process after a crash or reboot — or a killed server not yet reaped — does not keep
 * the directory locked. (Node has no flock; this is the portable part of what it would give.)
 */
interface LockOwner {
  readonly pid: number;
  readonly boot: string | null;
  readonly start: string | null;
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** State and start time from /proc/<pid>/stat (fields 3 and 22; the name in field 2 may hold spaces). */
function procStat(pid: number): { state: string; start: string } | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], start: fields[19] };
}

function currentOwner(): LockOwner {
  return { pid: process.pid, boot: readProc('/proc/sys/kernel/random/boot_id')?.trim() ?? null, start: procStat(process.pid)?.start ?? null };
}

function ownerAlive(owner: LockOwner): boolean {
  const me = currentOwner();
  if (owner.boot !== null && me.boot !== null) {
    if (owner.boot !== me.boot) return false;
    const stat = procStat(owner.pid);
    return stat !== null && stat.state !== 'Z' && stat.start === owner.start;
  }
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const o = JSON.parse(text) as LockOwner;
    return Number.isInteger(o.pid) ? o : null;
  } catch {
    return null;
  }
}

/** Directories this process holds (the pid in node.lock cannot tell two apps in one process apart). */
const openRoots = new Set<string>();

export function openDataDir(root: string): DataDir {
  if (openRoots.has(root)) throw new DataDirError(`data directory [${root}] is already in use by this process`);
  mkdirSync(root, { recursive: true });
  const versionFile = join(root, 'VERSION');
  if (existsSync(versionFile)) {
    const found = readFileSync(versionFile, 'utf8').trim();
    if (found !== DATA_FORMAT) throw new DataDirError(`data directory [${root}] has format [${found}]; this server reads [${DATA_FORMAT}]`);
  } else {
    writeFileAtomicSync(versionFile, DATA_FORMAT + '\n');
  }
  // One server per directory: two would interleave translogs and lose writes.
  const lockFile = join(root, 'node.lock');
  if (existsSync(lockFile)) {
    const owner = parseOwner(readFileSync(lockFile, 'utf8'));
    if (owner && owner.pid !== process.pid && ownerAlive(owner)) {
      throw new DataDirError(`data directory [${root}] is in use by process ${owner.pid}`);
    }
  }
  writeFileSync(lockFile, JSON.stringify(currentOwner()));
  openRoots.add(root);
  mkdirSync(join(root, 'indices'), { recursive: true });
  return {
    root,
    clusterStateFile: join(root, 'cluster-state.json'),
    indicesDir: join(root, 'indices'),
    tasksDir: join(root, 'tasks'),
    modelsDir: join(root, 'models'),
    indexDir: (uuid) => join(root, 'indices', uuid),
    shardDir: (uuid, shard) => join(root, 'indices', uuid, String(shard)),
    unlock: () => {
      if (!openRoots.delete(root)) return;
      rmSync(lockFile, { force: true });
    },
  };
}
