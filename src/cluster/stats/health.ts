/**
 * Cluster health over some indices (ES ClusterHealthResponse) for one node: replicas cannot be
 * assigned, so an index with replicas is yellow; an index that lost data at recovery is red.
 * Shared by `_cluster/health`, `_cat/health`, `_cat/indices` and `_cluster/stats`.
 */
import type { IndexService } from '../indices/index-service.js';

export type HealthStatus = 'green' | 'yellow' | 'red';

export interface Health {
  readonly status: HealthStatus;
  readonly activePrimaryShards: number;
  readonly activeShards: number;
  readonly unassignedShards: number;
  readonly activeShardsPercent: number;
}

export function health(indices: readonly IndexService[]): Health {
  let primaries = 0;
  let unassigned = 0;
  // An index that lost data at recovery (damaged files) is red: it serves what was intact.
  const damaged = indices.some((i) => i.recoveredWithLoss);
  for (const i of indices) {
    primaries += i.shards.length;
    // A single node cannot hold replicas: they stay unassigned, which makes the index yellow.
    unassigned += i.shards.length * i.resolvedSettings.numberOfReplicas;
  }
  const total = primaries + unassigned;
  return {
    status: damaged ? 'red' : unassigned > 0 ? 'yellow' : 'green',
    activePrimaryShards: primaries,
    activeShards: primaries,
    unassignedShards: unassigned,
    activeShardsPercent: total === 0 ? 100 : (primaries / total) * 100,
  };
}
