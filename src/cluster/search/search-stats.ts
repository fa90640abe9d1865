/**
 * Search counters of the shards a search touches (ES SearchStats: query_total/time/current,
 * fetch_total/time). Called once per phase with the phase's targets; each shard's counters are
 * plain fields of its ShardStats, so counting costs a few additions per shard and no allocation.
 * A shard's query time is the phase's wall time from scatter to the last shard's answer (shards run
 * in parallel, as ES's per-shard timers overlap too).
 */
import type { ShardStats } from '../indices/shard-stats.js';

/** The part of a search target (search-phase.ts ShardTarget) the counters need; structural, so search-phase may import this file. */
interface ShardTarget {
  readonly index: { readonly shards: ReadonlyArray<{ readonly stats: ShardStats }> };
  readonly shardId: number;
}

function statsOf(t: ShardTarget): ShardStats {
  return t.index.shards[t.shardId].stats;
}

export function queryPhaseStarted(targets: readonly ShardTarget[]): number {
  for (let i = 0; i < targets.length; i++) statsOf(targets[i]).queryCurrent++;
  return performance.now();
}

export function queryPhaseEnded(targets: readonly ShardTarget[], started: number): void {
  const ms = performance.now() - started;
  for (let i = 0; i < targets.length; i++) {
    const s = statsOf(targets[i]);
    s.queryCurrent--;
    s.queryTotal++;
    s.queryTimeMs += ms;
  }
}

/** Round marks: a shard with several hits on the page counts one fetch, without a set per request. */
let fetchRound = 0;

/** One fetch on one shard, taking `ms` (a single-shard page: no target function to allocate per search). */
export function fetchPhaseEndedOn(target: ShardTarget, ms: number): void {
  countFetch(target, ++fetchRound, ms);
}

/** One fetch per shard with a hit on the page (`targetAt(i)`: the i-th hit's target), taking `ms`. */
export function fetchPhaseEnded(count: number, targetAt: (i: number) => ShardTarget, ms: number): void {
  const round = ++fetchRound;
  for (let i = 0; i < count; i++) countFetch(targetAt(i), round, ms);
}

function countFetch(target: ShardTarget, round: number, ms: number): void {
  const s = statsOf(target);
  if (s.fetchRound === round) return;
  s.fetchRound = round;
  s.fetchTotal++;
  s.fetchTimeMs += ms;
}
