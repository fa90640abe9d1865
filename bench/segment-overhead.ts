/**
 * What a bulk load's unmerged segments cost beyond the same docs merged (issue 22): builds
 * `--segments` segments of `--docs-per-segment` synthetic short docs each (memory.ts's corpus and
 * mapping: one `text`, one `integer`), as a refresh under a bulk load writes them (~12k docs each at
 * 1M docs), merges them into one as a background merge does (merge-policy.ts: ten of a tier), and
 * prints the bytes of every section kind in both, per document, with the text field's terms and
 * postings blocks per segment and how many of its terms have one posting. In process, one thread: the
 * bytes do not depend on the machine's load.
 *
 *   node dist/bench/segment-overhead.js [--docs-per-segment 12000] [--segments 10] [--label x]
 *
 * Writes bench/results/segment-overhead[-<label>].json; no BENCHMARKS.md section.
 */
import { benchArgs, numberOption } from './lib/args.js';
import { writeResult } from './lib/report.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { openSegment, parseRootMapping, Section, SegmentBuilder, writeMergedSegment, writeSegment, type Segment } from '../src/index/index.js';
import { readDirectory } from '../src/index/segment/sab-layout.js';

const USAGE = 'node dist/bench/segment-overhead.js [--docs-per-segment 12000] [--segments 10] [--label x]';
const { values } = benchArgs(USAGE, { options: { 'docs-per-segment': { type: 'string' }, segments: { type: 'string' }, label: { type: 'string' } } });
const PER_SEGMENT = numberOption(USAGE, values['docs-per-segment'], 'docs-per-segment', 12_000);
const SEGMENTS = numberOption(USAGE, values.segments, 'segments', 10);
const DOCS = PER_SEGMENT * SEGMENTS;
const MB = 1024 * 1024;
const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const SECTION_NAMES = new Map<number, string>(Object.entries(Section).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v as number, k]));

/** Adds the bytes of each section kind of `sab` to `into` (all fields together). */
function addSections(sab: SharedArrayBuffer, into: Map<string, number>): void {
  for (const [key, e] of readDirectory(sab).entries) {
    const name = SECTION_NAMES.get(Math.floor(key / 0x100000000)) ?? 'unknown';
    into.set(name, (into.get(name) ?? 0) + e.length);
  }
}

/** The text field's terms, its terms with one posting, and its postings blocks. */
function textTerms(segment: Segment): { terms: number; singletons: number } {
  const starts = segment.fields.get('text')!.postingsStart!;
  const terms = starts.length - 1;
  let singletons = 0;
  for (let t = 0; t < terms; t++) if (starts[t + 1] - starts[t] === 1) singletons++;
  return { terms, singletons };
}

const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 });
const mapping = parseRootMapping({ properties: { text: { type: 'text' }, n: { type: 'integer' } } });
const segments: Segment[] = [];
const small = new Map<string, number>();
let smallBytes = 0;
let terms = 0;
let singletons = 0;
for (let s = 0; s < SEGMENTS; s++) {
  const builder = new SegmentBuilder(mapping, LIMITS);
  for (let d = s * PER_SEGMENT; d < (s + 1) * PER_SEGMENT; d++) {
    builder.add({ id: corpus.docs[d].id, source: JSON.stringify({ text: corpus.docs[d].text, n: d }), seqNo: d, version: 1, indexOrder: d });
  }
  const sab = writeSegment(builder.finish());
  addSections(sab, small);
  smallBytes += sab.byteLength;
  const segment = openSegment(`s${s}`, sab);
  const t = textTerms(segment);
  terms += t.terms;
  singletons += t.singletons;
  segments.push(segment);
}
const merged = writeMergedSegment(segments.map((segment) => ({ segment, liveDocs: null })));
const big = new Map<string, number>();
addSections(merged.sab, big);
const mergedTerms = textTerms(openSegment('merged', merged.sab)).terms;

const rows = [...small.keys()]
  .map((name) => ({ section: name, segments: small.get(name)!, merged: big.get(name) ?? 0 }))
  .sort((a, b) => b.segments - b.merged - (a.segments - a.merged));
const mb = (b: number) => (b / MB).toFixed(2);
console.log(`${SEGMENTS} segments of ${PER_SEGMENT} docs: ${mb(smallBytes)} MB (${Math.round(smallBytes / DOCS)} B/doc); merged: ${mb(merged.sab.byteLength)} MB (${Math.round(merged.sab.byteLength / DOCS)} B/doc), ${(smallBytes / merged.sab.byteLength).toFixed(2)}×`);
console.log(`text terms per segment ${Math.round(terms / SEGMENTS)} (${((100 * singletons) / terms).toFixed(0)}% with one posting); merged ${mergedTerms}`);
console.log('section                segments MB  merged MB  extra MB  extra B per segment term');
for (const r of rows) {
  console.log(`${r.section.padEnd(22)} ${mb(r.segments).padStart(11)} ${mb(r.merged).padStart(10)} ${mb(r.segments - r.merged).padStart(9)} ${((r.segments - r.merged) / terms).toFixed(1).padStart(8)}`);
}
// In-process byte counts: CPU load does not change them (writeResult warns about otherCores).
writeResult(values.label ? `segment-overhead-${values.label}` : 'segment-overhead', {
  params: { docsPerSegment: PER_SEGMENT, segments: SEGMENTS },
  segmentsBytes: smallBytes, mergedBytes: merged.sab.byteLength, termsPerSegment: terms / SEGMENTS, singletonShare: singletons / terms, mergedTerms, sections: rows,
});
