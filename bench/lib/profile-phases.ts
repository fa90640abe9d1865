/**
 * Time per request phase from V8 CPU profiles (`node --cpu-prof`, one `.cpuprofile` per thread):
 * each sample goes to the innermost stack frame a phase rule recognises (so `JSON.parse` called from
 * `parseJson` counts as body parsing, a `writev` under node's stream code as the HTTP write), and
 * only samples inside a time window (the measured load, not start-up or recovery) count.
 *
 * V8 samples at wall-clock intervals: a thread that the OS has descheduled keeps collecting ticks in
 * the frame it stopped in. On a loaded machine that inflates the frames that block (a futex wake
 * in `Atomics.notify`, a syscall) next to pure CPU work, so read the table as "where the thread's
 * time went", and compare phases within one run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A phase and how to recognise its frames; the first rule matching a frame wins. */
export interface PhaseRule {
  readonly phase: string;
  readonly match: (frame: CallFrame) => boolean;
}

const url = (...parts: string[]) => (f: CallFrame) => parts.some((p) => f.url.includes(p));
const fn = (...names: string[]) => (f: CallFrame) => names.includes(f.functionName);

/** Not work: the thread waiting for something to do. */
export const IDLE = 'idle';

/** The phases of a request on the main (coordinator) thread and on the search workers. */
export const PHASE_RULES: readonly PhaseRule[] = [
  { phase: IDLE, match: fn('(idle)', 'atomicsWaitLoop') },
  { phase: 'GC', match: fn('(garbage collector)') },
  { phase: 'start-up (module loading, recovery)', match: url('node:internal/modules', '/storage/shard-store') },
  { phase: 'authentication', match: url('/src/security/', '/src/http/security.js') },
  { phase: 'body parse (JSON.parse)', match: (f) => f.functionName === 'parseJson' || f.url.includes('/dsl/json-body') },
  { phase: 'bulk NDJSON parse', match: (f) => f.url.includes('/src/http/bulk.js') && (f.functionName === 'parseBulkBody' || f.functionName === 'nextLine') },
  { phase: 'DSL parse', match: url('/src/dsl/', '/src/http/search.js') },
  { phase: 'planning (stats, query building)', match: (f) => f.url.includes('/src/search/plan/') || (f.url.includes('/cluster/search/search-phase') && ['plan', 'stats'].includes(f.functionName)) },
  { phase: 'analysis (tokenize)', match: url('/src/analysis/') },
  { phase: 'fetch + render hits (_source)', match: url('/src/search/fetch-render', '/src/common/float-json') },
  { phase: 'query (engine)', match: url('/src/search/', '/src/index/segment/segment-reader') },
  { phase: 'mapping + document parse', match: url('/src/index/mapping/') },
  { phase: 'translog + fsync', match: url('/src/storage/translog', 'node:zlib') },
  { phase: 'segment build (analysis, postings)', match: url('/src/index/segment/', '/workers/build-segment') },
  { phase: 'indexing (shard, write flow, bulk items)', match: url('/src/cluster/indices/', '/src/cluster/writes/', '/src/ingest/', '/src/http/bulk.js', '/src/http/write-responses', '/src/http/documents') },
  { phase: 'dispatch (Piscina, messages, wake-ups)', match: url('/src/cluster/search-pool', 'piscina/', 'node:internal/worker', '/workers/') },
  { phase: 'coordinator (resolve, merge, response build)', match: url('/src/cluster/') },
  { phase: 'REST layer (routes, params, hooks)', match: url('/src/http/') },
  { phase: 'fastify (routing, reply)', match: url('fastify/', 'find-my-way/', 'avvio/', 'light-my-request/', 'fast-querystring') },
  { phase: 'HTTP parse + write (node core)', match: url('node:_http', 'node:http', 'node:net', 'node:internal/stream_base_commons', 'node:internal/streams', 'node:stream', 'node:internal/http') },
  { phase: 'promises, timers, ticks', match: url('node:internal/process/task_queues', 'node:internal/timers', 'node:timers') },
];

export interface ThreadPhases {
  readonly file: string;
  /** Milliseconds per phase inside the window (idle included). */
  readonly ms: Map<string, number>;
}

/** Reads every `.cpuprofile` in `dir` and attributes its samples between `fromUs` and `toUs` (V8's monotonic µs). */
export function profilePhases(dir: string, fromUs: number, toUs: number, rules: readonly PhaseRule[] = PHASE_RULES): ThreadPhases[] {
  return readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort().map((file) => {
    const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const parent = new Map<number, number>();
    const byId = new Map<number, ProfileNode>();
    for (const n of p.nodes) {
      byId.set(n.id, n);
      for (const c of n.children ?? []) parent.set(c, n.id);
    }
    const phaseOf = new Map<number, string>();
    const classify = (id: number): string => {
      const known = phaseOf.get(id);
      if (known !== undefined) return known;
      const frame = byId.get(id)!.callFrame;
      const rule = rules.find((r) => r.match(frame));
      const up = parent.get(id);
      const phase = rule ? rule.phase : up === undefined ? 'other (VM, native)' : classify(up);
      phaseOf.set(id, phase);
      return phase;
    };
    const ms = new Map<string, number>();
    let t = p.startTime;
    for (let i = 0; i < p.samples.length; i++) {
      t += p.timeDeltas[i];
      if (t < fromUs || t > toUs) continue;
      const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
      const phase = classify(p.samples[i]);
      ms.set(phase, (ms.get(phase) ?? 0) + dt);
    }
    return { file, ms };
  });
}

/** V8 profile timestamps are CLOCK_MONOTONIC in µs, as process.hrtime is in ns. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
