/**
 * What an index and a pipeline of the source become on the target: the settings a target accepts
 * (the ones a server sets itself are dropped, the ones that would get in the way of the copy are
 * applied after the documents), the mappings (as they are, except where the target has no such
 * field type), and inference processors with their model ids mapped. Pure functions: every change
 * is returned as a note the summary prints, nothing is dropped silently.
 */

/** The kind of server on the other end, from `GET /`. */
export type ServerKind = 'threadsearch' | 'elasticsearch' | 'opensearch';

/** threadsearch's built-in encoder (src/ml/sparse-model.ts); Elasticsearch and OpenSearch do not have it. */
export const BUILT_IN_SPARSE_MODEL = '.sparse_model_2';

export function serverKind(root: { name: string; distribution: string | undefined }): ServerKind {
  if (root.distribution === 'opensearch') return 'opensearch';
  // threadsearch answers GET / as Elasticsearch 8.15 does; its node is always named threadsearch-<n>.
  return /^threadsearch-\d+$/.test(root.name) ? 'threadsearch' : 'elasticsearch';
}

export type SettingValue = string | string[];
export type FlatSettings = Record<string, SettingValue>;

/** `{"index": {"a": {"b": "1"}}}` → `{"index.a.b": "1"}` (lists stay lists, as ES's Settings). */
export function flattenSettings(nested: Record<string, unknown>, prefix = ''): FlatSettings {
  const out: FlatSettings = {};
  for (const [k, v] of Object.entries(nested)) {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    if (Array.isArray(v)) out[key] = v.map(String);
    else if (v !== null && typeof v === 'object') Object.assign(out, flattenSettings(v as Record<string, unknown>, key));
    else out[key] = v === null ? '' : String(v);
  }
  return out;
}

/**
 * Settings a server sets itself, which ES refuses on create ("private index setting … can not be
 * set explicitly", "unknown setting"): identity, creation, history, and resize/recovery bookkeeping.
 */
const SERVER_SET = [/^index\.uuid$/, /^index\.creation_date$/, /^index\.provided_name$/, /^index\.version\./, /^index\.history\.uuid$/,
  /^index\.resize\./, /^index\.shrink\./, /^index\.routing\.allocation\.initial_recovery\./, /^index\.verified_before_close$/, /^index\.frozen$/];
/**
 * Applied after the documents: pipelines would run inference again over vectors that are already
 * in the stored sources (and the inference processor appends to an existing output), and a write
 * block would refuse the copy itself.
 */
const AFTER_DOCUMENTS = [/^index\.default_pipeline$/, /^index\.final_pipeline$/, /^index\.blocks\./];
/** Elasticsearch settings OpenSearch does not know (it refuses an index that has them). */
const NOT_IN_OPENSEARCH = [/^index\.routing\.allocation\.include\._tier_preference$/];

export interface SettingsPlan {
  /** Sent with the index creation (flat `index.*` keys, which every target accepts). */
  create: FlatSettings;
  /** Sent with `PUT /{index}/_settings` once the documents are in. */
  afterDocuments: FlatSettings;
  notes: string[];
}

export function planSettings(flat: FlatSettings, target: ServerKind): SettingsPlan {
  const plan: SettingsPlan = { create: {}, afterDocuments: {}, notes: [] };
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(flat)) {
    if (SERVER_SET.some((re) => re.test(key))) continue; // set by the target itself: not worth a note
    if (target === 'opensearch' && NOT_IN_OPENSEARCH.some((re) => re.test(key))) dropped.push(key);
    else if (AFTER_DOCUMENTS.some((re) => re.test(key))) plan.afterDocuments[key] = value;
    else plan.create[key] = value;
  }
  if (dropped.length > 0) plan.notes.push(`settings not copied (the target does not have them): ${dropped.join(', ')}`);
  return plan;
}

/** Field types the target lacks → the nearest one it has, with what that means for queries. */
const OPENSEARCH_FIELD_TYPES: Record<string, { type: string; note: string }> = {
  sparse_vector: { type: 'rank_features', note: 'OpenSearch has no sparse_vector: mapped as rank_features (query it with neural_sparse or rank_feature, not text_expansion)' },
};

export interface MappingPlan {
  mappings: Record<string, unknown>;
  notes: string[];
}

/** The mappings for the target: unchanged unless a field type has to be translated (OpenSearch). */
export function planMappings(mappings: Record<string, unknown>, target: ServerKind): MappingPlan {
  if (target !== 'opensearch') return { mappings, notes: [] };
  const notes: string[] = [];
  const walk = (props: Record<string, any>, path: string): Record<string, any> => {
    const out: Record<string, any> = {};
    for (const [name, def] of Object.entries(props)) {
      const full = path === '' ? name : `${path}.${name}`;
      let field = def;
      const swap = typeof def?.type === 'string' ? OPENSEARCH_FIELD_TYPES[def.type] : undefined;
      if (swap) {
        field = { ...def, type: swap.type };
        notes.push(`[${full}]: ${swap.note}`);
      }
      if (field?.properties) field = { ...field, properties: walk(field.properties, full) };
      if (field?.fields) field = { ...field, fields: walk(field.fields, full) };
      out[name] = field;
    }
    return out;
  };
  const props = mappings.properties as Record<string, any> | undefined;
  return { mappings: props ? { ...mappings, properties: walk(props, '') } : mappings, notes };
}

export interface PipelinePlan {
  body: Record<string, unknown>;
  /** Model ids replaced through --model-map: `from → to`, once each. */
  mapped: string[];
  /** Built-in threadsearch models the pipeline still names on a target that lacks them. */
  missingModels: string[];
}

/**
 * The pipeline with inference processors' model ids replaced through `modelMap` — at any depth:
 * `on_failure` handlers and `foreach` bodies hold processors too.
 */
export function planPipeline(pipeline: Record<string, unknown>, modelMap: ReadonlyMap<string, string>, target: ServerKind): PipelinePlan {
  const mapped = new Set<string>();
  const missing = new Set<string>();
  const processor = (p: any): any => {
    if (p === null || typeof p !== 'object') return p;
    const out: Record<string, any> = {};
    for (const [type, cfg] of Object.entries(p as Record<string, any>)) {
      if (cfg === null || typeof cfg !== 'object') {
        out[type] = cfg;
        continue;
      }
      let c: Record<string, any> = { ...cfg };
      if (type === 'inference' && typeof c.model_id === 'string') {
        const to = modelMap.get(c.model_id);
        if (to !== undefined) {
          mapped.add(`${c.model_id} → ${to}`);
          c.model_id = to;
        } else if (c.model_id === BUILT_IN_SPARSE_MODEL && target !== 'threadsearch') missing.add(c.model_id);
      }
      if (Array.isArray(c.on_failure)) c.on_failure = c.on_failure.map(processor);
      if (type === 'foreach' && c.processor) c = { ...c, processor: processor(c.processor) };
      out[type] = c;
    }
    return out;
  };
  const body: Record<string, unknown> = { ...pipeline };
  if (Array.isArray(body.processors)) body.processors = body.processors.map(processor);
  if (Array.isArray(body.on_failure)) body.on_failure = body.on_failure.map(processor);
  return { body, mapped: [...mapped], missingModels: [...missing] };
}

/** `--model-map a=b,c=d` (repeatable) → a map; a malformed entry is a usage error for the caller. */
export function parseModelMap(entries: readonly string[]): Map<string, string> | string {
  const map = new Map<string, string>();
  for (const entry of entries.flatMap((e) => e.split(','))) {
    const m = /^\s*([^=\s]+)\s*=\s*([^=\s]+)\s*$/.exec(entry);
    if (!m) return entry;
    map.set(m[1], m[2]);
  }
  return map;
}
