/**
 * Scenario: the CPU the security path adds to one request, in-process (no sockets, no other
 * process's share of the cores). Two parts, every case alternated in one process:
 *
 * 1. `micro`: `ApiKeyService.authenticate` (header parse, base64 decode, cache digest) plus
 *    `authorizeRequest` for `POST /bench/_search`, looped, for the superuser (bootstrap) key and a
 *    read-only key for the index; CPU ns per call.
 * 2. `inject`: the whole `_search` request through fastify `inject` (every hook, route, search
 *    worker, response) against a `--no-security` app and a secured one (superuser key, read-only
 *    key), both in this process, cases rotated within each round; CPU µs per request of the whole
 *    process (all threads).
 *
 *   node dist/bench/auth-path.js [--rounds 6] [--requests 3000] [--docs 5000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../src/app.js';
import { defaultConfig } from '../src/config/config.js';
import { encodeApiKey } from '../src/security/index.js';
import { authorizeRequest } from '../src/http/authorization.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { benchArgs, numberOption } from './lib/args.js';
import { writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/auth-path.js [--rounds 6] [--requests 3000] [--docs 5000]';
const { values } = benchArgs(USAGE, { options: { rounds: { type: 'string' }, requests: { type: 'string' }, docs: { type: 'string' } } });
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 6);
const REQUESTS = numberOption(USAGE, values.requests, 'requests', 3000);
const DOCS = numberOption(USAGE, values.docs, 'docs', 5000);
const CONCURRENCY = 16;
const SUPERUSER_CREDS = { id: 'bench-superuser', secret: 'bench-superuser-secret' };
const SUPERUSER = `ApiKey ${encodeApiKey(SUPERUSER_CREDS)}`;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function start(secure: boolean, dataDir: string): Promise<App> {
  const app = await createApp(defaultConfig({
    host: '127.0.0.1', port: 0, dataDir, threads: 1, logLevel: 'warn', securityEnabled: secure, ...(secure ? { bootstrapApiKey: SUPERUSER_CREDS } : {}),
  }));
  await app.http.app.ready();
  return app;
}

async function inject(app: App, method: string, url: string, body: string | undefined, headers: Record<string, string>, contentType = 'application/json') {
  const res = await app.http.app.inject({ method: method as never, url, payload: body, headers: body === undefined ? headers : { 'content-type': contentType, ...headers } });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res;
}

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });
async function load(app: App, headers: Record<string, string>): Promise<void> {
  await inject(app, 'PUT', '/bench', JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }), headers);
  for (let i = 0; i < corpus.docs.length; i += 1000) {
    const lines = corpus.docs.slice(i, i + 1000).flatMap((d) => [JSON.stringify({ index: {} }), JSON.stringify(d)]);
    await inject(app, 'POST', '/bench/_bulk', lines.join('\n') + '\n', headers, 'application/x-ndjson');
  }
  await inject(app, 'POST', '/bench/_forcemerge?max_num_segments=1', undefined, headers);
  await inject(app, 'POST', '/bench/_refresh', undefined, headers);
}

// The search pool's workers are unref'd and answer through shared memory: keep the loop alive.
const keepAlive = setInterval(() => {}, 1000);
const dirs = [mkdtempSync(join(tmpdir(), 'threadsearch-bench-')), mkdtempSync(join(tmpdir(), 'threadsearch-bench-'))];
const open = await start(false, dirs[0]);
const secure = await start(true, dirs[1]);
try {
  await load(open, {});
  await load(secure, { authorization: SUPERUSER });
  const created = await inject(secure, 'POST', '/_security/api_key', JSON.stringify({ name: 'bench-reader', role_descriptors: { r: { indices: [{ names: ['bench'], privileges: ['read'] }] } } }), { authorization: SUPERUSER });
  const READER = `ApiKey ${(JSON.parse(created.body) as { encoded: string }).encoded}`;

  // Part 1: the security path alone.
  const keys = secure.apiKeys!;
  const route = { action: 'indices:data/read/search' };
  const existing = () => [...secure.indices.names(), ...secure.indices.aliases.names()];
  await keys.authenticate(READER, '/bench/_search'); // the first sight of a secret goes through scrypt
  await keys.authenticate(SUPERUSER, '/bench/_search');
  let sink = 0;
  const securityPath = (header: string): void => {
    const auth = keys.authenticate(header, '/bench/_search');
    if (auth instanceof Promise) throw new Error('not cached');
    const r = authorizeRequest({ params: { index: 'bench' }, query: {} }, route, auth, existing);
    sink += r.params.index.length;
  };
  const MICRO = 100_000;
  const micro: Record<string, number[]> = { 'superuser key': [], 'read-only key for the index': [] };
  for (let round = 0; round <= ROUNDS; round++) {
    const order = round % 2 === 0 ? [SUPERUSER, READER] : [READER, SUPERUSER];
    for (const header of order) {
      const c0 = cpuUs();
      for (let i = 0; i < MICRO; i++) securityPath(header);
      const ns = ((cpuUs() - c0) * 1000) / MICRO;
      if (round > 0) micro[header === SUPERUSER ? 'superuser key' : 'read-only key for the index'].push(ns);
    }
  }
  for (const [k, v] of Object.entries(micro)) console.log(`micro ${k}: ${v.map((x) => x.toFixed(0)).join(' ')} ns (median ${median(v).toFixed(0)})`);

  // Part 2: the whole request through inject.
  let q = 0;
  const body = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
  const cases = [
    { name: 'no security', app: open, headers: {} as Record<string, string>, cpu: [] as number[], rps: [] as number[] },
    { name: 'superuser key', app: secure, headers: { authorization: SUPERUSER }, cpu: [] as number[], rps: [] as number[] },
    { name: 'read-only key for the index', app: secure, headers: { authorization: READER }, cpu: [] as number[], rps: [] as number[] },
  ];
  const run = async (c: (typeof cases)[number], n: number): Promise<void> => {
    let next = 0;
    const c0 = cpuUs();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        next++;
        await inject(c.app, 'POST', '/bench/_search', body(), c.headers);
      }
    }));
    c.cpu.push((cpuUs() - c0) / n);
    c.rps.push(n / ((performance.now() - t0) / 1000));
  };
  for (let round = 0; round <= ROUNDS; round++) {
    for (let j = 0; j < cases.length; j++) {
      const c = cases[(j + round) % cases.length];
      if (round === 0) await run({ ...c, cpu: [], rps: [] }, REQUESTS);
      else await run(c, REQUESTS);
    }
  }
  const rows = cases.map((c) => ({
    case: c.name,
    cpu_us: median(c.cpu),
    cpu_ratio: median(c.cpu.map((x, i) => cases[0].cpu[i] / x)),
    rps: median(c.rps),
    rps_ratio: median(c.rps.map((x, i) => x / cases[0].rps[i])),
    rounds_cpu_us: c.cpu,
  }));
  for (const r of rows) {
    console.log(`inject ${r.case}: CPU ${r.cpu_us.toFixed(1)} µs/request (${r.rounds_cpu_us.map((x) => x.toFixed(0)).join(' ')}), no-security CPU ÷ this ${r.cpu_ratio.toFixed(3)}, req/s ratio ${r.rps_ratio.toFixed(3)}`);
  }
  writeResult('auth-path', { params: { rounds: ROUNDS, requests: REQUESTS, docs: DOCS, concurrency: CONCURRENCY, micro_calls: MICRO }, micro_ns: micro, rows, sink });
} finally {
  await open.close();
  await secure.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  clearInterval(keepAlive);
}
