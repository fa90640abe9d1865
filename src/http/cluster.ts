/** `GET /_cluster/health` (ES RestClusterHealthAction) for one node: clients and tools poll it. */
import { health, type IndicesService } from '../cluster/index.js';
import { timeParam } from '../dsl/index.js';
import { IllegalArgumentError, IndexNotFoundError, previewInput } from '../errors/index.js';
import { INDICES_OPTIONS } from './params.js';
import type { RouteDef } from './rest.js';
import type { NodeInfo } from './root.js';

/** Health statuses from worst to best: waiting for `yellow` is satisfied by `green`. */
const STATUS_RANK: Record<string, number> = { red: 0, yellow: 1, green: 2 };
/** How often a waiting request looks again (index creation, deletion or a replicas change moves it). */
const WAIT_POLL_MS = 100;

export function clusterRoutes(indices: IndicesService, node: NodeInfo): RouteDef[] {
  return [
    {
      methods: ['GET'],
      paths: ['/_cluster/health', '/_cluster/health/:index'],
      authz: { action: 'cluster:monitor/health' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'level', 'local', 'master_timeout', 'timeout', 'wait_for_active_shards', 'wait_for_events', 'wait_for_no_initializing_shards', 'wait_for_no_relocating_shards', 'wait_for_nodes', 'wait_for_status'],
      handler: async (req, client) => {
        // wait_for_status waits up to `timeout` (30s) for the status; not reached, the answer is
        // ES's 408 with timed_out: true (Rally's cluster-health check and the clients read both).
        const wanted = req.query.wait_for_status;
        if (wanted !== undefined && !(wanted in STATUS_RANK)) throw new IllegalArgumentError(`unknown cluster health status [${previewInput(wanted)}]`);
        const timeoutMs = timeParam(req.query.timeout, 'timeout', 30_000).ms;
        const deadline = Date.now() + timeoutMs;
        // A named index that does not exist is red and waited for (ES counts "the indices exist"
        // among the conditions), so `/_cluster/health/<new index>` answers once it is created.
        const read = () => {
          try {
            return { h: health(indices.resolve(req.params.index)), found: true };
          } catch (e) {
            if (!(e instanceof IndexNotFoundError)) throw e;
            return { h: { ...health([]), status: 'red' as const }, found: false };
          }
        };
        let { h, found } = read();
        let timedOut = false;
        while (!found || (wanted !== undefined && STATUS_RANK[h.status] < STATUS_RANK[wanted])) {
          const left = deadline - Date.now();
          // A client that hung up reads no answer: a long `timeout` from one that keeps reconnecting
          // must not pile up waits that poll until then.
          if (left <= 0 || client.destroyed) {
            timedOut = true;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MS, left)));
          ({ h, found } = read());
        }
        return {
          status: timedOut ? 408 : 200,
          body: {
            cluster_name: node.clusterName,
            status: h.status,
            timed_out: timedOut,
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
