/**
 * Index settings: accepted in nested (`{"index": {"number_of_shards": 1}}`), short
 * (`{"number_of_shards": 1}`) or flat dotted (`{"index.mapping.total_fields.limit": 2000}`) form,
 * numbers or strings; stored flat as strings under `index.*` (ES renders every value as a string);
 * validated with ES's messages; defaults filled once into `ResolvedIndexSettings`.
 */
import { IllegalArgumentError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { parseTimeValue } from '../common/time-value.js';
import { parseByteSize } from '../common/byte-size.js';
import { DEFAULT_MAX_REGEX_LENGTH } from '../common/pattern/index.js';
import type { IndexCodec } from './segment/source-codec.js';

/** A setting's value: a string, or a list (ES Settings lists, e.g. `index.analysis.filter.f.synonyms`). */
export type SettingValue = string | readonly string[];
export type FlatSettings = ReadonlyMap<string, SettingValue>;

/** A scalar setting's value (lists are only accepted under `index.analysis.`). */
export function settingString(flat: FlatSettings, key: string): string | undefined {
  const v = flat.get(key);
  return v === undefined || typeof v === 'string' ? v : v.join(',');
}

export interface ResolvedIndexSettings {
  /** `index.codec`: how stored `_source` is compressed (source-codec.ts). */
  readonly codec: IndexCodec;
  readonly numberOfShards: number;
  readonly numberOfReplicas: number;
  readonly routingNumShards: number | null;
  /** Milliseconds; -1 = periodic refresh disabled. */
  readonly refreshIntervalMs: number;
  /** Whether `index.refresh_interval` is set on the index (ES's isExplicitRefresh): then a search-idle shard still refreshes on schedule. */
  readonly explicitRefresh: boolean;
  /** `index.search.idle.after` in ms: a shard no search has read for this long skips its scheduled refreshes. */
  readonly searchIdleAfterMs: number;
  readonly totalFieldsLimit: number;
  readonly ignoreDynamicBeyondLimit: boolean;
  readonly depthLimit: number;
  readonly maxResultWindow: number;
  /** `index.max_inner_result_window`: the largest `from + size` of a `top_hits` aggregation (ES default 100). */
  readonly maxInnerResultWindow: number;
  /** `index.top_metrics_max_size`: the largest `size` of a `top_metrics` aggregation (ES default 10). */
  readonly topMetricsMaxSize: number;
  /** `index.max_rescore_window`: the largest rescore `window_size`; ES defaults it to `index.max_result_window`. */
  readonly maxRescoreWindow: number;
  /** `index.max_slices_per_scroll`: the largest `slice.max` of a scroll (ES default 1024). */
  readonly maxSlicesPerScroll: number;
  /** `index.max_regex_length`: the longest regexp a query may use. */
  readonly maxRegexLength: number;
  readonly defaultFields: readonly string[];
  readonly translogDurability: 'request' | 'async';
  readonly translogSyncIntervalMs: number;
  readonly translogFlushThresholdBytes: number;
  /** The slow logs' thresholds (ms, -1 = off) and source limits; null members: every threshold off. */
  readonly slowLog: SlowLogSettings;
}

/** ES SearchSlowLog/IndexingSlowLog thresholds in ms; -1 disables a level. */
export interface SlowLogThresholds {
  readonly warn: number;
  readonly info: number;
  readonly debug: number;
  readonly trace: number;
}

export interface SlowLogSettings {
  readonly query: SlowLogThresholds | null;
  readonly fetch: SlowLogThresholds | null;
  readonly index: SlowLogThresholds | null;
  /** Characters of the search source a line shows (`index.search.slowlog.source`; 0: none). */
  readonly searchSourceChars: number;
  /** Characters of the document source a line shows (`index.indexing.slowlog.source`, ES default 1000). */
  readonly indexingSourceChars: number;
  /** `index.indexing.slowlog.reformat`: the source as one line of compact JSON rather than as sent. */
  readonly indexingReformat: boolean;
}

export const SLOWLOG_LEVELS = ['warn', 'info', 'debug', 'trace'] as const;
const SLOWLOG_PHASES = { query: 'index.search.slowlog.threshold.query', fetch: 'index.search.slowlog.threshold.fetch', index: 'index.indexing.slowlog.threshold.index' } as const;

interface SettingDef {
  /** Can PUT _settings change it on an open index? */
  readonly dynamic: boolean;
  readonly validate: (value: string, key: string) => void;
}

function intSetting(min: number, max = 2147483647): SettingDef['validate'] {
  return (v, key) => {
    if (!/^-?\d+$/.test(v.trim())) throw new IllegalArgumentError(`Failed to parse value [${v}] for setting [${key}]`);
    const n = Number(v);
    if (n < min) throw new IllegalArgumentError(`Failed to parse value [${v}] for setting [${key}] must be >= ${min}`);
    if (n > max) throw new IllegalArgumentError(`Failed to parse value [${v}] for setting [${key}] must be <= ${max}`);
  };
}
const boolSetting: SettingDef['validate'] = (v, key) => {
  if (v !== 'true' && v !== 'false') throw new IllegalArgumentError(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
};
const timeSetting: SettingDef['validate'] = (v, key) => {
  try {
    parseTimeValue(v, key);
  } catch (e) {
    throw new IllegalArgumentError((e as Error).message);
  }
};
/** A time setting with a lower bound (ES Setting.timeSetting with minValue). */
function minTimeSetting(minMs: number, minRep: string): SettingDef['validate'] {
  return (v, key) => {
    timeSetting(v, key);
    if (parseTimeValue(v, key) < minMs) throw new IllegalArgumentError(`failed to parse value [${v}] for setting [${key}], must be >= [${minRep}]`);
  };
}
const anyString: SettingDef['validate'] = () => {};
/** ES's codec names (CodecService); the legacy and lucene_ ones are aliases here. */
const CODEC_NAMES: Readonly<Record<string, IndexCodec>> = {
  default: 'default', best_compression: 'best_compression', lucene_default: 'default', legacy_default: 'default', legacy_best_compression: 'best_compression',
};
const codecSetting: SettingDef['validate'] = (v) => {
  if (!Object.hasOwn(CODEC_NAMES, v)) {
    throw new IllegalArgumentError(`unknown value for [index.codec] must be one of [${Object.keys(CODEC_NAMES).join(', ')}] but was: ${v.slice(0, 64)}`);
  }
};
/**
 * ES's `index.*.slowlog.source`: a number of characters, else a boolean (true: all, false: none);
 * anything else fails as ES's Booleans.parseBoolean does.
 */
const sourceCharsSetting: SettingDef['validate'] = (v, key) => {
  if (/^-?\d+$/.test(v.trim())) return;
  boolSetting(v, key);
};

function sourceChars(raw: string | undefined, def: number): number {
  if (raw === undefined || raw === '') return def;
  if (/^-?\d+$/.test(raw.trim())) return Math.max(0, Number(raw));
  return raw === 'true' ? Number.MAX_SAFE_INTEGER : 0;
}
const byteSizeSetting: SettingDef['validate'] = (v, key) => {
  try {
    parseByteSize(v, key);
  } catch (e) {
    throw new IllegalArgumentError((e as Error).message);
  }
};
const durabilitySetting: SettingDef['validate'] = (v) => {
  if (v.toLowerCase() !== 'request' && v.toLowerCase() !== 'async') {
    throw new IllegalArgumentError(`No enum constant org.elasticsearch.index.translog.Translog.Durability.${v.toUpperCase()}`);
  }
};

const SETTINGS: Record<string, SettingDef> = {
  'index.number_of_shards': { dynamic: false, validate: intSetting(1, 1024) },
  'index.number_of_replicas': { dynamic: true, validate: intSetting(0) },
  'index.number_of_routing_shards': { dynamic: false, validate: intSetting(1, 1024) },
  'index.refresh_interval': { dynamic: true, validate: timeSetting },
  'index.search.idle.after': { dynamic: true, validate: minTimeSetting(0, '0m') },
  'index.mapping.total_fields.limit': { dynamic: true, validate: intSetting(0) },
  'index.mapping.total_fields.ignore_dynamic_beyond_limit': { dynamic: true, validate: boolSetting },
  'index.mapping.depth.limit': { dynamic: true, validate: intSetting(1) },
  'index.mapping.nested_fields.limit': { dynamic: true, validate: intSetting(0) },
  'index.mapping.field_name_length.limit': { dynamic: true, validate: intSetting(1) },
  'index.max_result_window': { dynamic: true, validate: intSetting(1) },
  'index.max_rescore_window': { dynamic: true, validate: intSetting(1) },
  'index.max_terms_count': { dynamic: true, validate: intSetting(1) },
  'index.max_regex_length': { dynamic: true, validate: intSetting(1) },
  'index.query.default_field': { dynamic: true, validate: anyString },
  'index.auto_expand_replicas': { dynamic: true, validate: anyString },
  'index.hidden': { dynamic: true, validate: boolSetting },
  'index.codec': { dynamic: false, validate: codecSetting },
  'index.priority': { dynamic: true, validate: intSetting(0) },
  'index.routing.allocation.include._tier_preference': { dynamic: true, validate: anyString },
  'index.blocks.read_only': { dynamic: true, validate: boolSetting },
  'index.blocks.write': { dynamic: true, validate: boolSetting },
  'index.max_inner_result_window': { dynamic: true, validate: intSetting(1) },
  'index.top_metrics_max_size': { dynamic: true, validate: intSetting(1) },
  'index.max_slices_per_scroll': { dynamic: true, validate: intSetting(1) },
  'index.provided_name': { dynamic: false, validate: anyString },
  'index.translog.durability': { dynamic: true, validate: durabilitySetting },
  'index.translog.sync_interval': { dynamic: true, validate: minTimeSetting(100, '100ms') },
  'index.translog.flush_threshold_size': { dynamic: true, validate: byteSizeSetting },
  'index.creation_date': { dynamic: false, validate: anyString },
  'index.uuid': { dynamic: false, validate: anyString },
  'index.version.created': { dynamic: false, validate: anyString },
  // Pipeline ids: whether the pipeline exists is checked when a write uses it, as in ES.
  'index.default_pipeline': { dynamic: true, validate: anyString },
  'index.final_pipeline': { dynamic: true, validate: anyString },
  'index.max_ngram_diff': { dynamic: true, validate: intSetting(0) },
  'index.max_shingle_diff': { dynamic: true, validate: intSetting(0) },
  ...Object.fromEntries(Object.values(SLOWLOG_PHASES).flatMap((prefix) => SLOWLOG_LEVELS.map((level) => [`${prefix}.${level}`, { dynamic: true, validate: timeSetting }]))),
  'index.search.slowlog.source': { dynamic: true, validate: sourceCharsSetting },
  'index.indexing.slowlog.source': { dynamic: true, validate: sourceCharsSetting },
  'index.indexing.slowlog.reformat': { dynamic: true, validate: boolSetting },
};

/** Settings ES has that this server does not implement: rejected clearly instead of ignored. */
const UNSUPPORTED_PREFIXES = ['index.sort.'];
/** Groups validated as a whole (text-analysis.ts) when an index is created; fixed afterwards. */
export const TEXT_SETTING_PREFIXES = ['index.analysis.', 'index.similarity.'];

/** Flattens any accepted input form into `index.*` keys with string values. */
export function flattenSettings(input: unknown): Map<string, SettingValue> {
  const out = new Map<string, SettingValue>();
  const walk = (obj: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (isPlainObject(v)) walk(v, key);
      else if (Array.isArray(v)) out.set(key, v.map(String));
      else if (v === null) out.set(key, '');
      else out.set(key, String(v));
    }
  };
  if (input !== undefined && input !== null) {
    if (!isPlainObject(input)) throw new IllegalArgumentError('settings must be an object');
    walk(input, '');
  }
  const normalised = new Map<string, SettingValue>();
  for (const [k, v] of out) {
    const key = k.startsWith('index.') ? k : `index.${k}`;
    // Lists stay lists where ES reads lists (analysis); elsewhere a list is its comma-joined value.
    normalised.set(key, typeof v === 'string' || key.startsWith('index.analysis.') ? v : v.join(','));
  }
  return normalised;
}

/** Validates settings for a new index, or for an update of `updated` (where only dynamic ones may change). */
export function validateSettings(settings: FlatSettings, updated?: { name: string; uuid: string }): void {
  const nonDynamic: string[] = [];
  for (const [key, value] of settings) {
    if (TEXT_SETTING_PREFIXES.some((p) => key.startsWith(p))) {
      if (updated) nonDynamic.push(key);
      continue;
    }
    if (typeof value !== 'string') throw new IllegalArgumentError(`Failed to parse value [${value.join(',').slice(0, 100)}] for setting [${key}]: a list is not accepted here`);
    if (UNSUPPORTED_PREFIXES.some((p) => key.startsWith(p))) {
      throw new IllegalArgumentError(`setting [${key}] is not supported by this server yet`);
    }
    const def = SETTINGS[key];
    if (!def) {
      throw new IllegalArgumentError(`unknown setting [${key}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`);
    }
    if (value !== '') def.validate(value, key);
    if (updated && !def.dynamic) nonDynamic.push(key);
  }
  if (updated && nonDynamic.length > 0) {
    // The index as ES's Index.toString() prints it: [name/uuid].
    throw new IllegalArgumentError(`Can't update non dynamic settings [[${nonDynamic.join(', ')}]] for open indices [[${updated.name}/${updated.uuid}]]`);
  }
}

export function resolveSettings(flat: FlatSettings): ResolvedIndexSettings {
  const get = (key: string) => settingString(flat, key);
  const num = (key: string, def: number) => (flat.has(key) && get(key) !== '' ? Number(get(key)) : def);
  const refresh = get('index.refresh_interval');
  return {
    numberOfShards: num('index.number_of_shards', 1),
    numberOfReplicas: num('index.number_of_replicas', 1),
    routingNumShards: flat.has('index.number_of_routing_shards') ? num('index.number_of_routing_shards', 0) : null,
    refreshIntervalMs: refresh !== undefined && refresh !== '' ? parseTimeValue(refresh, 'index.refresh_interval') : 1000,
    explicitRefresh: refresh !== undefined && refresh !== '',
    searchIdleAfterMs: flat.has('index.search.idle.after') && get('index.search.idle.after') !== '' ? parseTimeValue(get('index.search.idle.after')!, 'index.search.idle.after') : 30_000,
    totalFieldsLimit: num('index.mapping.total_fields.limit', 1000),
    ignoreDynamicBeyondLimit: get('index.mapping.total_fields.ignore_dynamic_beyond_limit') === 'true',
    depthLimit: num('index.mapping.depth.limit', 20),
    maxResultWindow: num('index.max_result_window', 10000),
    maxInnerResultWindow: num('index.max_inner_result_window', 100),
    topMetricsMaxSize: num('index.top_metrics_max_size', 10),
    maxSlicesPerScroll: num('index.max_slices_per_scroll', 1024),
    maxRescoreWindow: num('index.max_rescore_window', num('index.max_result_window', 10000)),
    maxRegexLength: num('index.max_regex_length', DEFAULT_MAX_REGEX_LENGTH),
    defaultFields: (get('index.query.default_field') ?? '*').split(',').map((s) => s.trim()).filter(Boolean),
    codec: CODEC_NAMES[get('index.codec') ?? 'default'] ?? 'default',
    translogDurability: get('index.translog.durability')?.toLowerCase() === 'async' ? 'async' : 'request',
    translogSyncIntervalMs: flat.has('index.translog.sync_interval') ? parseTimeValue(get('index.translog.sync_interval')!, 'index.translog.sync_interval') : 5000,
    translogFlushThresholdBytes: flat.has('index.translog.flush_threshold_size') ? parseByteSize(get('index.translog.flush_threshold_size')!, 'index.translog.flush_threshold_size') : 512 * 1024 * 1024,
    slowLog: {
      query: slowLogThresholds(flat, SLOWLOG_PHASES.query),
      fetch: slowLogThresholds(flat, SLOWLOG_PHASES.fetch),
      index: slowLogThresholds(flat, SLOWLOG_PHASES.index),
      searchSourceChars: sourceChars(get('index.search.slowlog.source'), 1000),
      indexingSourceChars: sourceChars(get('index.indexing.slowlog.source'), 1000),
      indexingReformat: get('index.indexing.slowlog.reformat') !== 'false',
    },
  };
}

/** One phase's thresholds; null when all are -1 (the default), so a search checks one field. */
function slowLogThresholds(flat: FlatSettings, prefix: string): SlowLogThresholds | null {
  const ms = (level: string) => {
    const raw = settingString(flat, `${prefix}.${level}`);
    return raw === undefined || raw === '' ? -1 : parseTimeValue(raw, `${prefix}.${level}`);
  };
  const t = { warn: ms('warn'), info: ms('info'), debug: ms('debug'), trace: ms('trace') };
  return t.warn < 0 && t.info < 0 && t.debug < 0 && t.trace < 0 ? null : t;
}

/** Flat `index.*` keys → the nested object GET _settings returns (values stay strings). */
export function nestSettings(flat: FlatSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of [...flat].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const parts = key.split('.');
    let cur = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = cur[parts[i]];
      if (!isPlainObject(next)) cur[parts[i]] = {};
      cur = cur[parts[i]] as Record<string, unknown>;
    }
    cur[parts[parts.length - 1]] = value;
  }
  return out;
}
