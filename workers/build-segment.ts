/** Worker entry: build a segment from buffered documents (refresh) or merge segments. */
import { SegmentBuilder, withScratchPool, writeMergedSegment, writeSegment } from '../src/index/index.js';
import type { BuildSegmentTask, MergeSegmentsReply, MergeSegmentsTask, SegmentBuilt, WorkerReply } from './protocol.js';
import { asPoolTask } from './pool-task.js';
import { buildScratch, collectGarbage, releaseBuildMemory, releaseTaskMemory } from './release-memory.js';
import { reply, resolveRefs } from './segment-cache.js';

export function build(task: BuildSegmentTask): WorkerReply<SegmentBuilt> {
  return asPoolTask(() => buildSegment(task));
}

function buildSegment(task: BuildSegmentTask): WorkerReply<SegmentBuilt> {
  // Every array of the build but the segment's SharedArrayBuffer dies with it: scratch from the pool.
  const out = reply(() => withScratchPool(buildScratch, () => {
    const builder = new SegmentBuilder(task.mapping, task.limits, task.text, task.codec);
    for (const doc of task.docs) builder.add(doc);
    const input = builder.finish();
    return { sab: writeSegment(input), maxDoc: input.maxDoc };
  }));
  (task as { docs: unknown }).docs = [];
  releaseBuildMemory(out.ok ? out.value.sab.byteLength : 0);
  return out;
}

export function merge(task: MergeSegmentsTask): MergeSegmentsReply {
  return asPoolTask(() => mergeSources(task));
}

function mergeSources(task: MergeSegmentsTask): MergeSegmentsReply {
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
