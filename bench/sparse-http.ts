/**
 * Learned-sparse search through HTTP with autocannon, and its scaling from 1 to 2 search threads:
 * a threadsearch child process holds the 200k ELSER-like synthetic vectors (bench/lib/sparse-corpus.ts,
 * force-merged) in a `sparse_vector` field; each request is a `sparse_vector` query with a
 * `query_vector` of ~33 tokens (no model time), 10 hits with `_source`. The same load runs against
 * a server started with `--threads 1` and one with `--threads 2`, so the ratio is measured in one run.
 *
 *   node dist/bench/sparse-http.js [--duration 10] [--docs 200000] [--connections 10]
 */
import { benchArgs, numberOption } from './lib/args.js';
import autocannon from 'autocannon';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkLoad, startThreadsearch } from './lib/server-process.js';
import { generateSparseCorpus, sparseVectorObject } from './lib/sparse-corpus.js';

const USAGE = 'node dist/bench/sparse-http.js [--duration 10] [--docs 200000] [--connections 10]';
const { values } = benchArgs(USAGE, { options: { duration: { type: 'string' }, docs: { type: 'string' }, connections: { type: 'string' } } });
const DURATION = numberOption(USAGE, values.duration, 'duration', 10);
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const CONNECTIONS = numberOption(USAGE, values.connections, 'connections', 10);
const QUERIES = 300;
const BATCH = 2_000;

const corpus = generateSparseCorpus({ docs: DOCS, queries: QUERIES });
const bulkBodies: string[] = [];
for (let i = 0; i < DOCS; i += BATCH) {
  let body = '';
  for (let d = i; d < Math.min(DOCS, i + BATCH); d++) body += `{"index":{"_index":"sparse","_id":"${d}"}}\n${JSON.stringify({ ml: { tokens: sparseVectorObject(corpus.docs, d) } })}\n`;
  bulkBodies.push(body);
}
const queryBodies = Array.from({ length: QUERIES }, (_, q) => JSON.stringify({
  size: 10, query: { sparse_vector: { field: 'ml.tokens', query_vector: sparseVectorObject(corpus.queries, q) } },
}));

interface Run {
  threads: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
  otherCores: number;
}

async function measure(threads: number): Promise<Run> {
  const server = await startThreadsearch(['--threads', String(threads)]);
  try {
    await fetch(`${server.url}/sparse`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mappings: { properties: { ml: { properties: { tokens: { type: 'sparse_vector' } } } } } }),
    });
    await bulkLoad(server.url, bulkBodies, 2);
    await fetch(`${server.url}/sparse/_refresh`, { method: 'POST' });
    await fetch(`${server.url}/sparse/_forcemerge?max_num_segments=1`, { method: 'POST' });
    let q = 0;
    const options = (duration: number) => ({
      url: `${server.url}/sparse/_search`, connections: CONNECTIONS, duration,
      requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: queryBodies[q++ % QUERIES] }) }],
    }) as unknown as autocannon.Options;
    await autocannon(options(3)); // warm-up: JIT and caches
    const probe = startCpuProbe({ pids: [server.pid] });
    const result = await autocannon(options(DURATION));
    const cpu = probe.stop();
    const run = {
      threads, rps: result.requests.average, p50_ms: result.latency.p50, p99_ms: result.latency.p99,
      non2xx: result.non2xx, errors: result.errors, otherCores: cpu.otherCores,
    };
    console.log(`--threads ${threads}: ${Math.round(run.rps)} req/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, non-2xx ${run.non2xx}, errors ${run.errors}, otherCores ${run.otherCores.toFixed(2)}`);
    return run;
  } finally {
    await server.stop();
  }
}

const runs = [await measure(1), await measure(2)];
const scaling = runs[1].rps / runs[0].rps;
console.log(`2 threads / 1 thread: ${scaling.toFixed(2)}x req/s`);
if (DOCS === 200_000) {
  writeResult('sparse-http', { params: { docs: DOCS, duration_s: DURATION, connections: CONNECTIONS, hits: 10 }, runs, scaling });
  updateBenchmarksMd(
    'sparse-http',
    markdownTable(
      ['search threads', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'otherCores'],
      runs.map((r) => [r.threads, Math.round(r.rps), r.p50_ms, r.p99_ms, r.non2xx, r.otherCores.toFixed(2)]),
    ),
    `autocannon (${CONNECTIONS} connections, ${DURATION} s, in the bench process) against a threadsearch child process holding 200k ELSER-like synthetic vectors (one force-merged segment), each request a \`sparse_vector\` query with a ~33-token \`query_vector\`, 10 hits with \`_source\`; once with \`--threads 1\`, once with \`--threads 2\`. 2 threads / 1 thread: **${formatNumber(scaling, 2)}×** req/s (the machine has 2 cores, shared with the coordinator and autocannon). otherCores counts CPU used outside the server (autocannon included). Run: \`node dist/bench/sparse-http.js\`.`,
  );
}
