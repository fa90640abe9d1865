/**
 * The build workers' per-document cost (issue 19), A/B in one process: this tree's SegmentBuilder,
 * writeSegment and mergeSegments against a baseline build of another tree, loaded side by side and
 * alternated round by round on the same short synthetic docs (the bulk-index corpus). Two cases:
 * 20k docs built as 10k-doc segments, and 10 × 5k-doc segments built then merged into one. CPU
 * time (`process.cpuUsage`) rather than wall time, and the minimum over rounds: on a shared machine
 * that is the figure neighbours disturb least.
 *
 *   node dist/bench/build-ab.js --baseline /path/to/other-tree [--rounds 6] [--malloc server|default]
 *
 * The baseline is a directory holding a built tree (`dist/src/index/index.js`). A tree that has a
 * ScratchPool builds inside one, reused build after build, as its build workers do. The process
 * runs with the server's glibc malloc settings (SERVER_MALLOC_ENV: it re-executes itself with them),
 * since they decide what a build's large arrays cost; `--malloc default` keeps glibc's defaults.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { findRepoRoot, writeResult } from './lib/report.js';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SERVER_MALLOC_ENV } from '../src/cli/server-process.js';

const USAGE = 'node dist/bench/build-ab.js --baseline /path/to/other-tree [--rounds 6] [--malloc server|default]';
const { values } = benchArgs(USAGE, { options: { baseline: { type: 'string' }, rounds: { type: 'string' }, malloc: { type: 'string' } } });
if (values.baseline === undefined) usageError(USAGE, '--baseline <dir> is required');
const MALLOC = values.malloc ?? 'server';
if (MALLOC === 'server' && process.env.MALLOC_MMAP_THRESHOLD_ === undefined) {
  const child = spawnSync(process.execPath, process.argv.slice(1), { stdio: 'inherit', env: { ...process.env, ...SERVER_MALLOC_ENV } });
  process.exit(child.status ?? 1);
}
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 6);
const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const DOCS = 50_000;
const docs = generateBm25Corpus({ docs: DOCS, queries: 1 }).docs.map((d, i) => ({
  id: d.id, source: JSON.stringify({ text: d.text }), seqNo: i, version: 1, indexOrder: i,
}));

/** The index module's entry points this bench drives (the same in both trees). */
interface IndexModule {
  SegmentBuilder: new (mapping: unknown, limits: typeof LIMITS) => { add(doc: (typeof docs)[number]): void; finish(): unknown };
  writeSegment(input: unknown): SharedArrayBuffer;
  openSegment(id: string, sab: SharedArrayBuffer): unknown;
  mergeSegments(sources: Array<{ segment: unknown; liveDocs: null }>): unknown;
  parseRootMapping(json: unknown): unknown;
  ScratchPool?: new () => unknown;
  withScratchPool?<T>(pool: unknown, fn: () => T): T;
}

interface Tree { name: string; m: IndexModule; mapping: unknown; pool: unknown; samples: Record<Case, number[]>; faults: Record<Case, number[]> }
type Case = 'build10k' | 'build5k' | 'merge';

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function load(root: string): Promise<Tree> {
  const m = (await import(pathToFileURL(join(root, 'dist', 'src', 'index', 'index.js')).href)) as IndexModule;
  return {
    name: root, m, mapping: m.parseRootMapping({ properties: { text: { type: 'text' } } }), pool: m.ScratchPool ? new m.ScratchPool() : null,
    samples: { build10k: [], build5k: [], merge: [] }, faults: { build10k: [], build5k: [], merge: [] },
  };
}

/** Minor page faults of this process so far (/proc/self/stat). */
function minorFaults(): number {
  return Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[7]);
}

function buildSegments(t: Tree, from: number, count: number, size: number): unknown[] {
  const out: unknown[] = [];
  for (let s = from; s < from + count; s += size) {
    const build = () => {
      const b = new t.m.SegmentBuilder(t.mapping, LIMITS);
      for (let j = s; j < s + size; j++) b.add(docs[j]);
      return t.m.writeSegment(b.finish());
    };
    out.push(t.m.openSegment(`s${s}`, t.pool !== null ? t.m.withScratchPool!(t.pool, build) : build()));
  }
  return out;
}

function round(t: Tree): void {
  let t0 = cpuMs();
  let f0 = minorFaults();
  buildSegments(t, 0, 20_000, 10_000);
  t.samples.build10k.push(((cpuMs() - t0) * 1000) / 20_000);
  t.faults.build10k.push((minorFaults() - f0) / 20_000);
  t0 = cpuMs();
  f0 = minorFaults();
  const segments = buildSegments(t, 0, DOCS, 5000);
  const t1 = cpuMs();
  const f1 = minorFaults();
  const merge = () => t.m.writeSegment(t.m.mergeSegments(segments.map((segment) => ({ segment, liveDocs: null }))));
  if (t.pool !== null) t.m.withScratchPool!(t.pool, merge);
  else merge();
  t.samples.build5k.push(((t1 - t0) * 1000) / DOCS);
  t.faults.build5k.push((f1 - f0) / DOCS);
  t.samples.merge.push(((cpuMs() - t1) * 1000) / DOCS);
  t.faults.merge.push((minorFaults() - f1) / DOCS);
}

const trees = [await load(values.baseline), await load(findRepoRoot())];
for (const t of trees) {
  round(t); // warm-up, not counted
  t.samples = { build10k: [], build5k: [], merge: [] };
  t.faults = { build10k: [], build5k: [], merge: [] };
}
const probe = startCpuProbe({ pids: [process.pid] });
for (let r = 0; r < ROUNDS; r++) for (const t of r % 2 === 0 ? trees : [...trees].reverse()) round(t);
const otherCores = probe.stop().otherCores;

const cases: Record<Case, string> = {
  build10k: '20k docs built as 10k-doc segments (µs/doc)',
  build5k: '10 × 5k-doc segments built (µs/doc)',
  merge: 'the 10 segments merged + written (µs per merged doc)',
};
const result: Record<string, { baseline: number; self: number; ratio: number; baselineFaults: number; selfFaults: number }> = {};
const [base, self] = trees;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const c of Object.keys(cases) as Case[]) {
  const b = Math.min(...base.samples[c]);
  const s = Math.min(...self.samples[c]);
  result[c] = { baseline: b, self: s, ratio: s / b, baselineFaults: median(base.faults[c]), selfFaults: median(self.faults[c]) };
  console.log(`${cases[c]}: baseline ${b.toFixed(2)}, this tree ${s.toFixed(2)}, ratio ${(s / b).toFixed(3)}; page faults/doc ${result[c].baselineFaults.toFixed(3)} → ${result[c].selfFaults.toFixed(3)}`);
}
console.log(`otherCores ${otherCores.toFixed(2)}, malloc ${MALLOC}`);
writeResult('build-ab', { params: { rounds: ROUNDS, baseline: base.name, malloc: MALLOC }, cases: result, samples: { baseline: base.samples, self: self.samples }, otherCores });
