/**
 * A build worker's first segments (issue 19): what building costs in a fresh thread, before V8's
 * optimizing compiler has settled on the build code. A server's bulk load of 100k short docs does
 * only ~5 builds per worker, and a second load into the same server ran ~3.8× faster than the first
 * (loaded machine): the first builds run partly interpreted, and TurboFan compiles the build
 * functions again and again on V8's helper threads (OSR of one loop, a deopt for "insufficient type
 * feedback" in the code after it, a recompile). `build-ab.ts` measures the warm steady state (the
 * minimum after a warm-up round); this bench measures the cold start.
 *
 * Each sample is a fresh Worker (a fresh isolate, as a server's build worker is) that imports a
 * tree's index module and builds BUILDS segments of SIZE docs one after another inside a ScratchPool,
 * as workers/build-segment.ts does; the process's CPU (every thread: the worker, V8's compiler and
 * GC helper threads) is read from the worker's "ready" (module loaded) to its "done", and the
 * worker counts its own builds' wall time. The two trees alternate sample by sample; the median of
 * the samples is reported.
 *
 *   node dist/bench/build-cold.js --baseline /path/to/other-tree [--samples 6] [--builds 5] [--size 10000]
 *
 * Runs with the server's glibc malloc settings and node flags (it re-executes itself with them).
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { spawnSync } from 'node:child_process';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';

interface Doc { id: string; source: string; seqNo: number; version: number; indexOrder: number }
interface Job { root: string; docs: Doc[]; builds: number; size: number }
interface IndexModule {
  SegmentBuilder: new (mapping: unknown, limits: unknown) => { add(doc: Doc): void; finish(): unknown };
  writeSegment(input: unknown): SharedArrayBuffer;
  parseRootMapping(json: unknown): unknown;
  ScratchPool: new () => unknown;
  withScratchPool<T>(pool: unknown, fn: () => T): T;
}

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };

async function worker(job: Job): Promise<void> {
  const m = (await import(pathToFileURL(join(job.root, 'dist', 'src', 'index', 'index.js')).href)) as IndexModule;
  const mapping = m.parseRootMapping({ properties: { text: { type: 'text' } } });
  const pool = new m.ScratchPool();
  parentPort!.postMessage({ ready: true });
  const buildMs: number[] = [];
  for (let b = 0; b < job.builds; b++) {
    const t0 = performance.now();
    m.withScratchPool(pool, () => {
      const builder = new m.SegmentBuilder(mapping, LIMITS);
      for (let i = b * job.size; i < (b + 1) * job.size; i++) builder.add(job.docs[i % job.docs.length]);
      return m.writeSegment(builder.finish());
    });
    buildMs.push(performance.now() - t0);
  }
  parentPort!.postMessage({ done: true, buildMs });
}

if (!isMainThread) {
  await worker(workerData as Job);
} else {
  const { SERVER_MALLOC_ENV, SERVER_NODE_ARGS } = await import('../src/cli/server-process.js');
  const { findRepoRoot, writeResult } = await import('./lib/report.js');
  const { startCpuProbe } = await import('../src/cli/report/machine.js');
  if (process.env.MALLOC_MMAP_THRESHOLD_ === undefined) {
    const child = spawnSync(process.execPath, [...SERVER_NODE_ARGS, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, ...SERVER_MALLOC_ENV } });
    process.exit(child.status ?? 1);
  }
const USAGE = 'node dist/bench/build-cold.js --baseline /path/to/other-tree [--samples 6] [--builds 5] [--size 10000]';
  const { values } = benchArgs(USAGE, { options: { baseline: { type: 'string' }, samples: { type: 'string' }, builds: { type: 'string' }, size: { type: 'string' } } });
  if (values.baseline === undefined) usageError(USAGE, '--baseline <dir> is required');
  const SAMPLES = numberOption(USAGE, values.samples, 'samples', 6);
  const BUILDS = numberOption(USAGE, values.builds, 'builds', 5);
  const SIZE = numberOption(USAGE, values.size, 'size', 10_000);
  const docs: Doc[] = generateBm25Corpus({ docs: BUILDS * SIZE, queries: 1 }).docs.map((d, i) => ({
    id: d.id, source: JSON.stringify({ text: d.text }), seqNo: i, version: 1, indexOrder: i,
  }));
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const sample = (root: string) => new Promise<{ cpuMs: number; buildMs: number[] }>((resolve, reject) => {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: { root, docs, builds: BUILDS, size: SIZE } satisfies Job });
    let t0 = 0;
    w.on('message', (msg: { ready?: true; done?: true; buildMs?: number[] }) => {
      if (msg.ready) t0 = cpuMs();
      if (msg.done) {
        const cpu = cpuMs() - t0;
        void w.terminate().then(() => resolve({ cpuMs: cpu, buildMs: msg.buildMs! }));
      }
    });
    w.on('error', reject);
  });
  const trees = [{ name: 'baseline', root: values.baseline, cpu: [] as number[], perBuild: [] as number[][] }, { name: 'this tree', root: findRepoRoot(), cpu: [] as number[], perBuild: [] as number[][] }];
  const probe = startCpuProbe({ pids: [process.pid] });
  for (let s = 0; s < SAMPLES; s++) {
    for (const t of s % 2 === 0 ? trees : [...trees].reverse()) {
      const r = await sample(t.root);
      t.cpu.push(r.cpuMs);
      t.perBuild.push(r.buildMs);
    }
  }
  const otherCores = probe.stop().otherCores;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const perDoc = (t: (typeof trees)[number]) => (median(t.cpu) * 1000) / (BUILDS * SIZE);
  const buildsMedian = (t: (typeof trees)[number]) => Array.from({ length: BUILDS }, (_, b) => median(t.perBuild.map((p) => p[b])));
  const [base, self] = trees;
  console.log(`fresh worker, ${BUILDS} × ${SIZE}-doc builds, process CPU µs/doc (median of ${SAMPLES}): baseline ${perDoc(base).toFixed(1)}, this tree ${perDoc(self).toFixed(1)}, ratio ${(perDoc(self) / perDoc(base)).toFixed(3)}`);
  console.log(`wall ms per build (median), baseline ${buildsMedian(base).map((x) => x.toFixed(0)).join(' ')}; this tree ${buildsMedian(self).map((x) => x.toFixed(0)).join(' ')}`);
  console.log(`otherCores ${otherCores.toFixed(2)}`);
  writeResult('build-cold', {
    params: { samples: SAMPLES, builds: BUILDS, size: SIZE, baseline: values.baseline },
    cpuUsPerDoc: { baseline: perDoc(base), self: perDoc(self), ratio: perDoc(self) / perDoc(base) },
    buildWallMs: { baseline: buildsMedian(base), self: buildsMedian(self) },
    samples: { baseline: base.cpu, self: self.cpu }, otherCores,
  });
}
