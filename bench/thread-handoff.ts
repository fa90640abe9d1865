/**
 * What handing work to another thread costs the thread that hands it over (issue 19): the
 * coordinator's `postMessage` of a search batch to its worker, as a parked worker and an awake one
 * receive it, and a cheaper-looking alternative to MessagePort — a SharedArrayBuffer counter with
 * `Atomics.notify` and `Atomics.waitAsync` — as a round trip between two threads that both park.
 *
 *   node dist/bench/thread-handoff.js [--rounds 3] [--trips 2000]
 *
 * - `wake a parked worker` / `post to an awake worker`: the main thread posts a search-batch-shaped
 *   message 2 ms after each reply; the worker either returns to its event loop at once (parked in
 *   epoll when the next message comes) or stays on the CPU for 3 ms after replying (awake). The
 *   main thread's CPU time inside `postMessage` (/proc/thread-self/schedstat, ns, read around the
 *   call) is the same serialisation either way, so the difference is what a wake-up costs the waker.
 * - `MessagePort ping-pong` / `Atomics ping-pong`: back-to-back round trips of a number (a counter
 *   in shared memory for Atomics), each side parking between messages (the main thread yields with
 *   setImmediate); process CPU per round trip.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { benchArgs, numberOption } from './lib/args.js';
import { isMainThread, MessageChannel, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

/** Atomics.waitAsync (Node 16+), which the project's TypeScript lib (ES2022) does not declare yet. */
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<string> | string } }).waitAsync;

type Mode = 'parked' | 'awake' | 'port' | 'atomics';

interface WorkerInit {
  readonly mode: Mode;
  readonly port: MessagePort;
  readonly flags: Int32Array;
}

/** The main thread's CPU time so far, ns (schedstat's first field: time on the CPU). */
function threadCpuNs(): number {
  return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
}

/** A batch of three searches as search-channel.ts posts it (kept plan by id, shared fetch). */
const BATCH = {
  searches: [1, 2, 3].map(() => ({
    segments: [{ segment: 'bench-0-seg-1', liveDocs: null }],
    request: {
      query: null, k: 10, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null, terminateAfter: 0,
      fetch: { from: 0, spec: { index: 'bench', source: true, storedFieldsNone: false, version: false, tracksScores: true } }, deadline: -1, aggs: null, suggest: null,
    },
    planId: 7,
  })),
  plans: null,
  dropPlans: null,
};

function workerMain({ mode, port, flags }: WorkerInit): void {
  if (mode === 'atomics') {
    // Parks in Atomics.waitAsync (its event loop runs meanwhile), answers each request by bumping flags[1].
    const keepAlive = setInterval(() => {}, 1 << 30);
    void (async () => {
      let seen = 0;
      for (;;) {
        const w = waitAsync(flags, 0, seen);
        if (w.async) await w.value;
        seen = Atomics.load(flags, 0);
        if (seen < 0) break;
        Atomics.store(flags, 1, seen);
        Atomics.notify(flags, 1);
      }
      clearInterval(keepAlive);
      port.close();
    })();
    return;
  }
  port.on('message', (m: unknown) => {
    if (m === 'stop') {
      port.close();
      return;
    }
    port.postMessage(mode === 'port' ? m : { replies: [], runMs: 0 });
    if (mode === 'awake') {
      const until = performance.now() + 3;
      while (performance.now() < until);
    }
  });
}

async function measure(mode: Mode, trips: number): Promise<number> {
  const { port1, port2 } = new MessageChannel();
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(new URL(import.meta.url), { workerData: { mode, port: port2, flags }, transferList: [port2] });
  await new Promise((r) => worker.once('online', r));
  await new Promise((r) => setTimeout(r, 100));
  let result: number;
  if (mode === 'atomics') {
    const keepAlive = setInterval(() => {}, 1 << 30);
    const cpu0 = process.cpuUsage();
    for (let n = 1; n <= trips; n++) {
      Atomics.store(flags, 0, n);
      Atomics.notify(flags, 0);
      const w = waitAsync(flags, 1, n - 1);
      if (w.async) await w.value;
      await new Promise((r) => setImmediate(r));
    }
    const cpu = process.cpuUsage(cpu0);
    clearInterval(keepAlive);
    Atomics.store(flags, 0, -1);
    Atomics.notify(flags, 0);
    result = (cpu.user + cpu.system) / trips;
  } else if (mode === 'port') {
    const cpu0 = process.cpuUsage();
    await new Promise<void>((resolve) => {
      let n = 0;
      port1.on('message', () => {
        if (++n === trips) resolve();
        else setImmediate(() => port1.postMessage(n));
      });
      port1.postMessage(0);
    });
    const cpu = process.cpuUsage(cpu0);
    result = (cpu.user + cpu.system) / trips;
  } else {
    // CPU inside postMessage alone: the clock is read around it, and once more right after to
    // subtract what one read costs.
    let inPost = 0;
    const post = () => {
      const a = threadCpuNs();
      port1.postMessage(BATCH);
      const b = threadCpuNs();
      inPost += 2 * b - a - threadCpuNs();
    };
    await new Promise<void>((resolve) => {
      let n = 0;
      port1.on('message', () => {
        if (++n === trips) resolve();
        else setTimeout(post, 2);
      });
      post();
    });
    result = inPost / 1000 / trips;
  }
  port1.postMessage('stop');
  port1.close();
  await worker.terminate();
  return result;
}

if (!isMainThread) {
  workerMain(workerData as WorkerInit);
} else {
const USAGE = 'node dist/bench/thread-handoff.js [--rounds 3] [--trips 2000]';
  const { values } = benchArgs(USAGE, { options: { rounds: { type: 'string' }, trips: { type: 'string' } } });
  const rounds = numberOption(USAGE, values.rounds, 'rounds', 3);
  const trips = numberOption(USAGE, values.trips, 'trips', 2000);
  const modes: Mode[] = ['parked', 'awake', 'port', 'atomics'];
  const runs: Record<Mode, number[]> = { parked: [], awake: [], port: [], atomics: [] };
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) {
      // Fewer trips with a 2 ms gap each: a round stays a few seconds.
      const us = await measure(mode, mode === 'parked' || mode === 'awake' ? Math.min(trips, 1000) : trips);
      runs[mode].push(us);
      console.log(`round ${round + 1} ${mode}: ${us.toFixed(1)} µs`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const m = Object.fromEntries(modes.map((k) => [k, median(runs[k])])) as Record<Mode, number>;
  const rows = [
    ['wake a parked worker (main thread CPU inside postMessage)', formatNumber(m.parked), runs.parked.map((x) => x.toFixed(1)).join(' / ')],
    ['post to an awake worker (main thread CPU inside postMessage)', formatNumber(m.awake), runs.awake.map((x) => x.toFixed(1)).join(' / ')],
    ['MessagePort ping-pong, both threads parking (process CPU per round trip)', formatNumber(m.port), runs.port.map((x) => x.toFixed(1)).join(' / ')],
    ['Atomics.notify / waitAsync ping-pong, both parking (process CPU per round trip)', formatNumber(m.atomics), runs.atomics.map((x) => x.toFixed(1)).join(' / ')],
  ];
  console.log(`a wake-up costs the waker ~${(m.parked - m.awake).toFixed(0)} µs; Atomics ÷ MessagePort round trip ${(m.atomics / m.port).toFixed(2)}`);
  writeResult('thread-handoff', { params: { rounds, trips }, runs, medians: m });
  updateBenchmarksMd(
    'thread-handoff',
    markdownTable(['hand-off', 'µs (median)', 'per round'], rows),
    `What handing a search batch to another thread costs (\`node dist/bench/thread-handoff.js --rounds ${rounds}\`; load average ${loadavg()[0].toFixed(1)} at the end of the run). The first two rows post the same search-batch-shaped message 2 ms after each reply, to a worker that parked in its event loop meanwhile or one still on the CPU; their difference (**${formatNumber(m.parked - m.awake)} µs**) is what waking a parked thread costs the thread that posts — on a VM, the kernel's and hypervisor's wake-up of an idle vCPU, charged to the sender. The last two compare MessagePort (a number each way) with a SharedArrayBuffer counter and \`Atomics.notify\`/\`Atomics.waitAsync\` for a round trip where both threads park between messages: ${(m.atomics / m.port).toFixed(2)}× the CPU — the wake-ups dominate whichever primitive carries the message, so a shared-memory ring would not make the coordinator's hand-off cheaper.`,
  );
}
