/**
 * What a forced full GC between two segment builds costs the next build (issue 19): a build worker
 * runs the builder once per refresh, and `workers/release-memory.ts` / `cluster/idle-collector.ts`
 * force full collections (`gc()`) between builds to return their garbage. After a forced
 * collection V8 deoptimizes the thread's optimized code (`--trace-deopt`: "weak objects" — what the
 * code was specialised on died with the last build), so the next build runs interpreted and
 * compiles everything again on V8's platform threads.
 *
 * Builds 5k-doc segments in one thread, inside a ScratchPool as the workers do, in blocks of
 * `--builds` per mode, the modes alternated for `--rounds`: `none` (no collection between builds),
 * `minor` (a scavenge, `gc({ type: 'minor' })`), `forced` (a full `gc()`, as the workers run it).
 * Per build: the CPU of the whole process (every thread: TurboFan and GC helpers included) and of
 * this thread, outside the collection itself, whose own CPU is reported apart. Medians over the
 * last builds of every block (the first two of a block are its warm-up).
 *
 *   node dist/bench/build-gc-churn.js [--rounds 3] [--builds 8]
 */
import { readFileSync } from 'node:fs';
import { benchArgs, numberOption } from './lib/args.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { parseRootMapping, ScratchPool, SegmentBuilder, withScratchPool, writeSegment } from '../src/index/index.js';
import { writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/build-gc-churn.js [--rounds 3] [--builds 8]';
const { values } = benchArgs(USAGE, { options: { rounds: { type: 'string' }, builds: { type: 'string' } } });
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 3);
const BUILDS = Math.max(3, numberOption(USAGE, values.builds, 'builds', 8));
const SEGMENT_DOCS = 5000;
const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

const docs = generateBm25Corpus({ docs: SEGMENT_DOCS * 4, queries: 1 }).docs.map((d, i) => ({
  id: d.id, source: JSON.stringify({ text: d.text }), seqNo: i, version: 1, indexOrder: i,
}));
const mapping = parseRootMapping({ properties: { text: { type: 'text' } } });
const pool = new ScratchPool();

type Mode = 'none' | 'minor' | 'forced';
const MODES: Mode[] = ['none', 'minor', 'forced'];

const processMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** This thread's CPU ms (/proc/thread-self/stat, 10 ms ticks). */
const threadMs = () => {
  const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

function build(from: number): void {
  withScratchPool(pool, () => {
    const b = new SegmentBuilder(mapping, LIMITS);
    for (let j = from; j < from + SEGMENT_DOCS; j++) b.add(docs[j]);
    return writeSegment(b.finish());
  });
}

const samples: Record<Mode, { processMs: number[]; threadMs: number[]; gcMs: number[] }> = {
  none: { processMs: [], threadMs: [], gcMs: [] },
  minor: { processMs: [], threadMs: [], gcMs: [] },
  forced: { processMs: [], threadMs: [], gcMs: [] },
};

let next = 0;
for (let w = 0; w < 6; w++) build((next++ % 4) * SEGMENT_DOCS); // warm-up
const probe = startCpuProbe({ pids: [process.pid] });
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of r % 2 === 0 ? MODES : [...MODES].reverse()) {
    for (let i = 0; i < BUILDS; i++) {
      const g0 = processMs();
      if (mode === 'forced') gc();
      else if (mode === 'minor') gc({ type: 'minor' });
      const p0 = processMs();
      const t0 = threadMs();
      build((next++ % 4) * SEGMENT_DOCS);
      if (i < 2) continue;
      samples[mode].gcMs.push(p0 - g0);
      samples[mode].processMs.push(processMs() - p0);
      samples[mode].threadMs.push(threadMs() - t0);
    }
  }
}
const otherCores = probe.stop().otherCores;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const result: Record<string, { buildProcessMs: number; buildThreadMs: number; otherThreadsMs: number; gcMs: number }> = {};
for (const mode of MODES) {
  const s = samples[mode];
  const p = median(s.processMs);
  const t = median(s.threadMs);
  result[mode] = { buildProcessMs: p, buildThreadMs: t, otherThreadsMs: p - t, gcMs: median(s.gcMs) };
  console.log(`${mode}: a 5k-doc build ${p.toFixed(0)} ms CPU (this thread ${t.toFixed(0)}, other threads ${(p - t).toFixed(0)}); the collection before it ${result[mode].gcMs.toFixed(0)} ms`);
}
console.log(`otherCores ${otherCores.toFixed(2)}`);
writeResult('build-gc-churn', { params: { rounds: ROUNDS, builds: BUILDS, segmentDocs: SEGMENT_DOCS }, modes: result, samples, otherCores });
