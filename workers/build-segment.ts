/** Worker entry: build a segment from buffered documents (refresh) or merge segments. */
import { Buffer } from 'node:buffer';
import { SegmentBuilder, withScratchPool, writeMergedSegment, writeSegment, type BuildDocument } from '../src/index/index.js';
import type { BuildSegmentTask, MergeSegmentsReply, MergeSegmentsTask, SegmentBuilt, WorkerReply } from './protocol.js';
import { asPoolTask } from './pool-task.js';
import { buildScratch, collectGarbage, releaseBuildMemory, releaseBuildScratch, releaseTaskMemory } from './release-memory.js';
import { pollDrops, reply, resolveRefs } from './segment-cache.js';

/**
 * A build looks for dropped segments every this many + 1 docs (~0.1–0.2 s of a loaded thread's
 * work): a merge's publish should not wait for the end of a build to free its sources (issue 22).
 */
const DROP_POLL_MASK = 2047;

export function build(task: BuildSegmentTask): WorkerReply<SegmentBuilt> {
  return asPoolTask(() => buildSegment(task));
}

function buildSegment(task: BuildSegmentTask): WorkerReply<SegmentBuilt> {
  let last: BuildDocument | null = null;
  // Every array of the build but the segment's SharedArrayBuffer dies with it: scratch from the pool.
  const out = reply(() => withScratchPool(buildScratch, () => {
    const builder = new SegmentBuilder(task.mapping, task.limits, task.text, task.codec);
    last = addColumns(builder, task);
    const input = builder.finish();
    pollDrops();
    return { sab: writeSegment(input), maxDoc: input.maxDoc };
  }));
  (task as { ids: unknown }).ids = [];
  (task as { sourceChunks: unknown }).sourceChunks = [];
  if (out.ok && last !== null) keepShapes(task, last);
  releaseBuildMemory(out.ok ? out.value.sab.byteLength : 0);
  return out;
}

/**
 * One small build of the last document, kept until the next build (issue 19). V8 drops an object
 * shape (hidden class) a few full collections after its last instance died — at once in its own
 * memory-reducing collections — and deoptimizes every function specialised on it. A build's
 * objects (the task as the structured clone made it, the builder, its accumulators, growables and
 * hashes, the parser's per-document walk, the parsed source, the SegmentInput) all die when the
 * build ends, and the collections between builds (ours, merges', V8's idle ones) then threw away
 * the build code: in a bulk load TurboFan compiled it again after nearly every one (~130 compiles
 * per 100k docs, all through the load). A one-document build has the same shapes and costs
 * 0.2–0.3 ms and under 100 KB; it runs outside the scratch pool (plain small arrays), so it
 * holds none of the pool's buffers.
 */
let shapes: { task: BuildSegmentTask; builder: SegmentBuilder; input: unknown } | null = null;

function keepShapes(task: BuildSegmentTask, doc: BuildDocument): void {
  // The task keeps its shape with its arrays emptied (same element kinds, so the same hidden class).
  const t = task as { -readonly [K in keyof BuildSegmentTask]: BuildSegmentTask[K] };
  t.sourceRuns = EMPTY_U32;
  t.runFirstDoc = EMPTY_U32;
  t.sourceOffsets = EMPTY_U32;
  t.sourceCharOffsets = EMPTY_U32;
  t.numbers = EMPTY_F64;
  // A huge last document is not kept (one is as big as a build's share of memory): the previous shapes stay.
  if (doc.source.length > SHAPES_MAX_SOURCE_CHARS) return;
  shapes = null;
  try {
    const builder = new SegmentBuilder(task.mapping, task.limits, task.text, task.codec);
    // A copy of the source: the build's is a slice of its run's decoded text, which it keeps alive.
    const source = Buffer.from(doc.source).toString();
    builder.add({ id: doc.id, source, seqNo: doc.seqNo, version: doc.version, indexOrder: doc.indexOrder });
    shapes = { task, builder, input: builder.finish() };
  } catch {
    // The document was just built with the same mapping: cannot fail; should it, only the shapes are lost.
  }
}

const SHAPES_MAX_SOURCE_CHARS = 64 << 10;
const EMPTY_U32 = new Uint32Array(0);
const EMPTY_F64 = new Float64Array(0);

/**
 * The task's documents into the builder, in order (a loop of its own: it runs once per build),
 * looking for dropped segments every DROP_POLL_MASK + 1 docs; returns the last one (keepShapes).
 */
function addColumns(builder: SegmentBuilder, task: BuildSegmentTask): BuildDocument | null {
  const { ids, numbers, sourceRuns: runs, runFirstDoc, sourceOffsets, sourceCharOffsets } = task;
  const n = ids.length;
  const runCount = runFirstDoc.length - 1;
  let doc: BuildDocument | null = null;
  for (let r = 0; r < runCount; r++) {
    const chunk = Buffer.from(task.sourceChunks[runs[3 * r]]);
    const first = runFirstDoc[r];
    const last = runFirstDoc[r + 1];
    // One decode per run of adjacent documents, then a slice each (no copy): a fresh worker's
    // per-call cost of Buffer#toString is node's own JS, not yet optimized. The text is the sources
    // one after another (even a lone surrogate, which the coordinator wrote as U+FFFD, is one unit
    // either way); should the lengths ever disagree, each source is decoded from its own bytes.
    const text = chunk.toString('utf8', runs[3 * r + 1], runs[3 * r + 2]);
    const charBase = sourceCharOffsets[first];
    const byChars = text.length === sourceCharOffsets[last] - charBase;
    const byteBase = runs[3 * r + 1] - sourceOffsets[first];
    for (let i = first; i < last; i++) {
      if ((i & DROP_POLL_MASK) === DROP_POLL_MASK) pollDrops();
      const source = byChars
        ? text.slice(sourceCharOffsets[i] - charBase, sourceCharOffsets[i + 1] - charBase)
        : chunk.toString('utf8', byteBase + sourceOffsets[i], byteBase + sourceOffsets[i + 1]);
      doc = { id: ids[i], source, seqNo: numbers[i], version: numbers[n + i], indexOrder: numbers[2 * n + i] };
      builder.add(doc);
    }
  }
  return doc;
}

export function merge(task: MergeSegmentsTask): MergeSegmentsReply {
  return asPoolTask(() => mergeSources(task));
}

function mergeSources(task: MergeSegmentsTask): MergeSegmentsReply {
  // A merge takes no build scratch (its arrays are plain allocations), and a background merge runs
  // for seconds beside the other thread's builds: this thread's scratch pool (~30 MB after a 16k-doc
  // chunk) would sit unused under the merge's own peak. Its buffers become garbage here and go at
  // the merge's first collection; the next build maps its scratch again (issue 22).
  releaseBuildScratch();
  const out = reply(() => {
    const shard = resolveRefs(task.sources, task.inline);
    if ('missing' in shard) return shard;
    const sources = shard.segments.map((segment, i) => ({ segment, liveDocs: shard.liveDocs[i] }));
    // Each merged field's arrays are collected before the next is merged: the merge's peak is then
    // its sources, the new segment and one field's arrays (issue 22).
    return writeMergedSegment(sources, task.codec, collectGarbage);
  });
  if (out.ok) releaseTaskMemory(out.value.sab.byteLength);
  return out;
}
