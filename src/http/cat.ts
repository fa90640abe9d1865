/**
 * The `_cat` APIs an operator and the capacity tooling read (ES RestIndicesAction, RestShardsAction,
 * RestSegmentsAction, RestCountAction, RestHealthAction, RestNodesAction, RestThreadPoolAction,
 * RestCatTrainedModelsAction, RestAliasAction, RestTemplatesAction, RestMasterAction): ES's column
 * names, aliases and default columns, rendered by cat-table.ts (`v`, `h`, `s`, `help`, `bytes`,
 * `time`, `format=json`).
 */
import { loadavg, freemem, totalmem } from 'node:os';
import { globMatcher } from '../common/wildcard.js';
import type { AliasProperties } from '../dsl/index.js';
import { IllegalArgumentError } from '../errors/index.js';
import {
  health, indexSums, ipOf, segmentViews, shardSums, SEARCH_POOL, NODE_ROLES,
  type IndexService, type IndexTemplateSummary, type SegmentView, type IndicesService, type MlService, type NodeIdentity, type NodeStatsService, type SearchService,
  type StatsSums, type ThreadPoolView,
} from '../cluster/index.js';
import { CAT_PARAMS, renderCat, type CatColumn } from './cat-table.js';
import { boolParam, INDICES_OPTIONS, resolveParams, wildcardStates, type Query } from './params.js';
import { ES_VERSION } from './root.js';
import type { RouteDef } from './rest.js';

/** Per-row counters shared by `_cat/indices` and `_cat/shards` (non-default columns). */
function counterColumns<R>(sums: (r: R) => StatsSums | null): CatColumn<R>[] {
  const n = (f: (s: StatsSums) => number) => (r: R) => {
    const s = sums(r);
    return s === null ? null : f(s);
  };
  return [
    { name: 'indexing.index_total', aliases: ['iito', 'indexingIndexTotal'], desc: 'number of indexing ops', kind: 'number', value: n((s) => s.indexTotal) },
    { name: 'indexing.index_time', aliases: ['iiti', 'indexingIndexTime'], desc: 'time spent in indexing', kind: 'time', value: n((s) => s.indexTimeMs) },
    { name: 'indexing.delete_total', aliases: ['idto', 'indexingDeleteTotal'], desc: 'number of delete ops', kind: 'number', value: n((s) => s.deleteTotal) },
    { name: 'indexing.delete_time', aliases: ['idti', 'indexingDeleteTime'], desc: 'time spent in deletions', kind: 'time', value: n((s) => s.deleteTimeMs) },
    { name: 'search.query_current', aliases: ['sqc', 'searchQueryCurrent'], desc: 'current query phase ops', kind: 'number', value: n((s) => s.queryCurrent) },
    { name: 'search.query_time', aliases: ['sqti', 'searchQueryTime'], desc: 'time spent in query phase', kind: 'time', value: n((s) => s.queryTimeMs) },
    { name: 'search.query_total', aliases: ['sqto', 'searchQueryTotal'], desc: 'total query phase ops', kind: 'number', value: n((s) => s.queryTotal) },
    { name: 'search.fetch_time', aliases: ['sfti', 'searchFetchTime'], desc: 'time spent in fetch phase', kind: 'time', value: n((s) => s.fetchTimeMs) },
    { name: 'search.fetch_total', aliases: ['sfto', 'searchFetchTotal'], desc: 'total fetch ops', kind: 'number', value: n((s) => s.fetchTotal) },
    { name: 'refresh.total', aliases: ['rto', 'refreshTotal'], desc: 'total refreshes', kind: 'number', value: n((s) => s.refreshTotal) },
    { name: 'refresh.time', aliases: ['rti', 'refreshTime'], desc: 'time spent in refreshes', kind: 'time', value: n((s) => s.refreshTimeMs) },
    { name: 'flush.total', aliases: ['ft', 'flushTotal'], desc: 'number of flushes', kind: 'number', value: n((s) => s.flushTotal) },
    { name: 'flush.total_time', aliases: ['ftt', 'flushTotalTime'], desc: 'time spent in flush', kind: 'time', value: n((s) => s.flushTimeMs) },
    { name: 'merges.current', aliases: ['mc', 'mergesCurrent'], desc: 'number of current merges', kind: 'number', value: n((s) => s.mergeCurrent) },
    { name: 'merges.total', aliases: ['mt', 'mergesTotal'], desc: 'number of completed merge ops', kind: 'number', value: n((s) => s.mergeTotal) },
    { name: 'merges.total_docs', aliases: ['mtd', 'mergesTotalDocs'], desc: 'docs merged', kind: 'number', value: n((s) => s.mergeDocs) },
    { name: 'merges.total_size', aliases: ['mts', 'mergesTotalSize'], desc: 'size merged', kind: 'bytes', value: n((s) => s.mergeSizeBytes) },
    { name: 'merges.total_time', aliases: ['mtt', 'mergesTotalTime'], desc: 'time spent in merges', kind: 'time', value: n((s) => s.mergeTimeMs) },
    { name: 'segments.count', aliases: ['sc', 'segmentsCount'], desc: 'number of segments', kind: 'number', value: n((s) => s.segments) },
    { name: 'segments.index_writer_memory', aliases: ['siwm', 'segmentsIndexWriterMemory'], desc: 'memory used by the indexing buffer', kind: 'bytes', value: n((s) => s.bufferBytes) },
  ];
}

interface IndexRow {
  readonly index: IndexService;
  readonly sums: StatsSums;
  readonly health: string;
}

const INDEX_COLUMNS: CatColumn<IndexRow>[] = [
  { name: 'health', aliases: ['h'], desc: 'current health status', default: true, value: (r) => r.health },
  { name: 'status', aliases: ['s'], desc: 'open/close status', default: true, value: () => 'open' },
  { name: 'index', aliases: ['i', 'idx'], desc: 'index name', default: true, value: (r) => r.index.name },
  { name: 'uuid', aliases: ['id', 'uuid'], desc: 'index uuid', default: true, value: (r) => r.index.uuid },
  { name: 'pri', aliases: ['p', 'shards.primary', 'shardsPrimary'], desc: 'number of primary shards', default: true, kind: 'number', value: (r) => r.index.shards.length },
  { name: 'rep', aliases: ['r', 'shards.replica', 'shardsReplica'], desc: 'number of replica shards', default: true, kind: 'number', value: (r) => r.index.resolvedSettings.numberOfReplicas },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], desc: 'available docs', default: true, kind: 'number', value: (r) => r.sums.docs },
  { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], desc: 'deleted docs', default: true, kind: 'number', value: (r) => r.sums.deleted },
  { name: 'creation.date', aliases: ['cd'], desc: 'index creation date (millisecond value)', kind: 'number', value: (r) => r.index.creationDate },
  { name: 'creation.date.string', aliases: ['cds'], desc: 'index creation date (as string)', value: (r) => new Date(r.index.creationDate).toISOString() },
  { name: 'store.size', aliases: ['ss', 'storeSize'], desc: 'store size of primaries & replicas', default: true, kind: 'bytes', value: (r) => r.sums.storeBytes },
  { name: 'pri.store.size', desc: 'store size of primaries', default: true, kind: 'bytes', value: (r) => r.sums.storeBytes },
  { name: 'dataset.size', desc: 'total size of dataset', default: true, kind: 'bytes', value: (r) => r.sums.storeBytes },
  ...counterColumns<IndexRow>((r) => r.sums),
];

interface ShardRow {
  readonly index: IndexService;
  readonly shard: number;
  /** null for a replica, which one node cannot assign. */
  readonly sums: StatsSums | null;
}

function shardColumns(node: NodeIdentity): CatColumn<ShardRow>[] {
  return [
    { name: 'index', aliases: ['i', 'idx'], desc: 'index name', default: true, value: (r) => r.index.name },
    { name: 'shard', aliases: ['s', 'sh'], desc: 'shard name', default: true, kind: 'number', value: (r) => r.shard },
    { name: 'prirep', aliases: ['p', 'pr', 'primaryOrReplica'], desc: 'primary or replica', default: true, value: (r) => (r.sums ? 'p' : 'r') },
    { name: 'state', aliases: ['st'], desc: 'shard state', default: true, value: (r) => (r.sums ? 'STARTED' : 'UNASSIGNED') },
    { name: 'docs', aliases: ['d', 'dc'], desc: 'number of docs in shard', default: true, kind: 'number', value: (r) => r.sums?.docs ?? null },
    { name: 'store', aliases: ['sto'], desc: 'store size of shard (how much disk it uses)', default: true, kind: 'bytes', value: (r) => r.sums?.storeBytes ?? null },
    { name: 'dataset', desc: 'total size of dataset', default: true, kind: 'bytes', value: (r) => r.sums?.storeBytes ?? null },
    { name: 'ip', desc: 'ip of node where it lives', default: true, value: (r) => (r.sums ? ipOf(node.address()) : null) },
    { name: 'id', desc: 'unique id of node where it lives', value: (r) => (r.sums ? node.id : null) },
    { name: 'node', aliases: ['n'], desc: 'name of node where it lives', default: true, value: (r) => (r.sums ? node.name : null) },
    { name: 'unassigned.reason', aliases: ['ur'], desc: 'reason shard became unassigned', value: (r) => (r.sums ? null : 'INDEX_CREATED') },
    ...counterColumns<ShardRow>((r) => r.sums),
  ];
}

interface SegmentRow {
  readonly index: IndexService;
  readonly shard: number;
  readonly segment: SegmentView;
}

function segmentColumns(node: NodeIdentity): CatColumn<SegmentRow>[] {
  return [
    { name: 'index', aliases: ['i', 'idx'], desc: 'index name', default: true, value: (r) => r.index.name },
    { name: 'shard', aliases: ['s', 'sh'], desc: 'shard name', default: true, kind: 'number', value: (r) => r.shard },
    { name: 'prirep', aliases: ['p', 'pr', 'primaryOrReplica'], desc: 'primary or replica', default: true, value: () => 'p' },
    { name: 'ip', desc: 'ip of node where it lives', default: true, value: () => ipOf(node.address()) },
    { name: 'id', desc: 'unique id of node where it lives', value: () => node.id },
    { name: 'segment', aliases: ['seg'], desc: 'segment name', default: true, value: (r) => r.segment.name },
    { name: 'generation', aliases: ['g', 'gen'], desc: 'segment generation', default: true, kind: 'number', value: (r) => r.segment.generation },
    { name: 'docs.count', aliases: ['dc', 'docsCount'], desc: 'number of docs in segment', default: true, kind: 'number', value: (r) => r.segment.numDocs },
    { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], desc: 'number of deleted docs in segment', default: true, kind: 'number', value: (r) => r.segment.deletedDocs },
    { name: 'size', aliases: ['si'], desc: 'segment size in bytes', default: true, kind: 'bytes', value: (r) => r.segment.sizeBytes },
    // Every byte of a segment is resident here (SharedArrayBuffers), unlike Lucene's mapped files.
    { name: 'size.memory', aliases: ['sm', 'sizeMemory'], desc: 'segment memory in bytes', default: true, kind: 'bytes', value: (r) => r.segment.sizeBytes },
    { name: 'committed', aliases: ['ic', 'isCommitted'], desc: 'is segment committed', default: true, value: (r) => String(r.segment.committed) },
    { name: 'searchable', aliases: ['is', 'isSearchable'], desc: 'is segment searched', default: true, value: () => 'true' },
    { name: 'version', aliases: ['v', 'ver'], desc: 'version', default: true, value: () => ES_VERSION.lucene_version },
    { name: 'compound', aliases: ['ico', 'isCompound'], desc: 'is segment compound', default: true, value: () => 'true' },
  ];
}

/** ES's one-letter role abbreviations (DiscoveryNodeRole.roleNameAbbreviation), sorted. */
const ROLE_LETTERS: Record<string, string> = { data: 'd', data_content: 's', data_hot: 'h', ingest: 'i', master: 'm', ml: 'l', remote_cluster_client: 'r', transform: 't' };

interface NodeRow {
  readonly stats: Record<string, any>;
  readonly sums: StatsSums;
}

function nodeColumns(node: NodeIdentity): CatColumn<NodeRow>[] {
  const jvm = (r: NodeRow) => r.stats.jvm.mem;
  return [
    { name: 'id', aliases: ['nodeId'], desc: 'unique node id', value: () => node.id },
    { name: 'pid', aliases: ['p'], desc: 'process id', kind: 'number', value: () => process.pid },
    { name: 'ip', aliases: ['i'], desc: 'ip address', default: true, value: () => ipOf(node.address()) },
    { name: 'port', aliases: ['po'], desc: 'bound transport port', value: () => node.address().replace(/^.*:/, '') },
    { name: 'version', aliases: ['v'], desc: 'es version', value: () => node.version },
    { name: 'heap.current', aliases: ['hc', 'heapCurrent'], desc: 'used heap', kind: 'bytes', value: (r) => jvm(r).heap_used_in_bytes },
    { name: 'heap.percent', aliases: ['hp', 'heapPercent'], desc: 'used heap ratio', default: true, kind: 'number', value: (r) => jvm(r).heap_used_percent },
    { name: 'heap.max', aliases: ['hm', 'heapMax'], desc: 'max configured heap', kind: 'bytes', value: (r) => jvm(r).heap_max_in_bytes },
    { name: 'ram.current', aliases: ['rc', 'ramCurrent'], desc: 'used machine memory', kind: 'bytes', value: () => totalmem() - freemem() },
    { name: 'ram.percent', aliases: ['rp', 'ramPercent'], desc: 'used machine memory ratio', default: true, kind: 'number', value: () => Math.round(((totalmem() - freemem()) / totalmem()) * 100) },
    { name: 'ram.max', aliases: ['rm', 'ramMax'], desc: 'total machine memory', kind: 'bytes', value: () => totalmem() },
    { name: 'rss.current', aliases: ['rss'], desc: 'resident set size of the process', kind: 'bytes', value: (r) => r.stats.process.mem.resident_in_bytes },
    { name: 'sab.current', aliases: ['sab'], desc: 'SharedArrayBuffer bytes of the indices (segments, live docs)', kind: 'bytes', value: (r) => r.stats.process.mem.shared_array_buffers_in_bytes },
    { name: 'cpu', desc: 'recent cpu usage', default: true, kind: 'number', value: (r) => r.stats.process.cpu.percent },
    { name: 'load_1m', aliases: ['l'], desc: '1m load avg', default: true, value: () => loadavg()[0].toFixed(2) },
    { name: 'load_5m', aliases: ['l'], desc: '5m load avg', default: true, value: () => loadavg()[1].toFixed(2) },
    { name: 'load_15m', aliases: ['l'], desc: '15m load avg', default: true, value: () => loadavg()[2].toFixed(2) },
    { name: 'uptime', aliases: ['u'], desc: 'node uptime', kind: 'time', value: (r) => r.stats.jvm.uptime_in_millis },
    { name: 'node.role', aliases: ['r', 'role', 'nodeRole'], desc: 'm:master eligible node, d:data node, i:ingest node, -:coordinating node only', default: true, value: () => NODE_ROLES.map((n) => ROLE_LETTERS[n] ?? '').sort().join('') },
    { name: 'master', aliases: ['m'], desc: '*:current master', default: true, value: () => '*' },
    { name: 'name', aliases: ['n'], desc: 'node name', default: true, value: () => node.name },
    ...counterColumns<NodeRow>((r) => r.sums),
  ];
}

function threadPoolColumns(node: NodeIdentity): CatColumn<ThreadPoolView>[] {
  return [
    { name: 'node_name', aliases: ['nn'], desc: 'node name', default: true, value: () => node.name },
    { name: 'node_id', aliases: ['id'], desc: 'persistent node id', value: () => node.id },
    { name: 'pid', aliases: ['p'], desc: 'process id', kind: 'number', value: () => process.pid },
    { name: 'host', aliases: ['h'], desc: 'host name', value: () => ipOf(node.address()) },
    { name: 'ip', aliases: ['i'], desc: 'ip address', value: () => ipOf(node.address()) },
    { name: 'port', aliases: ['po'], desc: 'bound transport port', value: () => node.address().replace(/^.*:/, '') },
    { name: 'name', aliases: ['n'], desc: 'thread pool name', default: true, value: (p) => p.name },
    { name: 'type', aliases: ['t'], desc: 'thread pool type', value: (p) => p.type },
    { name: 'active', aliases: ['a'], desc: 'number of active threads', default: true, kind: 'number', value: (p) => p.active },
    { name: 'pool_size', aliases: ['psz'], desc: 'number of threads', kind: 'number', value: (p) => p.threads },
    { name: 'queue', aliases: ['q'], desc: 'number of tasks currently in queue', default: true, kind: 'number', value: (p) => p.queue },
    { name: 'queue_size', aliases: ['qs'], desc: 'maximum number of tasks permitted in queue', kind: 'number', value: (p) => p.queueSize },
    { name: 'rejected', aliases: ['r'], desc: 'number of rejected tasks', default: true, kind: 'number', value: (p) => p.rejected },
    { name: 'largest', aliases: ['l'], desc: 'highest number of seen active threads', kind: 'number', value: (p) => p.largest },
    { name: 'completed', aliases: ['c'], desc: 'number of completed tasks', kind: 'number', value: (p) => p.completed },
    { name: 'core', aliases: ['cr'], desc: 'core number of threads in a scaling thread pool', value: () => null },
    { name: 'max', aliases: ['mx'], desc: 'maximum number of threads in a scaling thread pool', value: () => null },
    { name: 'size', aliases: ['sz'], desc: 'number of threads in a fixed thread pool', kind: 'number', value: (p) => p.size },
    { name: 'keep_alive', aliases: ['ka'], desc: 'thread keep alive time', value: () => null },
    { name: 'utilization', aliases: ['u'], desc: 'busy share of the threads since start, percent', kind: 'number', value: (p) => Math.round(p.utilization * 1000) / 10 },
    { name: 'run_time.avg', aliases: ['rta'], desc: 'mean task run time', kind: 'time', value: (p) => (p.runTimeMs && p.runTimeMs.count > 0 ? p.runTimeMs.mean : null) },
    { name: 'wait_time.avg', aliases: ['wta'], desc: 'mean wait for a thread', kind: 'time', value: (p) => (p.waitTimeMs && p.waitTimeMs.count > 0 ? p.waitTimeMs.mean : null) },
  ];
}

interface ModelRow {
  readonly config: Record<string, any>;
  readonly stats: Record<string, any> | undefined;
}

const MODEL_COLUMNS: CatColumn<ModelRow>[] = [
  { name: 'id', desc: 'the trained model id', default: true, value: (r) => r.config.model_id },
  { name: 'created_by', aliases: ['c', 'createdBy'], desc: 'who created the model', value: (r) => r.config.created_by },
  { name: 'heap_size', aliases: ['hs', 'modelHeapSize'], desc: 'the estimated heap size to keep the model in memory', default: true, kind: 'bytes', value: (r) => r.stats?.model_size_stats?.required_native_memory_bytes ?? r.config.model_size_bytes },
  { name: 'operations', aliases: ['o', 'modelOperations'], desc: 'the estimated number of operations to use the model', default: true, kind: 'number', value: (r) => r.config.estimated_operations },
  { name: 'license', aliases: ['l'], desc: 'The license level of the model', value: (r) => r.config.license_level },
  { name: 'create_time', aliases: ['ct'], desc: 'The time the model was created', default: true, value: (r) => new Date(r.config.create_time).toISOString() },
  { name: 'version', aliases: ['v'], desc: 'The version of Elasticsearch when the model was created', value: (r) => r.config.version },
  { name: 'description', aliases: ['d'], desc: 'The model description', value: (r) => r.config.description },
  { name: 'type', desc: 'The model type', value: (r) => r.config.model_type },
  { name: 'ingest.pipelines', aliases: ['ip', 'ingestPipelines'], desc: 'The number of pipelines referencing the model', default: true, kind: 'number', value: (r) => r.stats?.pipeline_count ?? 0 },
  { name: 'ingest.count', aliases: ['ic', 'ingestCount'], desc: 'The total number of docs processed by the model', kind: 'number', value: (r) => r.stats?.inference_stats?.inference_count ?? 0 },
  { name: 'ingest.time', aliases: ['it', 'ingestTime'], desc: 'The total time spent processing docs with this model', kind: 'time', value: (r) => r.stats?.ingest?.total?.time_in_millis ?? 0 },
  { name: 'ingest.current', aliases: ['icurr', 'ingestCurrent'], desc: 'The total documents currently being handled by the model', kind: 'number', value: (r) => r.stats?.ingest?.total?.current ?? 0 },
  { name: 'ingest.failed', aliases: ['if', 'ingestFailed'], desc: 'The total count of failed ingest attempts with this model', kind: 'number', value: (r) => r.stats?.inference_stats?.failure_count ?? 0 },
  { name: 'data_frame.id', aliases: ['dfid', 'dataFrameAnalytics'], desc: 'The data frame analytics config id that created the model (if still available)', default: true, value: () => '__none__' },
  { name: 'data_frame.create_time', aliases: ['dft', 'dataFrameAnalyticsTime'], desc: 'The time the data frame analytics config was created', value: () => null },
  { name: 'data_frame.source_index', aliases: ['dfsi', 'dataFrameAnalyticsSrcIndex'], desc: 'The source index used to train in the data frame analysis', value: () => null },
  { name: 'data_frame.analysis', aliases: ['dfa', 'dataFrameAnalyticsAnalysis'], desc: 'The analysis used by the data frame to build the model', value: () => null },
  { name: 'deployment.state', aliases: ['ds'], desc: 'state of the model\'s first deployment, if started', value: (r) => r.stats?.deployment_stats?.state ?? null },
  { name: 'deployment.allocations', aliases: ['da'], desc: 'allocations of the model\'s first deployment', kind: 'number', value: (r) => r.stats?.deployment_stats?.allocation_status?.allocation_count ?? null },
];

interface AliasRow {
  readonly alias: string;
  readonly index: string;
  readonly properties: AliasProperties;
}

/** Routing is refused on aliases here (dsl/alias-actions.ts), so its columns are always ES's `-`. */
const ALIAS_COLUMNS: CatColumn<AliasRow>[] = [
  { name: 'alias', aliases: ['a'], desc: 'alias name', default: true, value: (r) => r.alias },
  { name: 'index', aliases: ['i', 'idx'], desc: 'index alias points to', default: true, value: (r) => r.index },
  { name: 'filter', aliases: ['f', 'fi'], desc: 'filter', default: true, value: (r) => (r.properties.filter !== null ? '*' : '-') },
  { name: 'routing.index', aliases: ['ri', 'routingIndex'], desc: 'index routing', default: true, value: () => '-' },
  { name: 'routing.search', aliases: ['rs', 'routingSearch'], desc: 'search routing', default: true, value: () => '-' },
  { name: 'is_write_index', aliases: ['w', 'isWriteIndex'], desc: 'write index', default: true, value: (r) => (r.properties.isWriteIndex === null ? '-' : String(r.properties.isWriteIndex)) },
];

/** ES renders a template's lists as `[a, b]`. */
const bracketed = (list: readonly string[]) => `[${list.join(', ')}]`;

const TEMPLATE_COLUMNS: CatColumn<IndexTemplateSummary>[] = [
  { name: 'name', aliases: ['n'], desc: 'template name', default: true, value: (t) => t.name },
  { name: 'index_patterns', aliases: ['t'], desc: 'template index patterns', default: true, value: (t) => bracketed(t.indexPatterns) },
  { name: 'order', aliases: ['o', 'p'], desc: 'template application order/priority number', default: true, kind: 'number', value: (t) => t.priority ?? 0 },
  { name: 'version', aliases: ['v'], desc: 'version', default: true, kind: 'number', value: (t) => t.version },
  { name: 'composed_of', aliases: ['c'], desc: 'component templates comprising index template', default: true, value: (t) => bracketed(t.composedOf) },
];

function masterColumns(node: NodeIdentity): CatColumn<null>[] {
  return [
    { name: 'id', desc: 'node id', default: true, value: () => node.id },
    // ES prints the bound address's host name, which is its IP when bound to one.
    { name: 'host', aliases: ['h'], desc: 'host name', default: true, value: () => ipOf(node.address()) },
    { name: 'ip', desc: 'ip address', default: true, value: () => ipOf(node.address()) },
    { name: 'node', aliases: ['n'], desc: 'node name', default: true, value: () => node.name },
  ];
}

/**
 * The indices `_cat/aliases` reads: all, under ES GetAliasesRequest's default strictExpandHidden
 * (hidden ones too); `expand_wildcards` narrows them (every index here is open).
 */
function aliasTargets(indices: IndicesService, query: Query): string[] {
  const states = wildcardStates(query, { open: true, closed: true, hidden: true });
  boolParam(query, 'ignore_unavailable', false);
  boolParam(query, 'allow_no_indices', true);
  boolParam(query, 'ignore_throttled', false);
  if (!states.open) return [];
  return indices.resolve(undefined, { ignoreUnavailable: true, allowNoIndices: true, expandHidden: states.hidden }).map((i) => i.name).sort();
}

const ALIASES_GET = 'indices:admin/aliases/get';

export interface CatDeps {
  readonly indices: IndicesService;
  readonly search: SearchService;
  readonly nodeStats: NodeStatsService;
  readonly ml: MlService;
  readonly node: NodeIdentity;
}

export function catRoutes({ indices, search, nodeStats, ml, node }: CatDeps): RouteDef[] {
  // The operator's tables list hidden indices too unless asked otherwise (ES: expand_wildcards=all).
  const resolve = (req: Parameters<RouteDef['handler']>[0]) => indices.resolve(req.params.index, resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true, expandHidden: true }));
  const nodeRow = (): NodeRow => ({ stats: nodeStats.nodeStats(new Set(['jvm', 'process'])), sums: nodeStats.indicesSums() });
  const epoch = () => Math.floor(Date.now() / 1000);
  const hms = () => new Date().toISOString().slice(11, 19);
  const shardCols = shardColumns(node);
  const nodeCols = nodeColumns(node);
  const poolCols = threadPoolColumns(node);
  const segmentCols = segmentColumns(node);
  const masterCols = masterColumns(node);
  return [
    {
      methods: ['GET'],
      paths: ['/_cat/indices', '/_cat/indices/:index'],
      authz: { action: 'indices:monitor/stats' },
      params: [...CAT_PARAMS, ...INDICES_OPTIONS, 'pri', 'health', 'include_unloaded_segments'],
      handler: (req) => {
        const wanted = req.query.health;
        if (wanted !== undefined && !['green', 'yellow', 'red'].includes(wanted)) throw new IllegalArgumentError(`unknown health status [${wanted}]`);
        const rows = resolve(req)
          .map((index) => ({ index, sums: indexSums(index), health: health([index]).status }))
          .filter((r) => wanted === undefined || r.health === wanted)
          .sort((a, b) => (a.index.name < b.index.name ? -1 : 1));
        return renderCat(req, INDEX_COLUMNS, rows);
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/shards', '/_cat/shards/:index'],
      authz: { action: 'indices:monitor/stats' },
      params: [...CAT_PARAMS, ...INDICES_OPTIONS],
      handler: (req) => {
        const rows: ShardRow[] = [];
        for (const index of resolve(req).sort((a, b) => (a.name < b.name ? -1 : 1))) {
          for (const s of index.shards) {
            rows.push({ index, shard: s.shardId, sums: shardSums(s) });
            for (let r = 0; r < index.resolvedSettings.numberOfReplicas; r++) rows.push({ index, shard: s.shardId, sums: null });
          }
        }
        return renderCat(req, shardCols, rows);
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/segments', '/_cat/segments/:index'],
      authz: { action: 'indices:monitor/segments' },
      params: [...CAT_PARAMS, ...INDICES_OPTIONS],
      handler: (req) => {
        const rows: SegmentRow[] = [];
        for (const index of resolve(req).sort((a, b) => (a.name < b.name ? -1 : 1))) {
          for (const s of index.shards) for (const segment of segmentViews(s)) rows.push({ index, shard: s.shardId, segment });
        }
        return renderCat(req, segmentCols, rows);
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/count', '/_cat/count/:index'],
      authz: { action: 'indices:data/read/search' },
      params: [...CAT_PARAMS, 'ts'],
      handler: async (req) => {
        const { count } = await search.count(req.params.index, null, null, {});
        const columns: CatColumn<number>[] = [
          { name: 'epoch', aliases: ['t', 'time'], desc: 'seconds since 1970-01-01 00:00:00', default: true, kind: 'number', value: epoch },
          { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], desc: 'time in HH:MM:SS', default: true, value: hms },
          { name: 'count', aliases: ['dc', 'docs.count', 'docsCount'], desc: 'the document count', default: true, kind: 'number', value: (c) => c },
        ];
        return renderCat(req, withoutTimestamps(req.query.ts, columns), [count]);
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/health'],
      authz: { action: 'cluster:monitor/health' },
      params: [...CAT_PARAMS, 'ts'],
      handler: (req) => {
        const h = health(indices.names().map((n) => indices.get(n)!));
        const columns: CatColumn<typeof h>[] = [
          { name: 'epoch', aliases: ['t', 'time'], desc: 'seconds since 1970-01-01 00:00:00', default: true, kind: 'number', value: epoch },
          { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], desc: 'time in HH:MM:SS', default: true, value: hms },
          { name: 'cluster', aliases: ['cl'], desc: 'cluster name', default: true, value: () => node.clusterName },
          { name: 'status', aliases: ['st'], desc: 'health status', default: true, value: (x) => x.status },
          { name: 'node.total', aliases: ['nt', 'nodeTotal'], desc: 'total number of nodes', default: true, kind: 'number', value: () => 1 },
          { name: 'node.data', aliases: ['nd', 'nodeData'], desc: 'number of nodes that can store data', default: true, kind: 'number', value: () => 1 },
          { name: 'shards', aliases: ['t', 'sh', 'shards.total', 'shardsTotal'], desc: 'total number of shards', default: true, kind: 'number', value: (x) => x.activeShards },
          { name: 'pri', aliases: ['p', 'shards.primary', 'shardsPrimary'], desc: 'number of primary shards', default: true, kind: 'number', value: (x) => x.activePrimaryShards },
          { name: 'relo', aliases: ['r', 'shards.relocating', 'shardsRelocating'], desc: 'number of relocating nodes', default: true, kind: 'number', value: () => 0 },
          { name: 'init', aliases: ['i', 'shards.initializing', 'shardsInitializing'], desc: 'number of initializing nodes', default: true, kind: 'number', value: () => 0 },
          { name: 'unassign', aliases: ['u', 'shards.unassigned', 'shardsUnassigned'], desc: 'number of unassigned shards', default: true, kind: 'number', value: (x) => x.unassignedShards },
          { name: 'unassign.pri', aliases: ['up', 'shards.unassigned.primary', 'shardsUnassignedPrimary'], desc: 'number of unassigned primary shards', default: true, kind: 'number', value: () => 0 },
          { name: 'pending_tasks', aliases: ['pt', 'pendingTasks'], desc: 'number of pending tasks', default: true, kind: 'number', value: () => 0 },
          { name: 'max_task_wait_time', aliases: ['mtwt', 'maxTaskWaitTime'], desc: 'wait time of longest task pending', default: true, value: () => '-' },
          { name: 'active_shards_percent', aliases: ['asp', 'activeShardsPercent'], desc: 'active number of shards in percent', default: true, value: (x) => `${x.activeShardsPercent.toFixed(1)}%` },
        ];
        return renderCat(req, withoutTimestamps(req.query.ts, columns), [h]);
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/nodes'],
      authz: { action: 'cluster:monitor/nodes/stats' },
      params: [...CAT_PARAMS, 'full_id', 'include_unloaded_segments'],
      handler: (req) => renderCat(req, nodeCols, [nodeRow()]),
    },
    {
      methods: ['GET'],
      paths: ['/_cat/thread_pool', '/_cat/thread_pool/:thread_pool_patterns'],
      authz: { action: 'cluster:monitor/nodes/stats' },
      params: CAT_PARAMS,
      handler: (req) => {
        const patterns = req.params.thread_pool_patterns?.split(',').map((p) => globMatcher(p.trim()));
        const pools = nodeStats.threadPools().filter((p) => !patterns || patterns.some((g) => g.test(p.name)));
        // ES lists pools by name.
        pools.sort((a, b) => (a.name === SEARCH_POOL ? -1 : b.name === SEARCH_POOL ? 1 : a.name < b.name ? -1 : 1));
        return renderCat(req, poolCols, pools);
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/aliases', '/_cat/aliases/:name'],
      // Which indices and aliases the key may see is decided per row (ES narrows both lists).
      authz: { action: ALIASES_GET, perItem: true },
      params: [...CAT_PARAMS, ...INDICES_OPTIONS],
      handler: (req) => {
        const names = req.params.name === undefined ? null : req.params.name.split(',').map((n) => n.trim()).filter((n) => n !== '');
        const targets = aliasTargets(indices, req.query);
        const permission = req.authorizer?.auth.permission;
        const may = permission && !permission.allowsEveryIndex(ALIASES_GET) ? (name: string) => permission.allowsIndex(ALIASES_GET, name) : () => true;
        const rows: AliasRow[] = [];
        for (const [index, aliases] of indices.aliases.select(targets.filter(may), names === null || names.length === 0 ? null : names).found) {
          for (const [alias, properties] of aliases) if (may(alias)) rows.push({ alias, index, properties });
        }
        rows.sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
        return renderCat(req, ALIAS_COLUMNS, rows);
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/templates', '/_cat/templates/:name'],
      authz: { action: 'indices:admin/index_template/get' },
      params: CAT_PARAMS,
      handler: (req) => {
        return renderCat(req, TEMPLATE_COLUMNS, indices.templates.indexTemplateSummaries(req.params.name));
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/master'],
      authz: { action: 'cluster:monitor/state' },
      params: CAT_PARAMS,
      handler: (req) => renderCat(req, masterCols, [null]),
    },
    {
      methods: ['GET'],
      paths: ['/_cat/ml/trained_models', '/_cat/ml/trained_models/:model_id'],
      authz: { action: 'cluster:monitor/xpack/ml/inference/stats/get' },
      params: [...CAT_PARAMS, 'allow_no_match', 'from', 'size'],
      handler: (req) => {
        const configs = ml.getModels(req.params.model_id, req.query.allow_no_match !== 'false', false).trained_model_configs as Array<Record<string, any>>;
        const stats = ml.stats(req.params.model_id, true).trained_model_stats as Array<Record<string, any>>;
        const rows = configs.map((config) => ({ config, stats: stats.find((s) => s.model_id === config.model_id) }));
        return renderCat(req, MODEL_COLUMNS, rows);
      },
    },
  ];
}

/** `ts=false` leaves out the epoch and timestamp columns (ES AbstractCatAction). */
function withoutTimestamps<R>(ts: string | undefined, columns: CatColumn<R>[]): CatColumn<R>[] {
  if (ts !== 'false') return columns;
  return columns.map((c) => (c.name === 'epoch' || c.name === 'timestamp' ? { ...c, default: false } : c));
}
