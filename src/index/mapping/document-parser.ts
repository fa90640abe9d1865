/**
 * A document's `_source` → validated field values and, with dynamic mapping, new mappers
 * (ES `DocumentParser` + `DocumentParserContext`). The coordinator runs it to validate a write and
 * collect the mapping update before acknowledging; the segment builder runs it again on the
 * (by then updated) mapping to extract the values it indexes. Same code, same result.
 *
 * Limits follow ES: `index.mapping.total_fields.limit` (error "Limit of total fields [L] has been
 * exceeded while adding new fields [N]", N counting a dynamic string as 2: text + .keyword),
 * `index.mapping.depth.limit`, and the JSON nesting limit of 1000.
 */
import { DocumentParsingError, EsError, IllegalArgumentError, StrictDynamicMappingError } from '../../errors/index.js';
import { compiledFormat, previewValue, toIndexableValue, type IndexableValue } from './field-values.js';
import { resolveMapping, type ResolvedMapping } from './resolve.js';
import type { DynamicMode, FieldMapper, Mapper, ObjectMapper, ResolvedField, RootMapping } from './types.js';
import { isFeatureType } from './types.js';
import { emitFeatureText, featuresSeenIn, parseFeatureObject, type FeatureValue } from './feature-values.js';
import { RawJson } from '../../common/raw-json.js';
import { completionValue, parseCompletionInputs } from './completion-values.js';
import { EMPTY_ROOT } from './parse-mapping.js';
import { searchAsYouTypeSubfieldPaths } from './search-as-you-type.js';
import { parseDenseVector, vectorDimensionCount } from './vector-values.js';
import { indexDimensionError, inParameterOrder, MAX_VECTOR_DIMS } from './dense-vector-mapping.js';

export type FieldValueSink = (field: ResolvedField, value: IndexableValue) => void;

export interface DocumentParseLimits {
  readonly totalFieldsLimit: number;
  readonly depthLimit: number;
  readonly ignoreDynamicBeyondLimit: boolean;
}

export interface DocumentParseResult {
  /** New mappers to merge into the index mapping, or null when the document added none. */
  readonly mappingUpdate: RootMapping | null;
  /** Fields left unmapped because of `ignore_dynamic_beyond_limit` (ES `_ignored`). */
  readonly ignored: readonly string[];
}

const MAX_NESTING_DEPTH = 1000;

/** Builds the `[line:col] ` prefix ES puts on document errors; found lazily, only on failure. */
function positionPrefix(sourceText: string | null, key: string | null): string {
  if (!sourceText) return '[1:1] ';
  const at = key !== null ? sourceText.lastIndexOf(JSON.stringify(key)) : -1;
  const offset = at < 0 ? sourceText.length : at + JSON.stringify(key).length + 1;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < sourceText.length; i++) {
    if (sourceText.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return `[${line}:${offset - lineStart + 1}] `;
}

interface Frame {
  readonly path: string;
  /** The object mapper at this path, if mapped (dynamic objects created in this doc included). */
  readonly mapper: ObjectMapper | null;
  readonly dynamic: DynamicMode;
  readonly depth: number;
}

export class DocumentParser {
  private resolved: ResolvedMapping;
  /**
   * The last document's walk and parsed object, kept alive until the next parse (issue 19): V8
   * drops an object shape (hidden class) a few full collections after its last instance died, and
   * deoptimizes all code specialised on it. A build worker's parser runs only during builds, so
   * the collections between builds (ours and V8's idle ones) killed these shapes every time and
   * the parser was compiled again for every build. One document's objects keep them (not a huge
   * one's: a coordinator's parser would hold it until the next document).
   */
  private lastRun: DocumentParseRun | null = null;
  private lastSource: Record<string, unknown> | null = null;

  constructor(
    private readonly mapping: RootMapping,
    private readonly limits: DocumentParseLimits,
    resolved?: ResolvedMapping,
  ) {
    this.resolved = resolved ?? resolveMapping(mapping);
  }

  /**
   * Walks `source`; values go to `sink` (may be a no-op when only validating). Throws a
   * `document_parsing_exception` / `strict_dynamic_mapping_exception` exactly as ES would.
   */
  parse(source: Record<string, unknown>, id: string | null, sourceText: string | null, sink: FieldValueSink | null): DocumentParseResult {
    const run = new DocumentParseRun(this.mapping, this.resolved, this.limits, id, sourceText, sink);
    run.walkObject(source, { path: '', mapper: this.mapping, dynamic: this.mapping.dynamic ?? true, depth: 0 });
    if (sourceText === null || sourceText.length <= KEEP_MAX_SOURCE_CHARS) {
      this.lastRun = run;
      this.lastSource = source;
    }
    return { mappingUpdate: run.buildUpdate(), ignored: run.ignored };
  }
}

/** The largest document (source chars) a parser keeps as its last (see DocumentParser.lastRun). */
const KEEP_MAX_SOURCE_CHARS = 64 << 10;

/** What a document that adds no mapper reads its dynamic additions from: one shared empty map. */
const NOTHING_ADDED: ReadonlyMap<string, never> = new Map<string, never>();

class DocumentParseRun {
  /**
   * Mappers added dynamically in this document, by full path. Most documents add none, and both
   * the coordinator and the build workers parse every document: the maps are made on first use.
   */
  private added: ReadonlyMap<string, Mapper> = NOTHING_ADDED;
  private addedResolved: ReadonlyMap<string, ResolvedField> = NOTHING_ADDED;
  private newFieldCount = 0;
  readonly ignored: string[] = [];
  /** Per feature field: its first object in this document (parsed or raw), then (from a second one on) the features seen. */
  private features: Map<string, Record<string, unknown> | RawJson | Set<string>> | null = null;
  /** dense_vector fields that had a vector in this document (one each, as in ES). */
  private vectors: Set<string> | null = null;

  constructor(
    private readonly root: RootMapping,
    private readonly resolved: ResolvedMapping,
    private readonly limits: DocumentParseLimits,
    private readonly id: string | null,
    private readonly sourceText: string | null,
    private readonly sink: FieldValueSink | null,
  ) {}

  private fail(reason: string, key: string | null, cause?: EsError): never {
    throw new DocumentParsingError(positionPrefix(this.sourceText, key) + reason, cause);
  }

  walkObject(obj: Record<string, unknown>, frame: Frame): void {
    if (frame.depth > MAX_NESTING_DEPTH) {
      this.fail(`Document nesting depth (${frame.depth}) exceeds the maximum allowed (${MAX_NESTING_DEPTH})`, null);
    }
    const keys = Object.keys(obj);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      const value = obj[key];
      const last = k === keys.length - 1;
      if (key.length === 0 || key.trim().length === 0) this.fail(`field name cannot be an empty string`, key);
      if (key.includes('.')) {
        if (key.startsWith('.') || key.endsWith('.') || key.includes('..')) {
          this.fail(`field name cannot contain only dots, or begin or end with a dot: [${key}]`, key);
        }
        // "a.b": v ≡ "a": {"b": v} (ES subobjects: true).
        const parts = key.split('.');
        let f = frame;
        for (let i = 0; i < parts.length - 1; i++) f = this.enterObject(parts[i], f, key);
        if (f.mapper === null && f.dynamic !== true) {
          if (f.dynamic === 'strict') this.strict(parts[parts.length - 1], f, key);
          continue;
        }
        this.walkValue(parts[parts.length - 1], value, f, key, last);
      } else {
        this.walkValue(key, value, frame, key, last);
      }
    }
  }

  /** Descends into an object child named `name`, creating it dynamically if allowed. */
  private enterObject(name: string, frame: Frame, key: string): Frame {
    const path = frame.path ? `${frame.path}.${name}` : name;
    const existing = this.mapperAt(frame, name, path);
    if (existing && existing.kind === 'field') {
      this.fail(`Could not dynamically add mapping for field [${key}]. Existing mapping for [${path}] must be of type object but found [${existing.type}].`, key);
    }
    if (existing) {
      return { path, mapper: existing, dynamic: existing.dynamic ?? frame.dynamic, depth: frame.depth + 1 };
    }
    if (frame.dynamic === true) {
      const obj = this.addObjectMapper(path, frame, key);
      return { path, mapper: obj, dynamic: frame.dynamic, depth: frame.depth + 1 };
    }
    if (frame.dynamic === 'strict') this.strict(name, frame, key);
    return { path, mapper: null, dynamic: frame.dynamic, depth: frame.depth + 1 };
  }

  private strict(name: string, frame: Frame, key: string): never {
    throw new StrictDynamicMappingError(
      `${positionPrefix(this.sourceText, key)}mapping set to strict, dynamic introduction of [${name}] within [${frame.path || '_doc'}] is not allowed`,
    );
  }

  private mapperAt(frame: Frame, name: string, path: string): Mapper | undefined {
    return frame.mapper?.properties.get(name) ?? this.added.get(path);
  }

  /** `last`: the value is its object's last member (what a dense_vector parse error names after it). */
  private walkValue(name: string, value: unknown, frame: Frame, key: string, last = false): void {
    {
      const path = frame.path ? `${frame.path}.${name}` : name;
      const m = this.mapperAt(frame, name, path);
      if (m && m.kind === 'field') {
        // dense_vector parses whole arrays (ES parsesArrayValue), one vector per document.
        if (m.type === 'dense_vector') {
          this.indexVector(path, m, value, key, last);
          return;
        }
        // Completion fields parse whole values, arrays and objects included (ES parsesArrayValue).
        if (m.type === 'completion') {
          if (value !== null) this.indexCompletion(path, m, value, key);
          return;
        }
        // Feature fields take whole objects (and nulls reach their parser too, as in ES).
        if (!Array.isArray(value) && isFeatureType(m.type)) {
          this.indexFeatures(path, value, key);
          return;
        }
      }
    }
    // Kept raw for a feature field this mapping does not have there: read as JSON.parse would.
    if (value instanceof RawJson) value = value.parse();
    if (value === null) {
      const path = frame.path ? `${frame.path}.${name}` : name;
      const m = this.mapperAt(frame, name, path);
      if (m && m.kind === 'field' && m.params.null_value !== undefined) this.indexValue(path, m, m.params.null_value, key);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) this.walkValue(name, item, frame, key);
      return;
    }
    const path = frame.path ? `${frame.path}.${name}` : name;
    let m = this.mapperAt(frame, name, path);
    if (value !== null && typeof value === 'object') {
      if (m && m.kind === 'field') {
        this.fail(
          `failed to parse field [${path}] of type [${m.type}] in document with id '${this.id}'. Preview of field's value: '${previewValue(value)}'`,
          key,
          new EsError('illegal_state_exception', `Can't get text on a START_OBJECT at ${positionPrefix(this.sourceText, key).slice(1, -2)}`, 400),
        );
      }
      const child = this.enterObject(name, frame, key);
      if (child.mapper && !child.mapper.enabled) return;
      if (child.mapper === null && child.dynamic !== true) return; // dynamic false/runtime: kept in _source only
      this.walkObject(value as Record<string, unknown>, child);
      return;
    }
    if (m && m.kind === 'object') {
      this.fail(`object mapping for [${path}] tried to parse field [${name}] as object, but found a concrete value`, key);
    }
    if (!m) {
      if (frame.dynamic === 'strict') this.strict(name, frame, key);
      if (frame.dynamic !== true) return;
      const created = this.addFieldMapper(path, value, frame, key);
      if (!created) return;
      m = created;
    }
    this.indexValue(path, m, value, key);
  }

  private indexFeatures(path: string, value: unknown, key: string): void {
    const field = this.resolved.fields.get(path);
    if (!field) return;
    if (!this.features) this.features = new Map();
    const before = this.features.get(path);
    let seen: Set<string> | null = null;
    if (before === undefined) {
      if (value instanceof RawJson) {
        this.features.set(path, value);
        // The plain form, valid: read from the text, no object made. Otherwise parsed, as below.
        if (emitFeatureText(field, value, this.sink)) return;
        value = value.parse();
      } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) this.features.set(path, value as Record<string, unknown>);
    } else {
      seen = before instanceof Set ? before : featuresSeenIn(before instanceof RawJson ? before.parse() : before);
      this.features.set(path, seen);
      if (value instanceof RawJson) value = value.parse();
    }
    let at = key;
    try {
      const sink = this.sink;
      parseFeatureObject(field, value, seen, (feature, weight) => {
        at = feature;
        if (sink !== null) sink(field, { feature, weight } satisfies FeatureValue);
      });
    } catch (e) {
      if (!(e instanceof EsError)) throw e;
      // ES's DocumentParser wraps what a mapper's own parse() throws: "failed to parse: <reason>".
      this.fail(`failed to parse: ${e.reason}`, at, e);
    }
  }

  private indexVector(path: string, m: FieldMapper, value: unknown, key: string, last: boolean): void {
    const field = this.resolved.fields.get(path);
    if (!field?.vector) return;
    if (value instanceof RawJson) value = value.parse();
    if (this.vectors?.has(path)) {
      const reason = `Field [${path}] of type [dense_vector] doesn't support indexing multiple values for the same field in the same document`;
      this.fail(`failed to parse: ${reason}`, key, new IllegalArgumentError(reason));
    }
    if (value === null) return;
    (this.vectors ??= new Set()).add(path);
    const options = field.vector;
    // ES 8.11+: the first vector of a field mapped without dims sets them (a mapping update).
    const dims = options.dims ?? vectorDimensionCount(options, value);
    try {
      if (options.dims === null && dims !== null) this.setVectorDims(path, m, dims);
      const vector = parseDenseVector(options, { path, doc: `document with id '${this.id}'`, dims: dims ?? 0, last }, value);
      this.sink?.(field, vector);
    } catch (e) {
      if (!(e instanceof EsError)) throw e;
      // DenseVectorFieldMapper overrides parse(), so DocumentParser's generic wrap applies.
      this.fail(`failed to parse: ${e.reason}`, key, e);
    }
  }

  /** Records the mapping update that sets an unset `dims`, validated as the mapping parser would. */
  private setVectorDims(path: string, m: FieldMapper, dims: number): void {
    if (dims < 1 || dims > MAX_VECTOR_DIMS) {
      throw new IllegalArgumentError(`The number of dimensions for field [${path}] should be in the range [1, ${MAX_VECTOR_DIMS}] but was [${dims}]`);
    }
    const dimsError = indexDimensionError(m.params.index_options, dims);
    if (dimsError !== null) throw new IllegalArgumentError(dimsError);
    this.addedMappers().set(path, { ...m, params: inParameterOrder({ ...m.params, dims }) });
  }

  private indexCompletion(path: string, m: FieldMapper, value: unknown, key: string): void {
    const field = this.resolved.fields.get(path);
    if (!field) return;
    let inputs: Map<string, number>;
    try {
      inputs = parseCompletionInputs(field, value, key);
    } catch (e) {
      if (!(e instanceof EsError)) throw e;
      // CompletionFieldMapper overrides parse(), so DocumentParser's generic wrap applies.
      this.fail(`failed to parse: ${e.reason}`, key, e);
    }
    for (const [input, weight] of inputs) {
      const v = completionValue(field, input, weight);
      if (v !== null) this.sink?.(field, v);
    }
    // Multi-fields see each input (ES MultiFieldParser): its text, or all of it for a completion sub-field.
    for (const sub of m.fields.keys()) {
      const subField = this.resolved.fields.get(`${path}.${sub}`);
      if (!subField) continue;
      for (const [input, weight] of inputs) {
        if (subField.type !== 'completion') this.emit(subField, input, key);
        else {
          const v = completionValue(subField, input, weight);
          if (v !== null) this.sink?.(subField, v);
        }
      }
    }
  }

  private indexValue(path: string, m: FieldMapper, value: unknown, key: string): void {
    const field = this.resolved.fields.get(path) ?? this.addedResolved.get(path);
    if (!field) return;
    this.emit(field, value, key);
    for (const sub of m.fields.keys()) {
      const subField = this.resolved.fields.get(`${path}.${sub}`) ?? this.addedResolved.get(`${path}.${sub}`);
      if (subField) this.emit(subField, value, key);
    }
  }

  private emit(field: ResolvedField, value: unknown, key: string): void {
    let v: IndexableValue | undefined;
    try {
      v = toIndexableValue(field, value);
    } catch (e) {
      if (!(e instanceof EsError)) throw e;
      this.fail(
        `failed to parse field [${field.path}] of type [${field.type}] in document with id '${this.id}'. Preview of field's value: '${previewValue(value)}'`,
        key,
        e,
      );
    }
    if (v === undefined || !this.sink) return;
    this.sink(field, v);
    // search_as_you_type: the hidden subfields index the same text, when the root is indexed (as in ES).
    const sayt = field.searchAsYouType;
    if (sayt?.role === 'root' && field.indexed) {
      for (const path of searchAsYouTypeSubfieldPaths(sayt)) this.sink(this.resolved.fields.get(path)!, v);
    }
  }

  // ---- dynamic mapping -------------------------------------------------------------------------

  private checkLimit(adding: number, path: string, key: string): boolean {
    if (this.resolved.totalFields + this.newFieldCount + adding > this.limits.totalFieldsLimit) {
      if (this.limits.ignoreDynamicBeyondLimit) {
        this.ignored.push(path);
        return false;
      }
      // ES checks after each addition, so N is the running count including the field that tripped.
      const n = this.newFieldCount + adding;
      const reason = `Limit of total fields [${this.limits.totalFieldsLimit}] has been exceeded while adding new fields [${n}]`;
      this.fail(`failed to parse: ${reason}`, key, new IllegalArgumentError(reason));
    }
    this.newFieldCount += adding;
    return true;
  }

  private addObjectMapper(path: string, frame: Frame, key: string): ObjectMapper {
    if (frame.depth + 1 > this.limits.depthLimit) {
      const reason = `Limit of mapping depth [${this.limits.depthLimit}] has been exceeded due to object field [${path}]`;
      this.fail(`failed to parse: ${reason}`, key, new IllegalArgumentError(reason));
    }
    const obj: ObjectMapper = { kind: 'object', dynamic: null, enabled: true, properties: new Map() };
    if (!this.checkLimit(1, path, key)) return obj;
    this.addedMappers().set(path, obj);
    return obj;
  }

  private addFieldMapper(path: string, value: unknown, frame: Frame, key: string): FieldMapper | null {
    const mapper = this.dynamicMapperFor(value);
    if (!mapper) return null;
    if (!this.checkLimit(1 + mapper.fields.size, path, key)) return null;
    this.addedMappers().set(path, mapper);
    // Resolve the new mapper (and its multi-fields) so values in this same document use it.
    const single: RootMapping = { ...EMPTY_ROOT, properties: new Map([['f', mapper]]) };
    if (this.addedResolved === NOTHING_ADDED) this.addedResolved = new Map();
    const addedResolved = this.addedResolved as Map<string, ResolvedField>;
    for (const [p, rf] of resolveMapping(single, this.resolved.text).fields) {
      addedResolved.set(path + p.slice(1), { ...rf, path: path + p.slice(1) });
    }
    return mapper;
  }

  private addedMappers(): Map<string, Mapper> {
    if (this.added === NOTHING_ADDED) this.added = new Map();
    return this.added as Map<string, Mapper>;
  }

  /** ES dynamic field mapping rules (es-api.md §1.2). */
  private dynamicMapperFor(value: unknown): FieldMapper | null {
    if (typeof value === 'boolean') return { kind: 'field', type: 'boolean', params: {}, fields: new Map() };
    if (typeof value === 'number') {
      return { kind: 'field', type: Number.isInteger(value) ? 'long' : 'float', params: {}, fields: new Map() };
    }
    if (typeof value === 'string') {
      if (this.root.dateDetection) {
        for (const fmt of this.root.dynamicDateFormats) {
          if (matchesDateFormat(fmt, value)) {
            const params = fmt === 'strict_date_optional_time' ? {} : { format: fmt };
            return { kind: 'field', type: 'date', params, fields: new Map() };
          }
        }
      }
      if (this.root.numericDetection && value.trim() !== '' && Number.isFinite(Number(value))) {
        return { kind: 'field', type: Number.isInteger(Number(value)) ? 'long' : 'float', params: {}, fields: new Map() };
      }
      return {
        kind: 'field', type: 'text', params: {},
        fields: new Map([['keyword', { kind: 'field', type: 'keyword', params: { ignore_above: 256 }, fields: new Map() }]]),
      };
    }
    return null;
  }

  buildUpdate(): RootMapping | null {
    if (this.added.size === 0) return null;
    // Rebuild the nested tree of added mappers; their parents are existing objects or added ones.
    const root: { properties: Map<string, Mapper> } = { properties: new Map() };
    const paths = [...this.added.keys()].sort((a, b) => a.split('.').length - b.split('.').length);
    for (const path of paths) {
      const parts = path.split('.');
      let props = root.properties;
      for (let i = 0; i < parts.length - 1; i++) {
        let next = props.get(parts[i]);
        if (!next) {
          next = { kind: 'object', dynamic: null, enabled: true, properties: new Map() };
          props.set(parts[i], next);
        }
        props = (next as ObjectMapper).properties as Map<string, Mapper>;
      }
      const m = this.added.get(path)!;
      props.set(parts[parts.length - 1], m.kind === 'object' ? { ...m, properties: new Map() } : m);
    }
    return { ...EMPTY_ROOT, properties: root.properties };
  }
}

function matchesDateFormat(format: string, value: string): boolean {
  // Cheap pre-check: dates start with a digit; avoids running the parser on every new string field.
  const c = value.charCodeAt(0);
  if (!(c >= 48 && c <= 57)) return false;
  try {
    compiledFormat(format).parse(value);
    return true;
  } catch {
    return false;
  }
}
