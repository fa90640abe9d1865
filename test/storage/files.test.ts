import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ClusterStateStore, CorruptFileError, DATA_FORMAT, DataDirError, FileKind, ShardStore, decodeChecksummed, encodeChecksummed, openDataDir,
  writeFileAtomic,
} from '../../src/storage/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'storage-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('checksummed files', () => {
  const payload = Buffer.from('segment bytes \u0000\u0001\u00ff', 'latin1');
  const encoded = () => Buffer.concat(encodeChecksummed(FileKind.Segment, payload));

  it('round-trips the payload', () => {
    expect(decodeChecksummed('f', FileKind.Segment, encoded())).toEqual(payload);
  });

  it.each([
    ['a flipped payload bit', (b: Buffer) => { b[b.length - 2] ^= 1; return b; }, /checksum mismatch/],
    ['a truncated payload', (b: Buffer) => b.subarray(0, b.length - 1), /truncated/],
    ['a truncated header', (b: Buffer) => b.subarray(0, 10), /truncated/],
    ['a wrong magic', (b: Buffer) => { b[0] ^= 1; return b; }, /bad magic/],
  ])('detects %s', (_name, damage, message) => {
    expect(() => decodeChecksummed('f', FileKind.Segment, damage(encoded()))).toThrow(message);
    expect(() => decodeChecksummed('f', FileKind.Segment, damage(encoded()))).toThrow(CorruptFileError);
  });

  it('refuses a file of another kind', () => {
    expect(() => decodeChecksummed('f', FileKind.LiveDocs, encoded())).toThrow(/wrong file kind/);
  });

  it('reports a missing segment file as damage, and quarantines files into corrupted/', async () => {
    const store = new ShardStore(join(dir, 'shard'));
    await expect(store.readSegment('segment-9.tseg')).rejects.toThrow(/missing/);
    const file = await store.writeSegment(1, new SharedArrayBuffer(8));
    await store.quarantine([file]);
    expect(existsSync(join(dir, 'shard', 'corrupted', file))).toBe(true);
    expect(await store.dataFiles()).toEqual([]);
  });

  it('reports an unreadable commit point as a CorruptFileError', async () => {
    const store = new ShardStore(join(dir, 'shard'));
    expect(await store.readCommit()).toBeNull();
    writeFileSync(join(dir, 'shard', 'commit.json'), '{"version":1,"checkp');
    await expect(store.readCommit()).rejects.toThrow(CorruptFileError);
  });
});

describe('atomic writes', () => {
  it('replace the whole file and leave no temporary files behind', async () => {
    const file = join(dir, 'state.json');
    await writeFileAtomic(file, 'one');
    await writeFileAtomic(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

describe('cluster state', () => {
  it('persists registered sections and keeps sections it does not know', async () => {
    const file = join(dir, 'cluster-state.json');
    writeFileSync(file, JSON.stringify({ version: 1, sections: { future_feature: { x: 1 } } }));
    const store = new ClusterStateStore(file);
    store.load();
    let value = 1;
    store.register('mine', () => ({ value }));
    store.markChanged();
    await store.persist();
    value = 2;
    const reread = new ClusterStateStore(file);
    reread.load();
    expect(reread.section('mine')).toEqual({ value: 1 });
    expect(reread.section('future_feature')).toEqual({ x: 1 });
  });

  it('persist() is free without changes and coalesces concurrent saves into at most two writes', async () => {
    const file = join(dir, 'cluster-state.json');
    const store = new ClusterStateStore(file);
    let snapshots = 0;
    let value = 0;
    store.register('s', () => {
      snapshots++;
      return value;
    });
    await store.persist();
    expect(snapshots).toBe(0);
    const waits: Promise<void>[] = [];
    for (let i = 1; i <= 50; i++) {
      value = i;
      store.markChanged();
      waits.push(store.persist());
    }
    await Promise.all(waits);
    expect(snapshots).toBeLessThanOrEqual(2);
    const reread = new ClusterStateStore(file);
    reread.load();
    expect(reread.section('s')).toBe(50);
  });
});

describe('data directory', () => {
  it('writes its format version and refuses another format', () => {
    const d = openDataDir(join(dir, 'data'));
    expect(readFileSync(join(dir, 'data', 'VERSION'), 'utf8').trim()).toBe(DATA_FORMAT);
    d.unlock();
    writeFileSync(join(dir, 'data', 'VERSION'), 'threadsearch-data 99\n');
    expect(() => openDataDir(join(dir, 'data'))).toThrow(/format/);
  });

  it('is locked against a second user while open, and free again after unlock', () => {
    const root = join(dir, 'data');
    const d = openDataDir(root);
    expect(() => openDataDir(root)).toThrow(DataDirError);
    d.unlock();
    openDataDir(root).unlock();
  });

  it('ignores a lock left by a process that is gone (a crash)', () => {
    const root = join(dir, 'data');
    openDataDir(root).unlock();
    // A pid that is not running, as a SIGKILLed server leaves it.
    writeFileSync(join(root, 'node.lock'), JSON.stringify({ pid: 2 ** 22 + 7, boot: null, start: null }));
    openDataDir(root).unlock();
  });

  it('ignores a lock whose pid now belongs to another process (reused after a crash or reboot)', () => {
    const root = join(dir, 'data');
    openDataDir(root).unlock();
    // Our parent is alive, but its start time is not the one recorded.
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    writeFileSync(join(root, 'node.lock'), JSON.stringify({ pid: process.ppid, boot, start: '1' }));
    openDataDir(root).unlock();
  });
});
