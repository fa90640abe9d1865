/**
 * The main thread's cost of one `_bulk` request's body and response, in-process (issue 19, branch
 * i19k): the body read as bytes (split and decoded line by line, `parseBulkBody(bytes)`) against the
 * body decoded whole and parsed as text, and the response rendered as 64 KB chunks (`jsonChunksOf`)
 * against JSON.stringify of the whole, sized and encoded as fastify does for a string body. Runs under
 * the server's malloc settings (re-executing itself with them), where every buffer over 128 KB is a
 * fresh mapping; CPU µs per document, the minimum over rounds.
 *
 *   node dist/bench/bulk-request-cost.js [--docs 50000] [--rounds 15]
 */
import { spawnSync } from 'node:child_process';
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { SERVER_MALLOC_ENV, SERVER_NODE_ARGS } from '../src/cli/server-process.js';
import { parseBulkBody } from '../src/dsl/bulk-request.js';
import { jsonChunksOf } from '../src/http/json-chunks.js';
import { bulkBodies } from './lib/server-process.js';
import { writeResult } from './lib/report.js';

if (process.env.MALLOC_MMAP_THRESHOLD_ === undefined) {
  const r = spawnSync(process.execPath, [...SERVER_NODE_ARGS, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...SERVER_MALLOC_ENV, ...process.env } });
  process.exit(r.status ?? 1);
}

const USAGE = 'node dist/bench/bulk-request-cost.js [--docs 50000] [--rounds 15]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, rounds: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 50_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 15);
const BATCH = 5000;
const bodies = bulkBodies('bulk', generateBm25Corpus({ docs: DOCS, queries: 1 }).docs, BATCH).map((b) => Buffer.from(b));
const shards = Object.freeze({ total: 1, successful: 1, failed: 0 });
/** A successful bulk's items as executeBulk builds them. */
function items(first: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (let i = 0; i < BATCH; i++) {
    const body: Record<string, unknown> = { _index: 'bulk', _id: String(first + i), _version: 1, result: 'created', _shards: shards, _seq_no: first + i, _primary_term: 1 };
    body.status = 201;
    out.push({ index: body });
  }
  return out;
}

let sink = 0;
/** CPU µs per document of `f` over every body, the minimum over rounds. */
function measure(f: (body: Buffer, k: number) => number): number {
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t = process.cpuUsage();
    bodies.forEach((b, k) => (sink += f(b, k)));
    const u = process.cpuUsage(t);
    best = Math.min(best, (u.user + u.system) / DOCS);
  }
  return best;
}

const probe = startCpuProbe({ pids: [process.pid] });
const cases = {
  bodyAsText: measure((b) => parseBulkBody(b.toString('utf8'), null).length),
  bodyAsBytes: measure((b) => parseBulkBody(b, null).length),
  responseStringified: measure((_, k) => {
    const text = JSON.stringify({ took: 5, errors: false, items: items(k * BATCH) });
    return Buffer.byteLength(text) + Buffer.from(text).length;
  }),
  responseChunks: measure((_, k) => jsonChunksOf('{"took":5,"errors":false,"items":[', items(k * BATCH), ']}').byteLength),
};
for (const [k, v] of Object.entries(cases)) console.log(`${k.padEnd(20)} ${v.toFixed(3)} µs/doc`);
console.log(`body: bytes / text ${(cases.bodyAsBytes / cases.bodyAsText).toFixed(2)}; response: chunks / stringified ${(cases.responseChunks / cases.responseStringified).toFixed(2)} (${sink > 0 ? 'ok' : ''})`);
writeResult('bulk-request-cost', { params: { docs: DOCS, rounds: ROUNDS, batch: BATCH }, usPerDoc: cases, otherCores: probe.stop().otherCores });
