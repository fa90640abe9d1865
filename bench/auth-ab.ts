/**
 * Scenario: what security costs a `_search`, this build against a baseline build, each server in a
 * process of its own (the cost security adds in separate processes was larger than its code
 * measures in one shared process: docs/benchmarks/issue-19-request-hot-path.md, security-i19s). Every trial runs four child
 * processes in rotated order — baseline open, baseline superuser key, baseline read-only key, and
 * the same three of this build — each starting the app of its build (`<dist>/src/app.js`) on a kept data directory and
 * injecting `--windows` windows of `--window` `_search` requests (16 in flight, fastify `inject`:
 * every hook, the route, the search worker, the response; no sockets). A secured server runs one
 * key per child, the superuser key or a read-only key for the index, so every child serves one
 * kind of request for the same number of windows (with both keys window by window the children
 * ran twice as long and each key's figures moved with the other's). Reported per window: CPU
 * µs per request of the whole child process (all threads), medians over the steady windows (after
 * `--skip`), then per trial the ratio open ÷ secured of the same build, and this ÷ baseline.
 *
 *   node dist/bench/auth-ab.js --baseline /tmp/base04/dist [--trials 6] [--windows 12] [--window 1500] [--skip 4] [--docs 20000]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { writeResult } from './lib/report.js';
import { startCpuProbe, type CpuProbe } from '../src/cli/report/machine.js';

const USAGE = 'node dist/bench/auth-ab.js --baseline /tmp/base04/dist [--trials 6] [--windows 12] [--window 1500] [--skip 4] [--docs 20000]';
const { values } = benchArgs(USAGE, {
  options: {
    baseline: { type: 'string' }, trials: { type: 'string' }, windows: { type: 'string' }, window: { type: 'string' }, skip: { type: 'string' }, docs: { type: 'string' },
    // internal: one child process
    child: { type: 'string' }, dist: { type: 'string' }, data: { type: 'string' }, keys: { type: 'string' },
  },
});
const WINDOWS = numberOption(USAGE, values.windows, 'windows', 12);
const WINDOW = numberOption(USAGE, values.window, 'window', 1500);
const SKIP = numberOption(USAGE, values.skip, 'skip', 4, 0);
const DOCS = numberOption(USAGE, values.docs, 'docs', 20_000);
const TRIALS = numberOption(USAGE, values.trials, 'trials', 6);
const CONCURRENCY = 16;
const CREDS = { id: 'bench-superuser', secret: 'bench-superuser-secret' };
const THIS_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

type Mode = 'open' | 'secure' | 'load-open' | 'load-secure';
interface ChildResult {
  /** CPU µs per request per window, by key ('none' on an open server). */
  readonly windows: Record<string, number[]>;
  /** the child's whole CPU time, s (for otherCores) */
  readonly cpuS: number;
}

/** One server lifetime: the app of `dist` on `data`; loads the corpus, or measures windows. */
async function child(mode: Mode, dist: string, data: string): Promise<void> {
  type AppModule = typeof import('../src/app.js');
  type ConfigModule = typeof import('../src/config/config.js');
  type SecurityModule = typeof import('../src/security/index.js');
  type CorpusModule = typeof import('../src/cli/corpus/corpus.js');
  const { createApp } = (await import(join(dist, 'src/app.js'))) as AppModule;
  const { defaultConfig } = (await import(join(dist, 'src/config/config.js'))) as ConfigModule;
  const { encodeApiKey } = (await import(join(dist, 'src/security/index.js'))) as SecurityModule;
  const { generateBm25Corpus } = (await import(join(dist, 'src/cli/corpus/corpus.js'))) as CorpusModule;
  // The search pool's workers are unref'd and answer through shared memory: keep the loop alive.
  const keepAlive = setInterval(() => {}, 1000);
  const secure = mode === 'secure' || mode === 'load-secure';
  const app = await createApp(defaultConfig({
    host: '127.0.0.1', port: 0, dataDir: data, threads: 1, logLevel: 'warn', securityEnabled: secure, ...(secure ? { bootstrapApiKey: CREDS } : {}),
  }));
  await app.http.app.ready();
  const inject = async (method: string, url: string, body: string | undefined, headers: Record<string, string>, contentType = 'application/json') => {
    const res = await app.http.app.inject({ method: method as never, url, payload: body, headers: body === undefined ? headers : { 'content-type': contentType, ...headers } });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res;
  };
  const superuser: Record<string, string> = secure ? { authorization: `ApiKey ${encodeApiKey(CREDS)}` } : {};
  const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });
  try {
    if (mode === 'load-open' || mode === 'load-secure') {
      await inject('PUT', '/bench', JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }), superuser);
      for (let i = 0; i < corpus.docs.length; i += 2000) {
        const lines = corpus.docs.slice(i, i + 2000).flatMap((d) => [JSON.stringify({ index: { _id: d.id } }), JSON.stringify({ text: d.text })]);
        await inject('POST', '/bench/_bulk', lines.join('\n') + '\n', superuser, 'application/x-ndjson');
      }
      await inject('POST', '/bench/_forcemerge?max_num_segments=1', undefined, superuser);
      await inject('POST', '/bench/_flush', undefined, superuser);
      return;
    }
    const keys: Array<[string, Record<string, string>]> = [];
    if (secure) {
      const created = await inject('POST', '/_security/api_key', JSON.stringify({ name: 'bench-reader', role_descriptors: { r: { indices: [{ names: ['bench'], privileges: ['read'] }] } } }), superuser);
      const all: Array<[string, Record<string, string>]> = [['superuser', superuser], ['reader', { authorization: `ApiKey ${(JSON.parse(created.body) as { encoded: string }).encoded}` }]];
      // `--keys superuser` or `--keys reader`: one key only (a profile of one path)
      keys.push(...all.filter(([name]) => values.keys === undefined || values.keys.split(',').includes(name)));
    } else {
      keys.push(['none', {}]);
    }
    const windows: Record<string, number[]> = Object.fromEntries(keys.map(([k]) => [k, []]));
    let q = 0;
    for (let w = 0; w < WINDOWS * keys.length; w++) {
      const [name, headers] = keys[w % keys.length];
      let next = 0;
      const c0 = process.cpuUsage();
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < WINDOW) {
          next++;
          await inject('POST', '/bench/_search', JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 }), headers);
        }
      }));
      const c = process.cpuUsage(c0);
      windows[name].push((c.user + c.system) / WINDOW);
    }
    const total = process.cpuUsage();
    process.stdout.write(JSON.stringify({ windows, cpuS: (total.user + total.system) / 1e6 } satisfies ChildResult) + '\n');
  } finally {
    await app.close();
    clearInterval(keepAlive);
  }
}

/** Runs one child (this script with `--child`) in a fresh node with the servers' node flags. */
function runChild(mode: Mode, dist: string, data: string, keys?: string): Promise<ChildResult | null> {
  const args = ['--max-semi-space-size=32', fileURLToPath(import.meta.url), '--child', mode, '--dist', dist, '--data', data,
    '--windows', String(WINDOWS), '--window', String(WINDOW), '--docs', String(DOCS), ...(keys === undefined ? [] : ['--keys', keys])];
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${mode} ${dist}: ${err.message}\n${stderr}`));
      else resolvePromise(mode.startsWith('load') ? null : (JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult));
    });
  });
}

if (values.child !== undefined) {
  await child(values.child as Mode, values.dist ?? THIS_DIST, values.data ?? usageError(USAGE, '--child needs --data'));
} else {
  const baseline = values.baseline ?? usageError(USAGE, '--baseline <dist> is required');
  const builds = [['baseline', resolve(baseline)], ['this', THIS_DIST]] as const;
  const dirs = { open: mkdtempSync(join(tmpdir(), 'threadsearch-bench-')), secure: mkdtempSync(join(tmpdir(), 'threadsearch-bench-')) };
  // steady-state figures per trial, [build][key]: the median window (robust to another process's
  // burst), the mean (which keeps every GC the requests caused) and the cheapest window (the least
  // disturbed by other processes on a loaded machine: their load only ever adds CPU time)
  const steady: Record<string, Record<string, number[]>> = { baseline: {}, this: {} };
  const steadyMean: Record<string, Record<string, number[]>> = { baseline: {}, this: {} };
  const steadyMin: Record<string, Record<string, number[]>> = { baseline: {}, this: {} };
  const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  let probe: CpuProbe | null = null;
  let childCpuS = 0;
  let otherCores = NaN;
  try {
    // The data is written once, by the baseline build, and both builds read it.
    await runChild('load-open', builds[0][1], dirs.open);
    await runChild('load-secure', builds[0][1], dirs.secure);
    probe = startCpuProbe();
    const runs = builds.flatMap(([name, dist]) => [
      { name, dist, mode: 'open' as const, keys: undefined },
      { name, dist, mode: 'secure' as const, keys: 'superuser' },
      { name, dist, mode: 'secure' as const, keys: 'reader' },
    ]);
    for (let trial = 0; trial < TRIALS; trial++) {
      // Rotate the start position and flip the direction every other trial, so no run always follows another.
      const order = runs.map((_, i) => runs[(i + trial) % runs.length]);
      if (trial % 2 === 1) order.reverse();
      for (const r of order) {
        const result = await runChild(r.mode, r.dist, dirs[r.mode], r.keys);
        childCpuS += result!.cpuS;
        for (const [key, ws] of Object.entries(result!.windows)) {
          (steady[r.name][key] ??= []).push(median(ws.slice(SKIP)));
          (steadyMean[r.name][key] ??= []).push(mean(ws.slice(SKIP)));
          (steadyMin[r.name][key] ??= []).push(Math.min(...ws.slice(SKIP)));
          console.log(`trial ${trial} ${r.name.padEnd(8)} ${key.padEnd(9)} ${ws.map((x) => x.toFixed(0)).join(' ')} → median ${median(ws.slice(SKIP)).toFixed(1)}, mean ${mean(ws.slice(SKIP)).toFixed(1)}`);
        }
      }
    }
    const p = probe.stop();
    // The children were this run's own work; whatever else kept the cores busy was other processes'.
    otherCores = Math.max(0, p.busyCores - p.ownCores - childCpuS / (p.wallMs / 1000));
    console.log(`otherCores ${otherCores.toFixed(2)}`);
  } finally {
    rmSync(dirs.open, { recursive: true, force: true });
    rmSync(dirs.secure, { recursive: true, force: true });
  }
  const rows: Array<Record<string, unknown>> = [];
  for (const [stat, table] of [['median', steady], ['mean', steadyMean], ['min', steadyMin]] as const) {
    for (const [name] of builds) {
      for (const key of ['none', 'superuser', 'reader']) {
        const xs = table[name][key];
        const perTrialOpen = xs.map((x, i) => table[name].none[i] / x);
        const perTrialVsBase = xs.map((x, i) => x / table.baseline[key][i]);
        rows.push({ stat, build: name, key, cpu_us: median(xs), open_over_this: median(perTrialOpen), this_over_baseline: median(perTrialVsBase), trials_cpu_us: xs });
        console.log(`${stat.padEnd(6)} ${name.padEnd(8)} ${key.padEnd(9)} CPU ${median(xs).toFixed(1)} µs/request (${xs.map((x) => x.toFixed(0)).join(' ')}); open ÷ this ${median(perTrialOpen).toFixed(3)} (${perTrialOpen.map((x) => x.toFixed(3)).join(' ')}); ÷ baseline ${median(perTrialVsBase).toFixed(3)} (${perTrialVsBase.map((x) => x.toFixed(3)).join(' ')})`);
      }
    }
  }
  writeResult('auth-ab', { params: { baseline, trials: TRIALS, windows: WINDOWS, window: WINDOW, skip: SKIP, docs: DOCS, concurrency: CONCURRENCY }, rows, otherCores });
}
