/**
 * What a refresh's build takes from its thread's scratch pool (issue 22): the memory-timeline load's
 * documents (short synthetic text + an integer) built as segments of SIZE docs (a list: one size per
 * build, in turn — a load's refreshes vary) one after another inside
 * one ScratchPool, as a build worker does (workers/build-segment.ts). The pool is instrumented
 * (take/give/reclaim wrapped): per call site (the first stack frame outside the pool and the
 * growables, with the growable's caller), the buffers taken, bytes requested and size-class bytes;
 * the peak of the bytes leased at once within one build and which sites held them then; the pool's
 * footprint (every buffer it ever made: what stays mapped between builds), and of that the most
 * bytes any lease asked of each buffer (a bound of its resident pages: a buffer's pages past every
 * request are never touched). Runs with the server's glibc malloc settings (SERVER_MALLOC_ENV).
 *
 *   node dist/bench/build-scratch.js [--size 16000[,9000,…]] [--builds 4] [--baseline /path/to/other-tree] [--label x] [--mixed] [--tree /path/to/tree] [--codec best_compression]
 *
 * `--tree`: probe that tree's build instead of this one's (its dist, the same pool API).
 * `--codec`: the index codec of the builds (`default`, LZ4; or `best_compression`).
 * `--mixed`: every kind of field the builder inverts (text with arrays and long docs, so positions
 * of every width; keyword arrays with doc values; completion; rank_features; sparse_vector;
 * search_as_you_type; numbers), for the byte comparison rather than the load's figures.
 *
 * With `--baseline`, the other tree builds the same segments (its own pool, no probe) and each
 * segment's bytes are compared with this tree's: a change to the build's scratch must write the very
 * same segment. Build times are CPU ms per build (both trees alternate build by build, no probe
 * overhead counted: the probe runs in a separate first pass). Writes
 * bench/results/build-scratch[-label].json; no BENCHMARKS.md section.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { benchArgs, numberListOption, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { findRepoRoot, writeResult } from './lib/report.js';
import { SERVER_MALLOC_ENV } from '../src/cli/server-process.js';

const USAGE = 'node dist/bench/build-scratch.js [--size 16000[,9000,…]] [--builds 4] [--baseline /path/to/other-tree] [--label x] [--mixed] [--tree /path/to/tree] [--codec best_compression]';
const { values } = benchArgs(USAGE, { options: { size: { type: 'string' }, builds: { type: 'string' }, baseline: { type: 'string' }, label: { type: 'string' }, mixed: { type: 'boolean' }, tree: { type: 'string' }, codec: { type: 'string' } } });
if (process.env.MALLOC_MMAP_THRESHOLD_ === undefined) {
  const child = spawnSync(process.execPath, process.argv.slice(1), { stdio: 'inherit', env: { ...process.env, ...SERVER_MALLOC_ENV } });
  process.exit(child.status ?? 1);
}
const SIZES = numberListOption(USAGE, values.size, 'size', [16_000]);
const BUILDS = numberOption(USAGE, values.builds, 'builds', 4);
/** Build b's docs are [START[b], START[b + 1]). */
const START = [0];
for (let b = 0; b < BUILDS; b++) START.push(START[b] + SIZES[b % SIZES.length]);
const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MB = 1024 * 1024;

interface Doc { id: string; source: string; seqNo: number; version: number; indexOrder: number }
const MIXED = values.mixed === true;
const TAGS = ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white'];
/** A mixed doc: arrays, long texts, sparse fields. */
function mixedSource(text: string, i: number): object {
  const words = text.split(' ');
  // Build 0 has positions past 65535 (u32), build 1 past 255 (u16), the others fit a byte.
  const long = i % 97 === 0 && i < START[Math.min(2, BUILDS)] ? Array.from({ length: 30 }, () => text).join(' ') : null;
  const huge = i === START[1] - 1 ? Array.from({ length: 70_000 }, (_, k) => words[k % words.length]).join(' ') : null;
  return {
    text: huge ?? long ?? (i % 5 === 0 ? [text, words.slice(0, 3).join(' ')] : text),
    ...(i % 3 === 0 ? { title: words.slice(0, 4).join(' ') } : {}),
    tags: i % 4 === 0 ? [] : Array.from({ length: 1 + (i % 3) }, (_, k) => TAGS[(i * 7 + k * 3) % TAGS.length]),
    ...(i % 2 === 0 ? { suggest: { input: [words[0] + ' ' + words[1], words[2] ?? 'x'], weight: i % 50 } } : {}),
    feat: { [words[0]]: 1 + (i % 7), [`f${i % 13}`]: 0.5 + (i % 3) },
    ...(i % 3 !== 1 ? { sv: { [words[1] ?? 'y']: 0.25 * (1 + (i % 11)), [`t${i % 29}`]: 2 } } : {}),
    n: i % 10 === 0 ? [i, i - 1, i + 1] : i,
    price: (i * 0.37) % 100,
  };
}
const docs: Doc[] = generateBm25Corpus({ docs: START[BUILDS], queries: 1 }).docs.map((d, i) => ({
  id: d.id, source: JSON.stringify(MIXED ? mixedSource(d.text, i) : { text: d.text, n: i }), seqNo: i, version: 1, indexOrder: i,
}));

interface Pool { take(bytes: number): ArrayBuffer; give(buffer: ArrayBufferLike): void; reclaim(): void; readonly retainedBytes: number }
interface IndexModule {
  SegmentBuilder: new (mapping: unknown, limits: typeof LIMITS, text?: unknown, codec?: string) => { add(doc: Doc): void; finish(): unknown };
  writeSegment(input: unknown): SharedArrayBuffer;
  parseRootMapping(json: unknown): unknown;
  ScratchPool: new () => Pool;
  withScratchPool<T>(pool: unknown, fn: () => T): T;
}

async function load(root: string): Promise<IndexModule> {
  return (await import(pathToFileURL(join(root, 'dist', 'src', 'index', 'index.js')).href)) as IndexModule;
}

/** Per call site. */
interface Site { takes: number; requested: number; classBytes: number; atPeak: number; maxOne: number }
/** Bytes of the buffers each site made (the pool had none free of its class), over every build. */
const madeBy = new Map<string, number>();

/** The caller of the pool: the first frame outside scratch-pool.js (and, for a growable, its caller too). */
function siteOf(stack: string): string {
  const frames = stack.split('\n').slice(1).map((l) => l.trim().replace(/^at /, '').replace(/\(?file:\/\/.*\/dist\//, '').replace(/\)$/, '').replace(/:\d+$/, ''));
  let i = frames.findIndex((f) => !f.includes('scratch-pool.js') && !f.includes('build-scratch.js'));
  const parts: string[] = [];
  while (i < frames.length && /growable\.js|encodeStrings|buildHashTable/.test(frames[i]) && parts.length < 2) parts.push(frames[i++]);
  parts.push(frames[i] ?? '?');
  return parts.join(' ← ');
}

/** A pool that records who takes what; its bookkeeping runs outside the measured builds' timings. */
function probe(m: IndexModule): { pool: Pool; sites: Map<string, Site>; startBuild(): void; endBuild(): { peak: number; atPeak: Map<string, number> }; created: () => number; touched: () => number } {
  const pool = new m.ScratchPool();
  const sites = new Map<string, Site>();
  const leased = new Map<ArrayBufferLike, { site: string; bytes: number }>();
  /** Per buffer made: the most bytes any lease of it asked for (its pages past that are never touched). */
  const known = new Map<ArrayBuffer, number>();
  let live = 0;
  let peak = 0;
  let atPeak = new Map<string, number>();
  let createdBytes = 0;
  const take = pool.take.bind(pool);
  const give = pool.give.bind(pool);
  const reclaim = pool.reclaim.bind(pool);
  pool.take = (bytes: number) => {
    const buffer = take(bytes);
    Error.stackTraceLimit = 12;
    const site = siteOf(new Error().stack ?? '');
    if (!known.has(buffer)) {
      createdBytes += buffer.byteLength;
      madeBy.set(site, (madeBy.get(site) ?? 0) + buffer.byteLength);
    }
    known.set(buffer, Math.max(known.get(buffer) ?? 0, bytes));
    let s = sites.get(site);
    if (s === undefined) sites.set(site, (s = { takes: 0, requested: 0, classBytes: 0, atPeak: 0, maxOne: 0 }));
    s.takes++;
    s.requested += bytes;
    s.classBytes += buffer.byteLength;
    s.maxOne = Math.max(s.maxOne, buffer.byteLength);
    leased.set(buffer, { site, bytes: buffer.byteLength });
    live += buffer.byteLength;
    if (live > peak) {
      peak = live;
      atPeak = new Map();
      for (const l of leased.values()) atPeak.set(l.site, (atPeak.get(l.site) ?? 0) + l.bytes);
    }
    return buffer;
  };
  pool.give = (buffer: ArrayBufferLike) => {
    const l = leased.get(buffer);
    if (l !== undefined) {
      leased.delete(buffer);
      live -= l.bytes;
    }
    give(buffer);
  };
  pool.reclaim = () => {
    leased.clear();
    live = 0;
    reclaim();
  };
  return {
    pool,
    sites,
    startBuild: () => {
      peak = 0;
      atPeak = new Map();
    },
    endBuild: () => ({ peak, atPeak }),
    created: () => createdBytes,
    touched: () => [...known.values()].reduce((a, b) => a + b, 0),
  };
}

function buildOne(m: IndexModule, mapping: unknown, pool: Pool, b: number): SharedArrayBuffer {
  return m.withScratchPool(pool, () => {
    const builder = new m.SegmentBuilder(mapping, LIMITS, undefined, values.codec ?? 'default');
    for (let i = START[b]; i < START[b + 1]; i++) builder.add(docs[i]);
    return m.writeSegment(builder.finish());
  });
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const HERE = values.tree ?? findRepoRoot();
const here = await load(HERE);
const MAPPING_JSON = MIXED
  ? {
    properties: {
      text: { type: 'text' }, title: { type: 'search_as_you_type' }, tags: { type: 'keyword' }, suggest: { type: 'completion' },
      feat: { type: 'rank_features' }, sv: { type: 'sparse_vector' }, n: { type: 'integer' }, price: { type: 'double' },
    },
  }
  : { properties: { text: { type: 'text' }, n: { type: 'integer' } } };
const mapping = here.parseRootMapping(MAPPING_JSON);

// 1. The probe: every build's leased peak; sites summed over the last build (they repeat build by build).
const p = probe(here);
const peaks: number[] = [];
let lastAtPeak = new Map<string, number>();
for (let b = 0; b < BUILDS; b++) {
  p.startBuild();
  p.sites.clear();
  buildOne(here, mapping, p.pool, b);
  const { peak, atPeak } = p.endBuild();
  peaks.push(peak);
  lastAtPeak = atPeak;
}
const rows = [...p.sites.entries()].map(([site, s]) => ({ site, ...s, atPeak: lastAtPeak.get(site) ?? 0, made: madeBy.get(site) ?? 0 })).sort((a, b) => b.classBytes - a.classBytes);
const f = (n: number) => (n / MB).toFixed(2);
process.stdout.write(`build-scratch: ${BUILDS} builds of ${SIZES.join(', ')} docs (${MIXED ? 'mixed fields' : 'text + integer'}), tree ${HERE}\n`);
process.stdout.write(`leased peak per build MiB: ${peaks.map(f).join(', ')}; pool footprint (buffers made) ${f(p.created())} MiB, of which ever asked for (the bound of its resident pages) ${f(p.touched())} MiB; retained after ${f(p.pool.retainedBytes)} MiB\n\n`);
process.stdout.write('| site (last build) | takes | requested MiB | size-class MiB | largest one MiB | held at the peak MiB | buffers it made, all builds MiB |\n|---|---:|---:|---:|---:|---:|---:|\n');
for (const r of rows) process.stdout.write(`| ${r.site} | ${r.takes} | ${f(r.requested)} | ${f(r.classBytes)} | ${f(r.maxOne)} | ${f(r.atPeak)} | ${f(r.made)} |\n`);
const sum = (k: 'requested' | 'classBytes' | 'atPeak' | 'made') => rows.reduce((a, r) => a + r[k], 0);
process.stdout.write(`| total | ${rows.reduce((a, r) => a + r.takes, 0)} | ${f(sum('requested'))} | ${f(sum('classBytes'))} | | ${f(sum('atPeak'))} | ${f(sum('made'))} |\n\n`);

// 2. Same bytes and CPU per build against the baseline (no probe).
let identical: boolean | null = null;
const cpu: Record<string, number[]> = { here: [], baseline: [] };
if (values.baseline !== undefined) {
  const base = await load(values.baseline);
  const trees = [
    { name: 'here', m: here, mapping, pool: new here.ScratchPool() },
    { name: 'baseline', m: base, mapping: base.parseRootMapping(MAPPING_JSON), pool: new base.ScratchPool() },
  ];
  identical = true;
  for (let round = 0; round < 3; round++) {
    for (let b = 0; b < BUILDS; b++) {
      const out: Uint8Array[] = [];
      for (const t of (b + round) % 2 === 0 ? trees : [...trees].reverse()) {
        const t0 = cpuMs();
        const sab = buildOne(t.m, t.mapping, t.pool, b);
        if (round > 0) cpu[t.name].push(cpuMs() - t0);
        out.push(new Uint8Array(sab));
      }
      if (out[0].length !== out[1].length || Buffer.compare(out[0], out[1]) !== 0) identical = false;
    }
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
  process.stdout.write(`segments byte-identical with ${values.baseline}: ${identical}\n`);
  process.stdout.write(`CPU ms per build, median of ${cpu.here.length} (min): here ${median(cpu.here).toFixed(0)} (${Math.min(...cpu.here).toFixed(0)}), baseline ${median(cpu.baseline).toFixed(0)} (${Math.min(...cpu.baseline).toFixed(0)})\n`);
}

writeResult(`build-scratch${values.label ? `-${values.label}` : ''}`, { sizes: SIZES, builds: BUILDS, peaks, footprint: p.created(), touched: p.touched(), retained: p.pool.retainedBytes, sites: rows, identical, cpu });
