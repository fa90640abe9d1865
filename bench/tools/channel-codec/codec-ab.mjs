// ad-hoc (issue 19, msearch-i19x): CPU of a search channel's hand-off per batch of 16 searches (`--size`: other sizes, msearch-i19ms), the
// coordinator's side (SearchChannel.run: post, reply receipt and decoding) and the worker's (the
// batch's receipt and reading, the reply's encoding and post), without the searches themselves.
// `--dist` picks the SearchChannel (and for this tree the row codec); the worker end answers in the
// format that build's workers use. CPU from /proc/thread-self/schedstat of each thread.
//   node bench/tools/channel-codec/codec-ab.mjs --dist <dist> [--batches 4000] [--size 16] [--label L]
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, MessageChannel } from 'node:worker_threads';
const { values: v } = parseArgs({ options: { dist: { type: 'string' }, batches: { type: 'string', default: '4000' }, label: { type: 'string', default: '' }, size: { type: 'string', default: '16' } } });
const dist = v.dist;
const { SearchChannel, sharePlan } = await import(pathToFileURL(join(dist, 'src/cluster/search-channel.js')).href);
const protocol = await import(pathToFileURL(join(dist, 'workers/protocol.js')).href);
const rows = typeof protocol.encodeChannelReply === 'function';
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e3;
const workerSrc = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e3;
(async () => {
  const protocol = workerData.rows ? await import(workerData.protocol) : null;
  const port = workerData.port;
  const plans = new Map();
  let used = 0;
  port.on('message', (m) => {
    const t0 = cpu();
    if (m.plans) for (const [id, p] of m.plans) plans.set(id, p);
    const n = m.rows ? m.rows.length / protocol.CHANNEL_ROW : m.searches.length;
    const buf = new ArrayBuffer(n * 3000);
    const replies = new Array(n);
    let next = 0;
    for (let i = 0; i < n; i++) {
      let req;
      if (m.rows && m.rows[i * protocol.CHANNEL_ROW] !== protocol.CHANNEL_FULL) req = protocol.rowRequest(m.rows, i * protocol.CHANNEL_ROW, plans.get(m.rows[i * protocol.CHANNEL_ROW]), m.fetches);
      else { const s = m.searches[next++]; req = s.request; req.query = plans.get(s.planId); }
      used += req.k + (req.fetch ? 1 : 0);
      replies[i] = { ok: true, value: { totalHits: 1234 + i, totalRelation: 'eq', maxScore: 12.5, hits: new Float64Array(40), sortValues: null, terminatedEarly: false, timedOut: false, rendered: new Uint8Array(buf, i * 3000, 3000) } };
    }
    if (protocol) { const { answer, transfer } = protocol.encodeChannelReply(replies, 1); port.postMessage(answer, transfer); }
    else port.postMessage({ replies, runMs: 1 }, [buf]);
    busy += cpu() - t0;
  });
  let busy = 0;
  parentPort.on('message', (m) => { if (m === 'report') parentPort.postMessage({ busy, total: cpu() }); });
  parentPort.postMessage('ready');
})();
`;
const { port1, port2 } = new MessageChannel();
const worker = new Worker(workerSrc, { eval: true, workerData: { port: port1, rows, protocol: pathToFileURL(join(dist, 'workers/protocol.js')).href }, transferList: [port1] });
await new Promise((r) => worker.once('message', r));
const channel = new SearchChannel({ op: 'threadsearch:search-port', threadId: 1, port: port2, poolTask: new Int32Array(1) }, () => {});
const spec = { highlight: null, index: 'bench', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false, tracksScores: true, sortKeys: null, missingStyles: null };
const fetch = { from: 0, spec };
const segments = [{ segment: 'seg-abc-1', liveDocs: null }];
const planList = Array.from({ length: 64 }, (_, i) => ({ kind: 'term', field: 'text', term: `t${i}`, weight: 1.5, avgdl: 4 }));
for (const p of planList) sharePlan(p);
let q = 0;
const SIZE = Number(v.size);
const batch = () => Array.from({ length: SIZE }, () => ({ segments, request: { query: planList[q++ % 64], k: 10, trackTotalHitsUpTo: 10000, minScore: null, sort: null, trackScores: false, searchAfter: null, terminateAfter: 0, fetch, deadline: 0, aggs: null, suggest: null } }));
let check = 0;
const runAll = async (n) => {
  // Two in flight, as queueBehind keeps a running worker's channel.
  let started = 0;
  const lane = async () => { while (started < n) { started++; const a = await channel.run(batch()); for (const r of a.replies) check += r.value.totalHits + r.value.hits.length + r.value.rendered.byteLength; } };
  await Promise.all([lane(), lane()]);
};
await runAll(500);
const report = () => new Promise((r) => { worker.once('message', r); worker.postMessage('report'); });
const w0 = await report();
const m0 = cpu();
const t0 = performance.now();
const N = Number(v.batches);
await runAll(N);
const m1 = cpu();
const w1 = await report();
const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
console.log(JSON.stringify({ label: v.label, rows, size: SIZE, batches: N, mainUsPerSearch: (m1 - m0) / N / SIZE, workerUsPerSearch: (w1.total - w0.total) / N / SIZE, mainUsPerBatch: (m1 - m0) / N, workerUsPerBatch: (w1.total - w0.total) / N, workerHandlerUsPerBatch: (w1.busy - w0.busy) / N, wallMs: performance.now() - t0, load, check: check > 0 }));
await worker.terminate();
