/** `GET /_cluster/health` (ES RestClusterHealthAction) for one node: clients and tools poll it. */
import type { IndicesService } from '../cluster/index.js';
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
        const targets = indices.resolve(req.params.index);
        let primaries = 0;
        let unassigned = 0;
        // An index that lost data at recovery (damaged files) is red: it serves what was intact.
        const damaged = targets.some((i) => i.recoveredWithLoss);
        for (const i of targets) {
          primaries += i.shards.length;
          // A single node cannot hold replicas: they stay unassigned, which makes the index yellow.
          unassigned += i.shards.length * i.resolvedSettings.numberOfReplicas;
        }
        const total = primaries + unassigned;
        return {
          body: {
            cluster_name: node.clusterName,
            status: damaged ? 'red' : unassigned > 0 ? 'yellow' : 'green',
            timed_out: false,
            number_of_nodes: 1,
            number_of_data_nodes: 1,
            active_primary_shards: primaries,
            active_shards: primaries,
            relocating_shards: 0,
            initializing_shards: 0,
            unassigned_shards: unassigned,
            unassigned_primary_shards: 0,
            delayed_unassigned_shards: 0,
            number_of_pending_tasks: 0,
            number_of_in_flight_fetch: 0,
            task_max_waiting_in_queue_millis: 0,
            active_shards_percent_as_number: total === 0 ? 100 : (primaries / total) * 100,
          },
        };
      },
    },
  ];
}
