/**
 * The extrapolation of a capacity run to other machines and data sizes — an ESTIMATE from a
 * documented model over the measured points, never a measurement:
 *
 * - cores: throughput(c) = throughput(1 thread) · c^α, with α = log2(throughput(2 threads) /
 *   throughput(1 thread)) measured here at the same shard count (α = 1 is linear scaling; clamped
 *   to [0, 1]); without both points, or when other processes left no second core free during the
 *   2-thread run, α = 1 (optimistic, and said so);
 * - documents: a request's time is a + b · docs — a fixed part (HTTP, parsing, the fetch of ten
 *   hits) and a part that grows with the postings read, which for a fixed vocabulary grow with the
 *   documents — fitted to the same configuration measured at N and at N/10 documents (b clamped at
 *   0 when noise makes the smaller index look slower), so throughput(D) = throughput(N) ·
 *   (a + b·N) / (a + b·D);
 * - memory: resident memory = the server's base + D · (RSS growth over the load / N), the measured
 *   bytes per document (postings, stored fields, doc values — all in SharedArrayBuffers);
 * - scatter: each extra shard adds the measured p50 difference per shard at the lowest offered load.
 */
import type { SearchPoint } from './search-sweep.js';

export interface Extrapolation {
  label: string;
  model: string[];
  alpha: number;
  alpha_from: string;
  qps_one_thread: number;
  bytes_per_doc: number;
  base_rss_bytes: number;
  scatter_ms_per_shard: number | null;
  /** Per-request time = fixed_ms + per_million_docs_ms · docs / 1e6 (fitted). */
  fixed_ms: number;
  per_million_docs_ms: number;
  /** The measured points the model rests on. */
  points: Array<{ threads: number; shards: number; docs: number; max_qps: number; rss_growth_bytes: number }>;
  estimates: Array<{ cores: number; docs: number; est_max_qps: number; est_memory_gb: number }>;
  /** Cores the target needs at `docs`, by the model (null when over 256). */
  cores_needed: Array<{ docs: number; cores: number | null }>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)];
}

export function extrapolate(
  points: readonly SearchPoint[], sizePoint: SearchPoint, targetQps: number, headroom: number, docsList: readonly number[], coresList: readonly number[], cpus: number,
): Extrapolation {
  const byShard = (s: number, t: number) => points.find((p) => p.shards === s && p.threads === t);
  const shards = [...new Set(points.map((p) => p.shards))].sort((a, b) => a - b);
  let alpha = 1;
  let alphaFrom = 'no 1- and 2-thread pair at the same shard count: linear scaling assumed (optimistic)';
  for (const s of shards) {
    const one = byShard(s, 1);
    const two = byShard(s, 2);
    if (one && two && one.max.throughput_rps > 0) {
      // A second thread can only show its worth with a second free core: when other processes left
      // less than ~1.5 cores during the 2-thread run, the pair says nothing about scaling.
      const free = cpus - two.otherCores;
      if (!(free >= 1.5)) {
        alphaFrom = `not measurable here: other processes used ${two.otherCores.toFixed(2)} of ${cpus} cores during the 2-thread run (${s} shard(s)), so linear scaling is assumed (optimistic)`;
        break;
      }
      alpha = Math.min(1, Math.max(0, Math.log2(two.max.throughput_rps / one.max.throughput_rps)));
      alphaFrom = `${s} shard(s): ${Math.round(one.max.throughput_rps)}/s at 1 thread, ${Math.round(two.max.throughput_rps)}/s at 2 threads`;
      break;
    }
  }
  const alphaShards = shards.find((s) => byShard(s, 1) && byShard(s, 2)) ?? shards[0];
  const one = byShard(alphaShards, 1);
  const qps1 = one ? one.max.throughput_rps : Math.max(...points.map((p) => p.max.throughput_rps / p.threads ** alpha));
  const n = points[0]?.docs ?? 0;
  // The size fit: the same configuration at N (the sweep) and at sizePoint.docs.
  const atN = points.find((p) => p.threads === sizePoint.threads && p.shards === sizePoint.shards) ?? points[0];
  const tN = 1000 / atN.max.throughput_rps;
  const tn = 1000 / sizePoint.max.throughput_rps;
  const b = atN.docs > sizePoint.docs ? Math.max(0, (tN - tn) / (atN.docs - sizePoint.docs)) : 0;
  const a = Math.max(1e-6, tN - b * atN.docs);
  const bytesPerDoc = median(points.map((p) => p.rss_growth_bytes / p.docs));
  const baseRss = median(points.map((p) => p.rss_after_load_bytes - p.rss_growth_bytes));
  let scatter: number | null = null;
  const t = points.find((p) => shards.length > 1 && byShard(shards[0], p.threads) && byShard(shards[shards.length - 1], p.threads))?.threads;
  if (t !== undefined) {
    const a = byShard(shards[0], t)!;
    const b = byShard(shards[shards.length - 1], t)!;
    scatter = (b.offered[0].latency_ms.p50 - a.offered[0].latency_ms.p50) / (b.shards - a.shards);
  }
  const est = (cores: number, docs: number) => (qps1 * cores ** alpha * (a + b * n)) / (a + b * docs);
  const estimates = docsList.flatMap((docs) => coresList.map((cores) => ({
    cores, docs, est_max_qps: est(cores, docs), est_memory_gb: (baseRss + docs * bytesPerDoc) / 2 ** 30,
  })));
  const cores_needed = docsList.map((docs) => {
    for (let c = 1; c <= 256; c *= 2) if (est(c, docs) >= targetQps * (1 + headroom)) return { docs, cores: c };
    return { docs, cores: null };
  });
  return {
    label: 'ESTIMATE (extrapolated by the model below from the measured points; not measured)',
    model: [
      `throughput(cores, docs) = ${Math.round(qps1)}/s (1 thread, ${one ? one.shards : '–'} shard(s), ${n} docs) × cores^${alpha.toFixed(2)} × (a + b·${n}) / (a + b·docs)`,
      `α = ${alpha.toFixed(2)} from ${alphaFrom}`,
      `a = ${a.toFixed(2)} ms per request (fixed), b = ${(b * 1e6).toFixed(2)} ms per million documents, from ${atN.threads} thr × ${atN.shards} sh at ${atN.docs} docs (${Math.round(atN.max.throughput_rps)}/s) and ${sizePoint.docs} docs (${Math.round(sizePoint.max.throughput_rps)}/s)${b === 0 ? ' — the smaller index was not faster, so documents are taken not to matter (optimistic)' : ''}`,
      `memory(docs) = ${(baseRss / 2 ** 20).toFixed(0)} MB base + docs × ${Math.round(bytesPerDoc)} B (median RSS growth per loaded document)`,
      scatter === null ? 'scatter cost per shard: not measured (one shard count)' : `scatter: ${scatter.toFixed(2)} ms of p50 per extra shard (lowest offered load)`,
    ],
    alpha, alpha_from: alphaFrom, qps_one_thread: qps1, bytes_per_doc: bytesPerDoc, base_rss_bytes: baseRss, scatter_ms_per_shard: scatter,
    fixed_ms: a, per_million_docs_ms: b * 1e6,
    points: [...points, sizePoint].map((p) => ({ threads: p.threads, shards: p.shards, docs: p.docs, max_qps: p.max.throughput_rps, rss_growth_bytes: p.rss_growth_bytes })),
    estimates, cores_needed,
  };
}
