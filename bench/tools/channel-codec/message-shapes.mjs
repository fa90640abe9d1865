// ad-hoc (issue 19, msearch-i19ms): CPU of one postMessage round trip between two threads by message shape (the search channel's batch, rows alone, a bare typed array, a number): what a batch costs beyond its searches.
//   node bench/tools/channel-codec/message-shapes.mjs
import { Worker, MessageChannel } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e3;
const src = `const { workerData } = require('node:worker_threads'); const { readFileSync } = require('node:fs');
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e3;
const port = workerData.port; let n = 0; let t = 0;
port.on('message', (m) => { if (m === 'r') { port.postMessage({ n, t: cpu() }); return; } n++; port.postMessage(1); });`;
const { port1, port2 } = new MessageChannel();
const w = new Worker(src, { eval: true, workerData: { port: port1 }, transferList: [port1] });
const spec = { highlight: null, index: 'bench', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false, tracksScores: true, sortKeys: null, missingStyles: null };
const fetch = { from: 0, spec };
const refs = [[{ segment: 'seg-abc-1', liveDocs: null }]];
const shapes = {
  full: () => ({ searches: [], plans: null, dropPlans: null, rows: new Float64Array(128), refs, fetches: [fetch], spares: null }),
  rowsObj: () => ({ searches: [], plans: null, dropPlans: null, rows: new Float64Array(128), refs: null, fetches: null, spares: null }),
  rowsOnly: () => new Float64Array(128),
  num: () => 7,
};
let waiting = null; port2.on('message', (m) => { const r = waiting; waiting = null; r(m); });
const send = (m) => new Promise((r) => { waiting = r; port2.postMessage(m); });
for (const round of [0, 1, 2]) for (const [name, mk] of Object.entries(shapes)) {
  for (let i = 0; i < 2000; i++) await send(mk());
  const w0 = await send('r'); const c0 = cpu();
  const N = 10000; for (let i = 0; i < N; i++) await send(mk());
  const c1 = cpu(); const w1 = await send('r');
  if (round > 0) console.log(name.padEnd(9), 'main µs/msg', ((c1 - c0) / N).toFixed(1), 'worker µs/msg', ((w1.t - w0.t) / N).toFixed(1));
}
await w.terminate();
