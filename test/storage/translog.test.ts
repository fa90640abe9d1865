import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Translog, encodeOp, type TranslogOp } from '../../src/storage/index.js';

const REQUEST = { durability: 'request', syncIntervalMs: 5000 } as const;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'translog-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function indexOp(seqNo: number, id = `doc-${seqNo}`, source = `{"n":${seqNo},"text":"héllo wörld"}`): TranslogOp {
  return { op: 'index', seqNo, version: 1, indexOrder: seqNo, id, source };
}

async function write(ops: TranslogOp[], options = REQUEST): Promise<Translog> {
  const t = Translog.create(dir, options, []);
  for (const op of ops) t.append(op);
  await t.sync();
  return t;
}

function onlyFile(): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.tlog'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]);
}

describe('translog', () => {
  it('reuses written chunks only once their records are durable: concurrent group commits read back intact', async () => {
    const t = Translog.create(dir, REQUEST, []);
    const ops: TranslogOp[] = [];
    const syncs: Promise<void>[] = [];
    let reused = 0;
    // ~40 MB of records across many 64 KB chunks, with syncs in flight while appends continue.
    for (let i = 0; i < 60_000; i++) {
      const op = indexOp(i, `doc-${i}`, `{"n":${i},"text":"${String.fromCharCode(97 + (i % 26)).repeat(i % 1300)}"}`);
      ops.push(op);
      t.append(op);
      if (i % 997 === 0) {
        syncs.push(t.sync());
        // Now and then let earlier group commits finish (their chunks become spare) while one is in flight.
        if (syncs.length % 3 === 0) await syncs[syncs.length - 2];
        reused = Math.max(reused, (t as unknown as { spare: Buffer[] }).spare.length);
      }
    }
    expect(reused).toBeGreaterThan(0);
    syncs.push(t.sync());
    await Promise.all(syncs);
    await t.close();
    const read = await Translog.read(dir);
    expect(read.ops.length).toBe(ops.length);
    expect(read.ops).toEqual(ops);
  });

  it('reads back every synced op, in order, with UTF-8 ids and sources intact', async () => {
    const ops: TranslogOp[] = [indexOp(0), indexOp(1, 'ü/ß 日本'), { op: 'delete', seqNo: 2, version: 2, id: 'doc-0' }, indexOp(3, 'x', '')];
    const t = await write(ops);
    await t.close();
    const read = await Translog.read(dir);
    expect(read.ops).toEqual(ops);
    expect(read.warnings).toEqual([]);
    expect(read.lostRecords).toBe(0);
  });

  it('keeps every record whole across chunk boundaries, records larger than a chunk and appends during a write', async () => {
    const t = Translog.create(dir, REQUEST, []);
    const ops: TranslogOp[] = [];
    const add = (op: TranslogOp) => {
      ops.push(op);
      t.append(op);
    };
    // Thousands of small records fill several growing chunks; a 100 KB source (with 3-byte
    // UTF-8 characters) is larger than any chunk; ops appended while a group commit is in
    // flight land after its bytes in the same chunk.
    for (let i = 0; i < 3000; i++) add(indexOp(i));
    add(indexOp(3000, 'big', JSON.stringify({ text: '日本語'.repeat(12_000) })));
    const first = t.sync();
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 3001; i < 3100; i++) add(i % 10 === 0 ? { op: 'delete', seqNo: i, version: 2, id: `doc-${i - 1}` } : indexOp(i));
    await Promise.all([first, t.sync()]);
    await t.close();
    const read = await Translog.read(dir);
    expect(read.ops).toEqual(ops);
    expect(read.lostRecords).toBe(0);
    expect(statSync(onlyFile()).size).toBe(16 + ops.reduce((n, op) => n + encodeOp(op).length, 0));
  });

  it('shares one fsync among concurrent writers (group commit)', async () => {
    const t = Translog.create(dir, REQUEST, []);
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      t.append(indexOp(i));
      waits.push(t.sync());
    }
    await Promise.all(waits);
    // The first sync starts a write; everything appended meanwhile goes in the next one.
    expect(t.syncCount).toBeLessThanOrEqual(2);
    await t.close();
    expect((await Translog.read(dir)).ops).toHaveLength(200);
  });

  it('sync resolves only after the record is on disk', async () => {
    const t = Translog.create(dir, REQUEST, []);
    t.append(indexOp(0));
    await t.sync();
    // Read while the log is still open: what sync promised is already in the file.
    expect((await Translog.read(dir)).ops).toEqual([indexOp(0)]);
    await t.close();
  });

  it('with async durability, sync does not wait and close writes what is pending', async () => {
    const t = Translog.create(dir, { durability: 'async', syncIntervalMs: 60_000 }, []);
    t.append(indexOp(0));
    await t.sync();
    expect(t.syncCount).toBe(0);
    await t.close();
    expect((await Translog.read(dir)).ops).toEqual([indexOp(0)]);
  });

  it('discards a torn last record (a write whose fsync never returned) without reporting loss', async () => {
    const t = await write([indexOp(0), indexOp(1), indexOp(2)]);
    await t.close();
    const file = onlyFile();
    const size = statSync(file).size;
    truncateSync(file, size - 5);
    const read = await Translog.read(dir);
    expect(read.ops.map((o) => o.seqNo)).toEqual([0, 1]);
    expect(read.lostRecords).toBe(0);
    expect(read.warnings.join()).toMatch(/torn last record/);
    // The torn bytes are cut off, so the generation reads cleanly from now on.
    expect(statSync(file).size).toBe(size - encodeOp(indexOp(2)).length);
    expect((await Translog.read(dir)).warnings).toEqual([]);
  });

  it('skips a damaged record in the middle, reports it lost, and keeps the records after it', async () => {
    const t = await write([indexOp(0), indexOp(1), indexOp(2)]);
    await t.close();
    const file = onlyFile();
    const bytes = readFileSync(file);
    // Flip a byte inside the second record's body (header 16 bytes, first record, 8-byte frame).
    const second = 16 + encodeOp(indexOp(0)).length + 8 + 3;
    bytes[second] ^= 0xff;
    writeFileSync(file, bytes);
    const read = await Translog.read(dir);
    expect(read.ops.map((o) => o.seqNo)).toEqual([0, 2]);
    expect(read.lostRecords).toBe(1);
    expect(read.warnings.join()).toMatch(/damaged record/);
  });

  it('reports damage it cannot resync past as lost, not as a torn write', async () => {
    const t = await write([indexOp(0), indexOp(1), indexOp(2)]);
    await t.close();
    const file = onlyFile();
    const bytes = readFileSync(file);
    // Corrupt the second record's length field: nothing after it can be framed.
    bytes.writeUInt32LE(0x7fffff00, 16 + encodeOp(indexOp(0)).length);
    writeFileSync(file, bytes);
    // Another generation after it makes this one "not last": the damage cannot be a torn write.
    writeFileSync(join(dir, 'translog-2.tlog'), Buffer.alloc(0));
    const read = await Translog.read(dir);
    expect(read.ops.map((o) => o.seqNo)).toEqual([0]);
    expect(read.lostRecords).toBe(1);
  });

  it('rolls to a new generation and trims generations whose ops are all at or below the checkpoint', async () => {
    const t = await write([indexOp(0), indexOp(1)]);
    await t.roll();
    t.append(indexOp(2));
    await t.sync();
    await t.trim(1);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tlog'))).toEqual(['translog-2.tlog']);
    await t.close();
    expect((await Translog.read(dir)).ops.map((o) => o.seqNo)).toEqual([2]);
  });

  it('keeps a generation that still holds an op above the checkpoint', async () => {
    const t = await write([indexOp(0), indexOp(1)]);
    await t.roll();
    await t.trim(0);
    await t.close();
    expect((await Translog.read(dir)).ops.map((o) => o.seqNo)).toEqual([0, 1]);
  });

  it('continues after existing generations when reopened, and the old ones read first', async () => {
    const first = await write([indexOp(0)]);
    await first.close();
    const read = await Translog.read(dir);
    const t = Translog.create(dir, REQUEST, read.generations);
    t.append(indexOp(1));
    await t.sync();
    await t.close();
    expect((await Translog.read(dir)).ops.map((o) => o.seqNo)).toEqual([0, 1]);
  });

  it('drops a generation killed before its header was written, also once a later generation follows it', async () => {
    const first = await write([indexOp(0)]);
    await first.close();
    // A kill while a roll created translog-2 (its header never reached the disk), then a recovery
    // that went on in translog-3 and a second kill before a flush trimmed anything.
    const later = Translog.create(dir, REQUEST, [...(await Translog.read(dir)).generations, { generation: 2, maxSeqNo: -1, bytes: 0 }]);
    later.append(indexOp(1));
    await later.sync();
    await later.close();
    writeFileSync(join(dir, 'translog-2.tlog'), Buffer.alloc(5));
    const read = await Translog.read(dir);
    expect(read.ops.map((o) => o.seqNo)).toEqual([0, 1]);
    expect(read.lostRecords).toBe(0);
    expect(read.warnings).toEqual(['translog-2.tlog: discarded an incomplete new generation (5 bytes)']);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tlog')).sort()).toEqual(['translog-1.tlog', 'translog-3.tlog']);
  });

  it('refuses appends after close', async () => {
    const t = await write([]);
    await t.close();
    expect(() => t.append(indexOp(0))).toThrow(/closed/);
  });
});
