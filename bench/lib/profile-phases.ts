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

/**
 * A phase and how to recognise its frames. A sample goes to the innermost `umbrella` frame on its
 * stack (everything planning calls — analysis, term lookups — is planning), else to the innermost
 * `frame` match; `leaf` rules look at the sampled frame only (a worker's wait loop is the caller of
 * every task it runs, but only its own ticks are idle).
 */
export interface PhaseRule {
  readonly phase: string;
  readonly kind: 'leaf' | 'umbrella' | 'frame';
  readonly match: (frame: CallFrame) => boolean;
}

const url = (...parts: string[]) => (f: CallFrame) => parts.some((p) => f.url.includes(p));
const fn = (...names: string[]) => (f: CallFrame) => names.includes(f.functionName);
const fnIn = (file: string, ...names: string[]) => (f: CallFrame) => f.url.includes(file) && names.includes(f.functionName);

/** Not work: the thread waiting for something to do. */
export const IDLE = 'idle';

/** The phases of a request on the main (coordinator) thread and on the search workers. */
export const PHASE_RULES: readonly PhaseRule[] = [
  { phase: IDLE, kind: 'leaf', match: fn('(idle)', 'atomicsWaitLoop') },
  { phase: 'GC', kind: 'leaf', match: fn('(garbage collector)') },
  { phase: 'start-up (module loading, recovery)', kind: 'umbrella', match: url('node:internal/modules', '/storage/shard-store') },
  { phase: 'authentication', kind: 'umbrella', match: url('/src/security/', '/src/http/security.js') },
  { phase: 'body parse (JSON.parse)', kind: 'umbrella', match: (f) => f.functionName === 'parseJson' || f.url.includes('/dsl/json-body') },
  { phase: 'bulk NDJSON parse', kind: 'umbrella', match: fn('parseBulkBody') },
  { phase: 'DSL parse', kind: 'umbrella', match: (f) => f.url.includes('/src/dsl/') || fnIn('/src/http/search.js', 'searchRequestFrom', 'queryFromParams')(f) },
  { phase: 'planning (stats, query building)', kind: 'umbrella', match: (f) => f.url.includes('/src/search/plan/') || fnIn('/cluster/search/search-phase', 'plan', 'stats')(f) },
  { phase: 'fetch + render hits (_source)', kind: 'umbrella', match: url('/src/search/fetch-render', '/src/common/float-json') },
  { phase: 'translog + fsync', kind: 'umbrella', match: url('/src/storage/translog') },
  { phase: 'mapping + document parse', kind: 'umbrella', match: url('/src/index/mapping/') },
  { phase: 'analysis (tokenize)', kind: 'frame', match: url('/src/analysis/') },
  { phase: 'query (engine)', kind: 'frame', match: url('/src/search/', '/src/index/segment/segment-reader') },
  { phase: 'segment build (postings, stored fields)', kind: 'frame', match: url('/src/index/segment/', '/workers/build-segment') },
  { phase: 'indices + writes (resolve, shard, write flow, bulk items)', kind: 'frame', match: url('/src/cluster/indices/', '/src/cluster/writes/', '/src/ingest/', '/src/http/bulk.js', '/src/http/write-responses', '/src/http/documents') },
  { phase: 'dispatch (Piscina, messages, wake-ups)', kind: 'frame', match: url('/src/cluster/search-pool', '/src/cluster/search-channel', 'piscina/', 'node:internal/worker', 'node:internal/per_context/messageport', '/workers/') },
  { phase: 'coordinator (merge, response build)', kind: 'frame', match: url('/src/cluster/') },
  { phase: 'REST layer (routes, params, hooks)', kind: 'frame', match: url('/src/http/') },
  { phase: 'fastify (routing, body read, reply)', kind: 'frame', match: url('fastify/', 'find-my-way/', 'avvio/', 'light-my-request/', 'fast-querystring') },
  { phase: 'HTTP parse + write (node core)', kind: 'frame', match: url('node:_http', 'node:http', 'node:net', 'node:internal/stream_base_commons', 'node:internal/streams', 'node:stream', 'node:internal/http') },
  { phase: 'promises, timers, ticks', kind: 'frame', match: url('node:internal/process/task_queues', 'node:internal/timers', 'node:timers') },
];

const OTHER = 'other (VM, native)';

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
    const innermost = (kind: PhaseRule['kind']) => {
      const memo = new Map<number, string | null>();
      const of = (id: number): string | null => {
        let phase = memo.get(id);
        if (phase !== undefined) return phase;
        const frame = byId.get(id)!.callFrame;
        const up = parent.get(id);
        phase = rules.find((r) => r.kind === kind && r.match(frame))?.phase ?? (up === undefined ? null : of(up));
        memo.set(id, phase);
        return phase;
      };
      return of;
    };
    const umbrellaOf = innermost('umbrella');
    const frameOf = innermost('frame');
    const classify = (id: number): string => {
      const frame = byId.get(id)!.callFrame;
      return rules.find((r) => r.kind === 'leaf' && r.match(frame))?.phase ?? umbrellaOf(id) ?? frameOf(id) ?? OTHER;
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
