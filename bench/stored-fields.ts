/**
 * Stored `_source` codecs (issue 22): bytes per document and the cost of the fetch a `_search` does
 * for its 10 hits, for the raw format-2 layout (one UTF-8 blob, a `toString` per hit), format 3's
 * `default` (one raw doc per block, read in place: the segment rewritten with such blocks) and the
 * two `index.codec` block codecs (the hit's block decoded as the search workers do it). Hits are
 * random docs of the corpus, so the cache of decoded blocks rarely helps — the worst case for the
 * codecs. The variants run interleaved, `--reps` rounds each; the median round is reported, with
 * the ratio to raw from the same round. Times are CPU time of the process (process.cpuUsage), so a
 * loaded machine stretches them less than wall time.
 *
 *   node dist/bench/stored-fields.js [--docs 200000] [--searches 20000] [--reps 5]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { clearStoredFieldsCache } from '../src/index/index.js';
import { NO_FIELD, Section, SegmentBuilder, openSegment, parseRootMapping, readSource, writeSegment, type IndexCodec, type Segment } from '../src/index/index.js';
import { readDirectory, SectionWriter } from '../src/index/segment/sab-layout.js';
import { BlockCodec, writeBlockHead } from '../src/index/segment/source-codec.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/stored-fields.js [--docs 200000] [--searches 20000] [--reps 5]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, searches: { type: 'string' }, reps: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const SEARCHES = numberOption(USAGE, values.searches, 'searches', 20_000);
const REPS = numberOption(USAGE, values.reps, 'reps', 5);
const HITS = 10;

const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 });
const sources = corpus.docs.map((d, i) => JSON.stringify({ text: d.text, n: i }));
corpus.docs.length = 0;

// Format 2's layout and read: one blob, offsets, a toString per hit.
const blob = Buffer.from(sources.join(''));
const offsets = new Uint32Array(DOCS + 1);
sources.forEach((s, i) => (offsets[i + 1] = offsets[i] + Buffer.byteLength(s)));

function build(codec: IndexCodec): Segment {
  // No mapped fields: the segment is its ids, seq_nos and stored source.
  const builder = new SegmentBuilder(parseRootMapping({ dynamic: false }), { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false }, undefined, codec);
  sources.forEach((source, i) => builder.add({ id: String(i), source, seqNo: i, version: 1, indexOrder: i }));
  return openSegment(codec, writeSegment(builder.finish()));
}
/** `seg` with format 3's `default` stored fields: one raw doc per block, [Raw][length][doc length][doc]. */
function withRawDocBlocks(seg: Segment): Segment {
  const dir = readDirectory(seg.sab);
  const w = new SectionWriter();
  for (const [key, e] of dir.entries) {
    const kind = Math.floor(key / 0x100000000) as Section;
    if (kind >= Section.SourceBlockDocs && kind <= Section.SourceDictionary) continue;
    w.add(kind, key % 0x100000000, new Uint8Array(seg.sab, e.offset, e.length).slice());
  }
  const docs = sources.map((s) => Buffer.from(s));
  const blocks = new Uint8Array(docs.reduce((n, d) => n + d.length + 7, 0));
  const blockOffsets = new Uint32Array(DOCS + 1);
  let pos = 0;
  docs.forEach((d, i) => {
    blockOffsets[i] = pos;
    const inner = new Uint8Array(5);
    const innerLength = writeBlockHead(inner, 0, BlockCodec.Raw, d.length) - 1;
    pos = writeBlockHead(blocks, pos, BlockCodec.Raw, innerLength + d.length);
    blocks.set(inner.subarray(1, 1 + innerLength), pos);
    blocks.set(d, pos + innerLength);
    pos += innerLength + d.length;
  });
  blockOffsets[DOCS] = pos;
  w.add(Section.SourceBlockDocs, NO_FIELD, Uint32Array.from({ length: DOCS + 1 }, (_, i) => i));
  w.add(Section.SourceBlockOffsets, NO_FIELD, blockOffsets);
  w.add(Section.SourceBlocks, NO_FIELD, blocks.slice(0, pos));
  w.add(Section.SourceDictionary, NO_FIELD, new Uint8Array(0));
  const out = w.finish(seg.info);
  new Uint32Array(out, 0, 4)[1] = 3;
  return openSegment('raw-doc', out);
}

const segments = { default: build('default'), best_compression: build('best_compression') };
const rawDocBlocks = withRawDocBlocks(segments.default);
for (const [codec, seg] of [...Object.entries(segments), ['raw-doc', rawDocBlocks] as const]) {
  for (let d = 0; d < DOCS; d += 997) if (readSource(seg, d) !== sources[d]) throw new Error(`${codec}: doc ${d} differs`);
}

let x = 12345;
const hits = Uint32Array.from({ length: SEARCHES * HITS }, () => (x = (x * 1103515245 + 12345) >>> 0) % DOCS);
let sink = 0;
const variants: Record<string, () => void> = {
  raw: () => {
    for (const d of hits) sink += blob.toString('utf8', offsets[d], offsets[d + 1]).length;
  },
  'raw-doc': () => {
    for (const d of hits) sink += readSource(rawDocBlocks, d)!.length;
  },
  default: () => {
    for (const d of hits) sink += readSource(segments.default, d)!.length;
  },
  best_compression: () => {
    for (const d of hits) sink += readSource(segments.best_compression, d)!.length;
  },
};

const probe = startCpuProbe();
const rounds: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
for (let r = 0; r < REPS; r++) {
  for (const [name, run] of Object.entries(variants)) {
    clearStoredFieldsCache();
    const t0 = cpuMicros();
    run();
    rounds[name].push((cpuMicros() - t0) / SEARCHES);
  }
}
const otherCores = probe.stop().otherCores;
const median = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1];
const bytes = {
  raw: blob.length + offsets.byteLength,
  'raw-doc': storedBytes(rawDocBlocks),
  default: storedBytes(segments.default),
  best_compression: storedBytes(segments.best_compression),
};
function storedBytes(seg: Segment): number {
  const s = seg.storedFields!;
  return s.blocks.byteLength + s.blockDocs.byteLength + s.blockOffsets.byteLength + s.dictionary.byteLength;
}
const LAYOUTS: Record<string, string> = {
  raw: 'raw (format 2)',
  'raw-doc': 'one raw doc per block (format 3 `default`)',
  default: '`index.codec: default` (LZ4 doc blocks)',
  best_compression: '`index.codec: best_compression`',
};
const cases = Object.keys(variants).map((name) => ({
  codec: name,
  bytesPerDoc: bytes[name as keyof typeof bytes] / DOCS,
  fetchUsPer10Hits: median(rounds[name]),
  ratioToRaw: median(rounds[name].map((v, i) => v / rounds.raw[i])),
  rounds: rounds[name],
}));
for (const c of cases) console.log(`${c.codec}: ${c.bytesPerDoc.toFixed(1)} B/doc, fetch of ${HITS} hits ${c.fetchUsPer10Hits.toFixed(1)} µs (${c.ratioToRaw.toFixed(1)}× raw)`);
console.log(`otherCores ${otherCores.toFixed(2)} (sink ${sink % 7})`);
writeResult('stored-fields', { params: { docs: DOCS, searches: SEARCHES, reps: REPS, hits: HITS }, otherCores, cases });
updateBenchmarksMd(
  'stored-fields',
  markdownTable(['`_source` layout', 'bytes/doc', `fetch of ${HITS} random hits, CPU µs (median of ${REPS})`, '× raw (same round)', '× raw doc blocks (same round)'], cases.map((c) => [
    LAYOUTS[c.codec], formatNumber(c.bytesPerDoc), formatNumber(c.fetchUsPer10Hits), formatNumber(c.ratioToRaw), formatNumber(median(rounds[c.codec].map((v, i) => v / rounds['raw-doc'][i]))),
  ])),
  `Issue 22: ${formatNumber(DOCS)} synthetic short docs (≈256 bytes of JSON), stored \`_source\` as format 2 kept it (raw), as format 3's \`default\` kept it (one raw doc per block, read in place) and as the index codecs write it now (format 4); the fetch of a \`_search\`'s ${HITS} hits at random docs, in-process, one thread, CPU time (otherCores ${otherCores.toFixed(2)}: other processes' load; only the ratios of one run compare). Run: \`node dist/bench/stored-fields.js\`.`,
);
