/**
 * The worker-side registry of segments and live-docs bitsets announced by the coordinator, opened
 * once per worker and kept until the coordinator drops them.
 */
import { BroadcastChannel, receiveMessageOnPort, threadId } from 'node:worker_threads';
import { EsError, InternalError } from '../src/errors/index.js';
import { openSegment, type Segment } from '../src/index/index.js';
import type { InlineBuffers, SegmentChannelMessage, SegmentRef, WorkerReply } from './protocol.js';
import { collectDropped, releaseDropped, releaseIdleMemory } from './release-memory.js';
import { SEGMENT_CHANNEL, WORKER_MEMORY_CHANNEL, heapPools, type WorkerMemory } from './protocol.js';

const channel = new BroadcastChannel(SEGMENT_CHANNEL);
const memoryChannel = new BroadcastChannel(WORKER_MEMORY_CHANNEL);
// Never keep the worker alive for the channels' sake. Messages are drained synchronously at the
// start of each task (so a task sees every announcement made before it was posted) and, between
// tasks, as they arrive: the pool parks workers with async atomics, so an idle worker still runs
// its event loop and lets go of dropped segments at once instead of pinning them (and the memory
// of every segment a merge replaced) until its next task.
channel.onmessage = (e: { data: unknown }) => apply(e.data as SegmentChannelMessage);
(channel as unknown as { unref(): void }).unref();
(memoryChannel as unknown as { unref(): void }).unref();

const buffers = new Map<string, SharedArrayBuffer>();
const segments = new Map<string, Segment>();
const liveDocs = new Map<string, Uint32Array>();

function apply(msg: SegmentChannelMessage): void {
  if (msg.op === 'add') buffers.set(msg.id, msg.sab);
  else if (msg.op === 'drop') {
    releaseDropped(buffers.get(msg.id)?.byteLength ?? 0);
    buffers.delete(msg.id);
    segments.delete(msg.id);
    liveDocs.delete(msg.id);
  } else {
    // After its idle collection a worker reports too: the coordinator trims the malloc heap once
    // every worker's GC has freed what it held (cluster/malloc-trim.ts).
    if (msg.op === 'gc') releaseIdleMemory();
    const m = process.memoryUsage();
    const report: WorkerMemory = { threadId, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, pools: heapPools(), after: msg.op };
    memoryChannel.postMessage(report);
  }
}

function drain(): void {
  for (;;) {
    const m = receiveMessageOnPort(channel as never) as { message: SegmentChannelMessage } | undefined;
    if (!m) return;
    apply(m.message);
  }
}

/**
 * During a long task (a build): applies the announcements and drops posted since it started, and
 * collects at once if segments were dropped (release-memory.ts `collectDropped`).
 */
export function pollDrops(): void {
  drain();
  collectDropped();
}

export interface ResolvedShard {
  readonly segments: Segment[];
  readonly liveDocs: Array<Uint32Array | null>;
}

/** Resolves segment refs to opened segments, or lists the ids this worker does not have. */
export function resolveRefs(refs: readonly SegmentRef[], inline: InlineBuffers | undefined): ResolvedShard | { missing: string[] } {
  drain();
  if (inline) for (const [id, sab] of Object.entries(inline)) buffers.set(id, sab);
  const missing: string[] = [];
  const out: ResolvedShard = { segments: [], liveDocs: [] };
  for (const ref of refs) {
    let seg = segments.get(ref.segment);
    if (!seg) {
      const sab = buffers.get(ref.segment);
      if (sab) segments.set(ref.segment, (seg = openSegment(ref.segment, sab)));
      else missing.push(ref.segment);
    }
    let live: Uint32Array | null = null;
    if (ref.liveDocs !== null) {
      live = liveDocs.get(ref.liveDocs) ?? null;
      if (!live) {
        const sab = buffers.get(ref.liveDocs);
        if (sab) liveDocs.set(ref.liveDocs, (live = new Uint32Array(sab)));
        else missing.push(ref.liveDocs);
      }
    }
    if (seg) {
      out.segments.push(seg);
      out.liveDocs.push(live);
    }
  }
  return missing.length > 0 ? { missing } : out;
}

/** Runs a task body, turning failures into plain-data errors the coordinator rebuilds. */
export function reply<T>(body: () => T | { missing: string[] }): WorkerReply<T> {
  try {
    const v = body();
    if (v !== null && typeof v === 'object' && 'missing' in (v as object)) return { ok: false, missing: (v as { missing: string[] }).missing };
    return { ok: true, value: v as T };
  } catch (e) {
    const err = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
    return { ok: false, error: err.toPlain() };
  }
}
