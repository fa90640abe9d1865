/**
 * Issue 22 (memory-i22peak): a copy of a built tree whose server logs, every 100 ms, what the bulk
 * load's peak is made of — things neither smaps nor `_nodes/stats` see. Not product code: it patches
 * the copy's compiled JS by string match and fails loudly if a match is missing (the tree moved on).
 *
 *   node bench/tools/peak-probe/make.mjs <built tree> <out dir>
 *   node dist/bench/memory-timeline.js --docs 1000000 --merge-sample-ms 100 --tree <out dir> --label x
 *   node bench/tools/peak-probe/analyze.mjs <out dir>/log.jsonl [--until s] [--top n]
 *
 * The coordinator (cluster/search-pool.js) appends one line every 100 ms: VmRSS / VmHWM; its own
 * smaps split (anonymous ≥ 1 MB "big", smaller "small", glibc's [heap], 64 MB-aligned thread
 * arenas, files); the bytes the pool has announced to the workers and not released (published
 * segments, plus merge sources retained until the merge ends); the indexing buffers' source chunks
 * held by buffers and free in the pool (indexing-buffer.js); builds in flight and their chunks;
 * built segments not yet announced (a refresh publishes its chunks' segments together); merges in
 * flight; the main thread's new, old and large-object spaces. Each build worker
 * (workers/build-segment.js) appends a line at a build's start, after its documents are added,
 * after the builder's finish, after the segment is written and after its release; at a merge's
 * start, after each field, and at its end — with the scratch pool's leased and retained bytes and
 * the thread's new / old / large-object spaces.
 */
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [tree, outArg] = process.argv.slice(2);
if (!tree || !outArg) {
  console.error('usage: node bench/tools/peak-probe/make.mjs <built tree> <out dir>');
  process.exit(2);
}
const out = resolve(outArg);
const LOG = join(out, 'log.jsonl');
rmSync(join(out, 'dist'), { recursive: true, force: true });
rmSync(LOG, { force: true });
cpSync(join(tree, 'dist'), join(out, 'dist'), { recursive: true });
cpSync(join(tree, 'package.json'), join(out, 'package.json'));
if (!existsSync(join(out, 'node_modules'))) symlinkSync(resolve(tree, 'node_modules'), join(out, 'node_modules'));

function patch(file, find, repl) {
  const p = join(out, 'dist', file);
  const s = readFileSync(p, 'utf8');
  if (!s.includes(find)) throw new Error(`${file}: not found: ${find}`);
  writeFileSync(p, s.replace(find, repl));
}

// The indexing buffers' chunks: held by buffers, and the pool's free list.
patch('src/cluster/indices/indexing-buffer.js', 'const freeChunks = [];', 'const freeChunks = []; globalThis.__ib = { inBuffers: 0, free: freeChunks };');
patch('src/cluster/indices/indexing-buffer.js', 'this.chunks.push(chunk);', 'this.chunks.push(chunk); globalThis.__ib.inBuffers += chunk.length;');
patch('src/cluster/indices/indexing-buffer.js', 'for (const c of this.chunks)', 'for (const c of this.chunks) globalThis.__ib.inBuffers -= c.length; for (const c of this.chunks)');

// The coordinator: builds and merges in flight, built segments not yet announced, and the sampler.
patch('src/cluster/search-pool.js', '    async build(task) {', `    async build(task) {
        globalThis.__pr.builds++; let sb = 0; for (const c of task.sourceChunks) sb += c.byteLength; globalThis.__pr.buildSrc += sb;
        try { const r = await this.probedBuild(task); globalThis.__pr.unpub += r.sab.byteLength; return r; } finally { globalThis.__pr.builds--; globalThis.__pr.buildSrc -= sb; }
    }
    async probedBuild(task) {`);
patch('src/cluster/search-pool.js', '    async merge(task) {', `    async merge(task) {
        globalThis.__pr.merges++; try { return await this.probedMerge(task); } finally { globalThis.__pr.merges--; }
    }
    async probedMerge(task) {`);
patch('src/cluster/search-pool.js', '    announce(id, sab) {', `    announce(id, sab) {
        if (!id.includes('#') && globalThis.__pr.unpub >= sab.byteLength) globalThis.__pr.unpub -= sab.byteLength;`);
patch('src/cluster/search-pool.js', '    constructor(options) {', `    constructor(options) {
        peakProbe(this);`);
const sampler = `
import { appendFileSync as probeAppend, readFileSync as probeRead } from 'node:fs';
import { getHeapSpaceStatistics as probeSpaces } from 'node:v8';
globalThis.__pr = { builds: 0, buildSrc: 0, merges: 0, unpub: 0 };
function peakProbe(pool) {
  const smaps = () => {
    let big = 0, small = 0, heap = 0, file = 0, arenas = 0, size = 0, path = '', start = 0;
    for (const line of probeRead('/proc/self/smaps', 'utf8').split('\\n')) {
      const h = /^([0-9a-f]+)-([0-9a-f]+) \\S+ \\S+ \\S+ \\d+\\s*(.*)$/.exec(line);
      if (h) { start = parseInt(h[1], 16); size = parseInt(h[2], 16) - start; path = h[3]; continue; }
      const r = /^Rss:\\s+(\\d+) kB/.exec(line);
      if (!r) continue;
      const rss = Number(r[1]) * 1024;
      if (path === '[heap]') heap += rss;
      else if (path !== '' && !path.startsWith('[')) file += rss;
      else if (path === '') { if (start % 67108864 === 0 && size <= 67108864) arenas += rss; else if (size >= 1048576) big += rss; else small += rss; }
    }
    return { big, small, heap, file, arenas };
  };
  const iv = setInterval(() => {
    const st = probeRead('/proc/self/status', 'utf8');
    const kb = (k) => Number(new RegExp(k + ':\\\\s+(\\\\d+)').exec(st)[1]) * 1024;
    const sp = {};
    for (const s of probeSpaces()) sp[s.space_name] = s.physical_space_size;
    const ib = globalThis.__ib ?? { inBuffers: 0, free: [] };
    probeAppend(${JSON.stringify(LOG)}, JSON.stringify({ t: Date.now(), th: 'main', rss: kb('VmRSS'), hwm: kb('VmHWM'), ...smaps(), announced: pool.retainedBytes(), ibIn: ib.inBuffers, ibFree: ib.free.length * 1048576, ...globalThis.__pr, young: sp.new_space, old: sp.old_space, lo: sp.large_object_space + sp.new_large_object_space }) + '\\n');
  }, 100);
  iv.unref();
}
`;
writeFileSync(join(out, 'dist/src/cluster/search-pool.js'), readFileSync(join(out, 'dist/src/cluster/search-pool.js'), 'utf8') + sampler);

// The build workers: events with the scratch pool and the thread's heap spaces.
const workerLog = `
import { appendFileSync as probeAppend } from 'node:fs';
import { getHeapSpaceStatistics as probeSpaces } from 'node:v8';
import { threadId as probeThread } from 'node:worker_threads';
globalThis.__wlog = (ev, extra) => {
  const sp = {};
  for (const s of probeSpaces()) sp[s.space_name] = s.physical_space_size;
  const pool = globalThis.__scratch;
  let leased = 0;
  if (pool) for (const b of pool.leased) leased += b.byteLength;
  probeAppend(${JSON.stringify(LOG)}, JSON.stringify({ t: Date.now(), th: 'w' + probeThread, ev, leased, retained: pool ? pool.retainedBytes : 0, young: sp.new_space, old: sp.old_space, lo: sp.large_object_space + sp.new_large_object_space, ...extra }) + '\\n');
};
`;
const bs = 'dist/workers/build-segment.js';
writeFileSync(join(out, bs), workerLog + readFileSync(join(out, bs), 'utf8'));
patch('workers/build-segment.js', 'function buildSegment(task) {', 'function buildSegment(task) {\n    globalThis.__scratch = buildScratch; globalThis.__wlog("build0", { docs: task.ids.length });');
patch('workers/build-segment.js', 'const input = builder.finish();', 'globalThis.__wlog("added"); const input = builder.finish(); globalThis.__wlog("finished");');
patch('workers/build-segment.js', 'releaseBuildMemory(out.ok ? out.value.sab.byteLength : 0);', 'globalThis.__wlog("build1", { out: out.ok ? out.value.sab.byteLength : 0 }); releaseBuildMemory(out.ok ? out.value.sab.byteLength : 0); globalThis.__wlog("build2");');
patch('workers/build-segment.js', 'function mergeSources(task) {', 'function mergeSources(task) {\n    globalThis.__scratch = buildScratch; globalThis.__wlog("merge0", { n: task.sources.length });');
patch('workers/build-segment.js', 'return writeMergedSegment(sources, task.codec, collectGarbage);', 'return writeMergedSegment(sources, task.codec, () => { globalThis.__wlog("mfield"); collectGarbage(); });');
patch('workers/build-segment.js', 'if (out.ok)\n        releaseTaskMemory', 'globalThis.__wlog("merge1", { out: out.ok ? out.value.sab.byteLength : 0 });\n    if (out.ok)\n        releaseTaskMemory');
patch('workers/segment-cache.js', 'export function pollDrops() {', 'export function pollDrops() {\n    globalThis.__wlog?.("poll");');
console.log(`probe tree ${out}; log ${LOG}`);
