/**
 * The operator's JSON views (ES RestNodesStatsAction, RestNodesInfoAction, RestIndicesStatsAction,
 * RestClusterStatsAction, RestIndicesSegmentsAction): `GET /_nodes/stats`, `/_nodes`, `/_stats`,
 * `/{index}/_stats`, `/_cluster/stats` and `/{index}/_segments`, with their metric filters and the
 * node-id filter of a one-node cluster.
 */
import { IllegalArgumentError } from '../errors/index.js';
import {
  health, INDEX_STATS_METRICS, indexSums, renderCommonStats, segmentViews, shardSums, emptySums,
  type IndexService, type IndexShard, type IndexStatsMetric, type IndicesService, type NodeStatsService, type NodeIdentity,
} from '../cluster/index.js';
import { humanBytes } from './cat-table.js';
import { INDICES_OPTIONS, resolveParams } from './params.js';
import { ES_VERSION } from './root.js';
import type { RestRequest, RouteDef } from './rest.js';

/** Every metric ES's `_stats` knows; the ones this server keeps are INDEX_STATS_METRICS. */
const ES_INDEX_METRICS = new Set([
  '_all', 'store', 'indexing', 'get', 'search', 'merge', 'flush', 'refresh', 'query_cache', 'fielddata', 'docs', 'warmer',
  'completion', 'segments', 'translog', 'request_cache', 'recovery', 'bulk', 'shard_stats', 'mappings', 'dense_vector', 'sparse_vector',
]);

/** Every metric ES's `_nodes/stats` knows, plus `ml` (this server's model deployments). */
const NODE_METRICS = new Set([
  '_all', 'breaker', 'fs', 'http', 'indices', 'jvm', 'os', 'process', 'thread_pool', 'transport', 'discovery', 'ingest',
  'adaptive_selection', 'script', 'script_cache', 'indexing_pressure', 'repositories', 'allocations', 'ml',
]);

/** The sections `GET /_nodes/<metrics>` selects (ES NodesInfoMetrics); the node's identity is always there. */
const NODE_INFO_METRICS = new Set([
  '_all', 'settings', 'os', 'process', 'jvm', 'thread_pool', 'transport', 'http', 'remote_cluster_server', 'plugins', 'ingest', 'aggregations', 'indices',
]);

/** `info` with only the asked metric sections (all of them for null). */
function nodeInfoSections(info: Record<string, unknown>, metrics: Set<string> | null): Record<string, unknown> {
  if (metrics === null) return info;
  return Object.fromEntries(Object.entries(info).filter(([k]) => !NODE_INFO_METRICS.has(k) || metrics.has(k)));
}

/** A comma list of metrics, checked as ES's RestActions do ("contains unrecognized metric"). */
function metricsParam(req: RestRequest, known: ReadonlySet<string>): Set<string> | null {
  const raw = req.params.metric;
  if (raw === undefined) return null;
  const list = raw.split(',').map((m) => m.trim()).filter((m) => m !== '');
  const unknown = list.filter((m) => !known.has(m));
  if (unknown.length > 0) {
    throw new IllegalArgumentError(`request [${req.path}] contains unrecognized metric${unknown.length > 1 ? 's' : ''}: [${unknown.join(', ')}]`);
  }
  if (list.includes('_all')) {
    if (list.length > 1) throw new IllegalArgumentError(`request [${req.path}] contains _all and individual metrics [${raw}]`);
    return null;
  }
  return new Set(list);
}

/** A broadcast response's `_shards`: every copy counts in `total`; one node holds the primaries only. */
function broadcastShards(targets: readonly IndexService[]) {
  let total = 0;
  let successful = 0;
  for (const index of targets) {
    successful += index.shards.length;
    total += index.shards.length * (1 + index.resolvedSettings.numberOfReplicas);
  }
  return { total, successful, failed: 0 };
}

/** One shard's copy in `_segments` (ES IndicesSegmentResponse). */
function shardSegmentsBody(shard: IndexShard, nodeId: string, human: boolean) {
  const views = segmentViews(shard);
  return {
    routing: { state: 'STARTED', primary: true, node: nodeId },
    num_committed_segments: views.filter((v) => v.committed).length,
    num_search_segments: views.length,
    segments: Object.fromEntries(views.map((v) => [v.name, {
      generation: v.generation,
      num_docs: v.numDocs,
      deleted_docs: v.deletedDocs,
      ...(human ? { size: humanBytes(v.sizeBytes) } : {}),
      size_in_bytes: v.sizeBytes,
      committed: v.committed,
      search: true,
      version: ES_VERSION.lucene_version,
      // A segment is one file holding every section, as a Lucene compound file does.
      compound: true,
    }])),
  };
}

/** Whether the one node matches a `node_id` filter (ids, names, `_local`, `_all`, `_master`, wildcards, roles). */
function selectsNode(filter: string | undefined, node: NodeIdentity): boolean {
  if (filter === undefined) return true;
  return filter.split(',').some((f) => {
    const t = f.trim();
    if (t === '_all' || t === '_local' || t === '_master' || t === '*' || t === node.id || t === node.name) return true;
    if (/^(master|data|ingest|ml)(:true)?$/.test(t)) return true;
    if (t.endsWith('*')) return node.id.startsWith(t.slice(0, -1)) || node.name.startsWith(t.slice(0, -1));
    return false;
  });
}

function nodesHeader(selected: boolean) {
  return { total: selected ? 1 : 0, successful: selected ? 1 : 0, failed: 0 };
}

export function statsRoutes(indices: IndicesService, nodeStats: NodeStatsService, node: NodeIdentity): RouteDef[] {
  const indexMetrics = (set: Set<string> | null): IndexStatsMetric[] => (set === null ? [...INDEX_STATS_METRICS] : INDEX_STATS_METRICS.filter((m) => set.has(m)));
  return [
    {
      methods: ['GET'],
      paths: ['/_nodes/stats', '/_nodes/stats/:metric', '/_nodes/:node_id/stats', '/_nodes/:node_id/stats/:metric'],
      authz: { action: 'cluster:monitor/nodes/stats' },
      params: ['timeout', 'level', 'types', 'completion_fields', 'fielddata_fields', 'fields', 'groups', 'include_segment_file_sizes', 'include_unloaded_segments'],
      handler: async (req) => {
        const metrics = metricsParam(req, NODE_METRICS);
        const selected = selectsNode(req.params.node_id, node);
        if (selected && (metrics === null || metrics.has('process') || metrics.has('jvm'))) await nodeStats.sampleWorkerMemory();
        return {
          body: {
            _nodes: nodesHeader(selected),
            cluster_name: node.clusterName,
            nodes: selected ? { [node.id]: nodeStats.nodeStats(metrics) } : {},
          },
        };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_nodes', '/_nodes/:node_id', '/_nodes/:node_id/:metric'],
      authz: { action: 'cluster:monitor/nodes/info' },
      params: ['timeout', 'flat_settings'],
      handler: (req) => {
        // ES RestNodesInfoAction: one path segment made only of info metrics is metrics for every
        // node (`/_nodes/jvm,os`), anything else node ids (`/_nodes/_local`).
        let nodeIds: string | undefined = req.params.node_id;
        let metrics: Set<string> | null;
        if (req.params.metric !== undefined) {
          metrics = metricsParam(req, NODE_INFO_METRICS);
        } else {
          const segment = (nodeIds ?? '').split(',').map((m) => m.trim());
          const onlyMetrics = nodeIds !== undefined && segment.every((m) => NODE_INFO_METRICS.has(m));
          metrics = onlyMetrics && !segment.includes('_all') ? new Set(segment) : null;
          if (onlyMetrics) nodeIds = undefined;
        }
        const selected = selectsNode(nodeIds, node);
        return { body: { _nodes: nodesHeader(selected), cluster_name: node.clusterName, nodes: selected ? { [node.id]: nodeInfoSections(nodeStats.nodeInfo(), metrics) } : {} } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cluster/stats', '/_cluster/stats/nodes/:node_id'],
      authz: { action: 'cluster:monitor/stats' },
      params: ['timeout', 'include_remotes'],
      handler: () => ({ body: nodeStats.clusterStats() }),
    },
    {
      methods: ['GET'],
      paths: ['/_segments', '/:index/_segments'],
      authz: { action: 'indices:monitor/segments' },
      params: [...INDICES_OPTIONS, 'verbose', 'include_unloaded_segments'],
      handler: (req) => {
        const targets = indices.resolve(req.params.index, resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }));
        const human = req.query.human === 'true';
        const perIndex: Record<string, unknown> = {};
        for (const index of targets) {
          perIndex[index.name] = { shards: Object.fromEntries(index.shards.map((s) => [String(s.shardId), [shardSegmentsBody(s, node.id, human)]])) };
        }
        return { body: { _shards: broadcastShards(targets), indices: perIndex } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_stats', '/_stats/:metric', '/:index/_stats', '/:index/_stats/:metric'],
      authz: { action: 'indices:monitor/stats' },
      params: [...INDICES_OPTIONS, 'level', 'completion_fields', 'fielddata_fields', 'fields', 'groups', 'include_segment_file_sizes', 'include_unloaded_segments', 'forbid_closed_indices'],
      handler: (req) => {
        const metrics = indexMetrics(metricsParam(req, ES_INDEX_METRICS));
        const level = req.query.level ?? 'indices';
        if (level !== 'cluster' && level !== 'indices' && level !== 'shards') {
          throw new IllegalArgumentError(`level parameter must be one of [cluster] or [indices] or [shards] but was [${level}]`);
        }
        const targets = indices.resolve(req.params.index, resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }));
        const all = emptySums();
        const perIndex: Record<string, unknown> = {};
        for (const index of targets) {
          const sums = indexSums(index);
          indexSums(index, all);
          // One node holds primaries only: `total` (all copies) equals `primaries`.
          const rendered = renderCommonStats(sums, metrics);
          perIndex[index.name] = {
            uuid: index.uuid, health: health([index]).status, status: 'open', primaries: rendered, total: rendered,
            ...(level === 'shards' ? {
              shards: Object.fromEntries(index.shards.map((s) => [String(s.shardId), [{
                routing: { state: 'STARTED', primary: true, node: node.id, relocating_node: null },
                ...renderCommonStats(shardSums(s), metrics),
                search_idle: s.isSearchIdle(index.resolvedSettings.searchIdleAfterMs),
                search_idle_time: Math.floor(s.searchIdleTimeMs()),
              }]])),
            } : {}),
          };
        }
        const allRendered = renderCommonStats(all, metrics);
        return {
          body: {
            _shards: broadcastShards(targets),
            _all: { primaries: allRendered, total: allRendered },
            ...(level === 'cluster' ? {} : { indices: perIndex }),
          },
        };
      },
    },
  ];
}
