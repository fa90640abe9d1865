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
    addColumns(builder, task);
    const input = builder.finish();
    return { sab: writeSegment(input), maxDoc: input.maxDoc };
  }));
  (task as { ids: unknown; sources: unknown }).ids = (task as { sources: unknown }).sources = [];
  releaseBuildMemory(out.ok ? out.value.sab.byteLength : 0);
  return out;
}

/** The task's documents into the builder, in order (a loop of its own: it runs once per build). */
function addColumns(builder: SegmentBuilder, task: BuildSegmentTask): void {
  const { ids, sources, numbers } = task;
  const n = ids.length;
  for (let i = 0; i < n; i++) builder.add({ id: ids[i], source: sources[i], seqNo: numbers[i], version: numbers[n + i], indexOrder: numbers[2 * n + i] });
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
