/**
 * Starting servers as child processes, so the load generator (this process) and the server under
 * test never share a JS thread: threadsearch from dist/, or any compiled script that prints
 * "listening on http://host:port". Used by `capacity` (one server per configuration) and by
 * `bench` (the fastify hello-world that measures the client's own ceiling).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distFile } from './paths.js';

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Graceful stop (SIGTERM); resolves when the process has exited. */
  stop(): Promise<void>;
  /** Sends `signal` (e.g. SIGKILL) and resolves with the exit code or signal once it has exited. */
  kill(signal: NodeJS.Signals): Promise<number | string | null>;
}

/**
 * glibc malloc settings for server processes (README "Memory budget"; `npm start` sets the same): a
 * fixed mmap threshold, so every buffer above 128 KB — segment build and merge scratch, request
 * bodies — is mapped on its own and returned to the OS when freed, instead of glibc raising the
 * threshold after the first large free and keeping later ones in its heaps; and two arenas rather
 * than eight per core for the worker threads. They must be in the environment when the process
 * starts (glibc reads them once); values already in the environment win.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/**
 * Node flags for server processes (`npm start` passes the same): V8's 16 MB semi-space for the
 * coordinator's young generation, with allocation-site pretenuring off (issue 22, gc-i22young; the
 * history follows). It was 32 MB from issue 19: with 100 `_msearch` requests in flight, what a
 * request holds until it answers (item bodies, the workers' rendered hits, the response parts) lived
 * through two scavenges and was promoted, so old-space collections followed — GC took ~14% of the
 * main thread and ~45% of V8's helper threads (perf, issue 19), ~60 µs of CPU per query; with 32 MB,
 * 4.5% and 13%.
 *
 * It costs RSS under a bulk load, which grows this young generation to its full 64 MB for the whole
 * load. 16 MB (issue 22, i22h) took 20–34 MB off a 1M-doc load's peak and no longer cost `_msearch`
 * anything (plans now cross by id), but a warm `_bulk` took ~5% more server CPU and ~11% more
 * main-thread CPU (1.6× the scavenges, each copying more), so it stays 32; 8 MB cost `_msearch`
 * ~10% again (docs/benchmarks/issue-22-memory.md, memory-summary-i22h). Measured again once `_bulk`
 * allocated ~1.8 KB per document instead of ~2.7 KB (issue 22, i22i): 16 MB took ~39 MB of V8 pages
 * off the 1M-doc load's peak and the main thread's extra CPU was gone (~+1%), but server CPU was
 * still ~5% higher in 12 symmetric warm pairs (the other threads'), so it stays 32 (docs/benchmarks/issue-22-memory.md,
 * memory-summary-i22i). Once a `_bulk` request's body and response no longer came in fresh
 * ArrayBuffers (issue 19, gc-i19bulk), 16 MB cost `_bulk` nothing (server CPU 0.98–1.00× in
 * symmetric pairs) and took 15–29 MB off the 1M-doc load's peak, but `_msearch` at 100 connections
 * now pays for it: with its responses' buffers reused (gc-i19g) its young generation is what
 * decides, and at 16 MB ~5× the bytes per query were promoted, 3× the mark-compacts, +7–23% CPU
 * per query — so it stays 32. Once a waiting `_msearch` search held one small object instead of async
 * frames and closures (issue 22, gc-i22young: ~38% less heap per in-flight request, ~28% fewer bytes
 * allocated per query), 16 MB still promoted ~0.4 KB per query against ~0.12 at 32 and brought 2.5–3×
 * the mark-compacts, the V8 helper threads ~+23% CPU (median of 6 pairs; total CPU per query inside
 * this machine's noise). What made the difference was V8's allocation-site pretenuring: at 16 MB the
 * objects a request allocates first are still alive at most scavenges, so V8 tenures their sites and
 * allocates them straight into old space, where they die and bring the mark-compacts. With
 * `--no-allocation-site-pretenuring` a 16 MB semi-space promoted 0.105–0.112 KB per query and ran
 * 0.011–0.012 mark-compacts per 1,000 `_msearch` queries — 32 MB's figures (0.10–0.15, 0.013–0.020) —
 * with no CPU cost per query in paired runs, and took ~30–50 MB off a warm 100k `_bulk`'s peak RSS
 * (gc-i22young; the 1M-doc load's VmHWM 613 against 666 MB, the coordinator's young generation 32
 * against 64 MB). `_search` at 100 connections scavenges twice as often for it (~1 µs of pause per
 * request, ~2%). So 16 MB, with pretenuring off.
 *
 * Must be on node's command line: V8 sizes the young generation when the heap is set up. The flag
 * is process-wide (a Worker's resourceLimits do not lower it); the pools lower it again before they
 * start workers, so those get 8 MB (cluster/worker-exec-argv.ts).
 */
export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=16', '--no-allocation-site-pretenuring'];

/** `nodeArgs` go to node before the script (e.g. `--cpu-prof` for a profile of the server). */
export function startProcess(script: string, args: readonly string[], cleanup?: () => void, nodeArgs: readonly string[] = []): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...SERVER_MALLOC_ENV, ...process.env } });
  return new Promise((resolve, reject) => {
    let out = '';
    let listening = false;
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = listening ? null : /listening on (http:\/\/[0-9.]+:\d+)/.exec(out);
      if (m) {
        listening = true;
        const exited = new Promise<number | string | null>((done) => child.once('exit', (code, signal) => done(code ?? signal)));
        const kill = async (signal: NodeJS.Signals) => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          const result = await exited;
          cleanup?.();
          return result;
        };
        resolve({
          url: m[1],
          pid: child.pid!,
          output: () => out,
          stop: async () => {
            await kill('SIGTERM');
          },
          kill,
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      if (!listening) reject(new Error(`${script} exited with ${code} before listening:\n${out}`));
    });
  });
}

export interface ThreadsearchProcessOptions {
  /** An encoded bootstrap API key: security on with it. */
  readonly apiKey?: string;
  /** Flags for node itself (`--cpu-prof`, …). */
  readonly nodeArgs?: readonly string[];
  /** An existing data directory to start from (kept on stop); default a fresh one, removed on stop. */
  readonly dataDir?: string;
}

/**
 * threadsearch on a free port with a fresh data directory; security off unless `apiKey` (an
 * encoded bootstrap key) is given, so scenarios that are not about security measure the engine.
 */
export function startThreadsearch(extraArgs: readonly string[] = [], options: ThreadsearchProcessOptions = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'threadsearch-bench-'));
  const main = distFile('main.js');
  const security = options.apiKey !== undefined ? ['--api-key', options.apiKey] : ['--no-security'];
  const cleanup = options.dataDir === undefined ? () => rmSync(dataDir, { recursive: true, force: true }) : undefined;
  return startProcess(main, ['--port', '0', ...security, '--data', dataDir, ...extraArgs], cleanup, [...SERVER_NODE_ARGS, ...(options.nodeArgs ?? [])]);
}

