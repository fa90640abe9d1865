/** `GET /_cluster/health` (ES RestClusterHealthAction) for one node: clients and tools poll it. */
import { health, type IndicesService } from '../cluster/index.js';
import { INDICES_OPTIONS } from './params.js';
import type { RouteDef } from './rest.js';
import type { NodeInfo } from './root.js';

export function clusterRoutes(indices: IndicesService, node: NodeInfo): RouteDef[] {
  return [
    {
      methods: ['GET'],
      paths: ['/_cluster/health', '/_cluster/health/:index'],
      authz: { action: 'cluster:monitor/health' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'level', 'local', 'master_timeout', 'timeout', 'wait_for_active_shards', 'wait_for_events', 'wait_for_no_initializing_shards', 'wait_for_no_relocating_shards', 'wait_for_nodes', 'wait_for_status'],
      handler: (req) => {
        const h = health(indices.resolve(req.params.index));
        return {
          body: {
            cluster_name: node.clusterName,
            status: h.status,
            timed_out: false,
            number_of_nodes: 1,
            number_of_data_nodes: 1,
            active_primary_shards: h.activePrimaryShards,
            active_shards: h.activeShards,
            relocating_shards: 0,
            initializing_shards: 0,
            unassigned_shards: h.unassignedShards,
            unassigned_primary_shards: 0,
            delayed_unassigned_shards: 0,
            number_of_pending_tasks: 0,
            number_of_in_flight_fetch: 0,
            task_max_waiting_in_queue_millis: 0,
            active_shards_percent_as_number: h.activeShardsPercent,
          },
        };
      },
    },
  ];
}
