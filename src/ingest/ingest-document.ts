/**
 * The document a pipeline works on (ES IngestDocument): its `_source`, the metadata fields a
 * processor may read or change (`_index`, `_id`, `_routing`) and the `_ingest` metadata
 * (`timestamp`, and the `on_failure_*` keys while an on_failure handler runs). Field paths are
 * dotted (`a.b.0.c`); list elements are addressed by index. Every failure uses ES's wording,
 * because clients and tests match on it ("field [x] not present as part of path [x]").
 */
import { IllegalArgumentError } from '../errors/index.js';
import { defineOwn, isPlainObject } from '../common/json.js';
import { previewValue } from '../index/index.js';

export type JsonMap = Record<string, unknown>;

/** Metadata fields a pipeline can see and set at the top level of a path. */
const METADATA_FIELDS = new Set(['_index', '_id', '_routing', '_version', '_version_type']);
/** Metadata that must stay a string (or null) whatever a processor sets. */
const STRING_METADATA = new Set(['_index', '_id', '_routing']);
const INGEST_PREFIX = '_ingest.';
const SOURCE_PREFIX = '_source.';

/** The Java class ES names in type errors for a JSON value (what XContent parsing produces). */
export function javaType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'java.lang.String';
  if (typeof v === 'boolean') return 'java.lang.Boolean';
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return 'java.lang.Double';
    return v >= -2147483648 && v <= 2147483647 ? 'java.lang.Integer' : 'java.lang.Long';
  }
  if (Array.isArray(v)) return 'java.util.ArrayList';
  return 'java.util.HashMap';
}

export class IngestDocument {
  /** `_ingest` metadata; `timestamp` is fixed when the document enters the pipeline. */
  readonly ingest: JsonMap;
  /** Set by the drop processor: the document is not written. */
  dropped = false;

  constructor(
    public source: JsonMap,
    readonly metadata: JsonMap,
    timestamp: string,
  ) {
    this.ingest = { timestamp };
  }

  /** A deep copy (simulate's verbose mode shows the document after each processor). */
  clone(): IngestDocument {
    const copy = new IngestDocument(structuredClone(this.source), { ...this.metadata }, this.ingest.timestamp as string);
    for (const [k, v] of Object.entries(this.ingest)) defineOwn(copy.ingest, k, structuredClone(v));
    return copy;
  }

  /** The map a path starts in and the path's steps inside it. */
  private root(path: string): { map: JsonMap; steps: string[] } {
    if (path.startsWith(INGEST_PREFIX)) return { map: this.ingest, steps: path.slice(INGEST_PREFIX.length).split('.') };
    if (path.startsWith(SOURCE_PREFIX)) return { map: this.source, steps: path.slice(SOURCE_PREFIX.length).split('.') };
    if (METADATA_FIELDS.has(path)) return { map: this.metadata, steps: [path] };
    return { map: this.source, steps: path.split('.') };
  }

  hasField(path: string): boolean {
    try {
      this.getFieldValue(path);
      return true;
    } catch {
      return false;
    }
  }

  /** The value at `path`; throws ES's error when any step is missing or not a container. */
  getFieldValue(path: string): unknown {
    if (path === '') throw new IllegalArgumentError('path cannot be null nor empty');
    const { map, steps } = this.root(path);
    let context: unknown = map;
    for (const step of steps) context = resolveStep(context, step, path);
    return context;
  }

  /** Sets (or, with `append`, appends to) the value at `path`, creating missing objects on the way. */
  setFieldValue(path: string, value: unknown, append = false, allowDuplicates = true): void {
    if (path === '') throw new IllegalArgumentError('path cannot be null nor empty');
    const { map, steps } = this.root(path);
    if (map === this.metadata && STRING_METADATA.has(path) && value !== null && typeof value !== 'string') {
      // ES Metadata.stringValidator: a pipeline cannot make `_id` an object (it used to become "[object Object]").
      throw new IllegalArgumentError(`${path} must be null or a String but was [${previewValue(value)}] with type [${javaType(value)}]`);
    }
    let context: unknown = map;
    for (let i = 0; i < steps.length - 1; i++) {
      const step = steps[i];
      if (isPlainObject(context)) {
        if (!Object.hasOwn(context, step)) defineOwn(context, step, {});
        context = context[step];
      } else if (Array.isArray(context)) {
        context = context[listIndex(context, step, path)];
      } else {
        throw cannotSet(step, context, path);
      }
    }
    const leaf = steps[steps.length - 1];
    if (isPlainObject(context)) {
      if (append && Object.hasOwn(context, leaf)) defineOwn(context, leaf, appendValues(context[leaf], value, allowDuplicates));
      else defineOwn(context, leaf, append ? appendValues(undefined, value, allowDuplicates) : value);
    } else if (Array.isArray(context)) {
      const i = listIndex(context, leaf, path);
      context[i] = append ? appendValues(context[i], value, allowDuplicates) : value;
    } else {
      throw cannotSet(leaf, context, path);
    }
  }

  removeField(path: string): void {
    const { map, steps } = this.root(path);
    let context: unknown = map;
    for (let i = 0; i < steps.length - 1; i++) context = resolveStep(context, steps[i], path);
    const leaf = steps[steps.length - 1];
    if (isPlainObject(context)) {
      if (!Object.hasOwn(context, leaf)) throw notPresent(leaf, path);
      delete context[leaf];
    } else if (Array.isArray(context)) {
      context.splice(listIndex(context, leaf, path), 1);
    } else if (context === null) {
      throw new IllegalArgumentError(`cannot remove [${leaf}] from null as part of path [${path}]`);
    } else {
      throw new IllegalArgumentError(`cannot remove [${leaf}] from object of type [${javaType(context)}] as part of path [${path}]`);
    }
  }

  /** What simulate shows: `_index`, `_id`, … then `_source` and `_ingest`. */
  render(): JsonMap {
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(this.metadata)) if (v !== undefined && v !== null) defineOwn(out, k, v);
    out._source = this.source;
    out._ingest = this.ingest;
    return out;
  }
}

function notPresent(step: string, path: string): IllegalArgumentError {
  return new IllegalArgumentError(`field [${step}] not present as part of path [${path}]`);
}

function cannotSet(step: string, parent: unknown, path: string): IllegalArgumentError {
  if (parent === null || parent === undefined) return new IllegalArgumentError(`cannot set [${step}] with null parent as part of path [${path}]`);
  return new IllegalArgumentError(`cannot set [${step}] with parent object of type [${javaType(parent)}] as part of path [${path}]`);
}

function resolveStep(context: unknown, step: string, path: string): unknown {
  if (context === null || context === undefined) throw new IllegalArgumentError(`cannot resolve [${step}] from null as part of path [${path}]`);
  if (isPlainObject(context)) {
    if (!Object.hasOwn(context, step)) throw notPresent(step, path);
    return context[step];
  }
  if (Array.isArray(context)) return context[listIndex(context, step, path)];
  throw new IllegalArgumentError(`cannot resolve [${step}] from object of type [${javaType(context)}] as part of path [${path}]`);
}

function listIndex(list: unknown[], step: string, path: string): number {
  if (!/^-?\d+$/.test(step)) throw new IllegalArgumentError(`[${step}] is not an integer, cannot be used as an index as part of path [${path}]`);
  const i = Number(step);
  if (i < 0 || i >= list.length) throw new IllegalArgumentError(`[${i}] is out of bounds for array with length [${list.length}] as part of path [${path}]`);
  return i;
}

/** ES IngestDocument.appendValues: the existing value becomes a list; lists are appended element-wise. */
function appendValues(existing: unknown, value: unknown, allowDuplicates: boolean): unknown[] {
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  const add = Array.isArray(value) ? value : [value];
  for (const v of add) {
    if (allowDuplicates || !list.some((x) => JSON.stringify(x) === JSON.stringify(v))) list.push(v);
  }
  return list;
}
