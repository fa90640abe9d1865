/**
 * Mapping JSON → RootMapping (ES `MappingParser`, `ObjectMapper.TypeParser`, field type parsers).
 * Dotted property names ("ml.tokens") expand into object mappers, as in ES.
 */
import { MapperParsingError, previewInput } from '../../errors/index.js';
import { isPlainObject } from '../../common/json.js';
import { parametersFor, isFieldType, KNOWN_UNSUPPORTED_TYPES } from './parameters.js';
import type { DynamicMode, FieldMapper, Mapper, ObjectMapper, RootMapping, RootParam, SourceConfig } from './types.js';
import { DEFAULT_DYNAMIC_DATE_FORMATS, isFeatureType } from './types.js';
import { completionParams } from './completion-mapping.js';
import { searchAsYouTypeParams } from './search-as-you-type.js';
import { denseVectorParams } from './dense-vector-mapping.js';


export const EMPTY_ROOT: RootMapping = {
  kind: 'object', dynamic: null, enabled: true, properties: new Map(), source: null, dateDetection: true,
  numericDetection: false, dynamicDateFormats: DEFAULT_DYNAMIC_DATE_FORMATS, meta: null,
  explicitParams: new Set(),
};

function parseDynamic(v: unknown): DynamicMode {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  if (v === 'strict' || v === 'runtime') return v;
  throw new MapperParsingError(`Could not convert [dynamic] to boolean`);
}

function validateName(name: string): void {
  if (name.length === 0) throw new MapperParsingError('field name cannot be an empty string');
  if (name.trim().length === 0) throw new MapperParsingError('field name cannot contain only whitespace');
  if (name.startsWith('.') || name.endsWith('.') || name.includes('..')) {
    throw new MapperParsingError(`Invalid field name [${name}]: field name cannot contain only dots, or begin or end with a dot`);
  }
}

export function unsupportedParams(where: string, rest: Record<string, unknown>): MapperParsingError {
  const list = Object.entries(rest).map(([k, v]) => `[${previewInput(k)} : ${previewInput(typeof v === 'object' ? JSON.stringify(v) : String(v))}]`).join(', ');
  return new MapperParsingError(`${where} has unsupported parameters:  ${list}`);
}

/** Parses the `properties` object of an object mapper. */
export function parseProperties(json: unknown, parentPath: string): Map<string, Mapper> {
  if (!isPlainObject(json)) throw new MapperParsingError(`Expected map for property [properties] on field [${parentPath || '_doc'}] but got a class ${typeof json}`);
  const out = new Map<string, Mapper>();
  for (const [rawName, def] of Object.entries(json)) {
    validateName(rawName);
    // "a.b.c": {...} ≡ "a": {"properties": {"b": {"properties": {"c": {...}}}}}
    const parts = rawName.split('.');
    const leafPath = parentPath ? `${parentPath}.${rawName}` : rawName;
    let mapper = parseMapper(parts[parts.length - 1], def, leafPath);
    for (let i = parts.length - 2; i >= 0; i--) {
      mapper = { kind: 'object', dynamic: null, enabled: true, properties: new Map([[parts[i + 1], mapper]]) };
    }
    const existing = out.get(parts[0]);
    out.set(parts[0], existing ? mergeParsed(existing, mapper, parentPath ? `${parentPath}.${parts[0]}` : parts[0]) : mapper);
  }
  return out;
}

/** Two parts of one request addressing the same object ("a.b" and "a": {...}) combine. */
function mergeParsed(a: Mapper, b: Mapper, path: string): Mapper {
  if (a.kind === 'object' && b.kind === 'object') {
    const props = new Map(a.properties);
    for (const [k, v] of b.properties) {
      const e = props.get(k);
      props.set(k, e ? mergeParsed(e, v, `${path}.${k}`) : v);
    }
    return { ...a, properties: props, dynamic: b.dynamic ?? a.dynamic };
  }
  throw new MapperParsingError(`Field [${path}] is defined more than once`);
}

export function parseMapper(name: string, def: unknown, path: string): Mapper {
  if (!isPlainObject(def)) {
    throw new MapperParsingError(`Expected map for property [fields] on field [${name}] but got a class java.lang.String`);
  }
  const type = def.type;
  if (type === undefined || type === 'object') return parseObjectMapper(def, path, name);
  if (typeof type !== 'string') throw new MapperParsingError(`No type specified for field [${name}]`);
  if (!isFieldType(type)) {
    if (KNOWN_UNSUPPORTED_TYPES.has(type)) {
      throw new MapperParsingError(`Field type [${type}] (on field [${name}]) is not supported by this server yet`);
    }
    throw new MapperParsingError(`No handler for type [${type}] declared on field [${name}]`);
  }
  return parseFieldMapper(name, type, def, path, false);
}

function parseFieldMapper(name: string, type: FieldMapper['type'], def: Record<string, unknown>, path: string, inMultiField: boolean): FieldMapper {
  const allowed = parametersFor(type);
  const params: Record<string, unknown> = {};
  let fields = new Map<string, FieldMapper>();
  for (const [k, v] of Object.entries(def)) {
    if (k === 'type') continue;
    if (k === 'fields') {
      if (isFeatureType(type) || type === 'dense_vector') throw new MapperParsingError(`unknown parameter [fields] on mapper [${name}] of type [${type}]`);
      if (inMultiField) throw new MapperParsingError(`Multi-field [${path}] cannot have multi-fields itself`);
      if (!isPlainObject(v)) throw new MapperParsingError(`Expected map for property [fields] on field [${name}] but got a class ${typeof v}`);
      fields = new Map();
      for (const [sub, subDef] of Object.entries(v)) {
        validateName(sub);
        if (sub.includes('.')) throw new MapperParsingError(`Field name [${sub}] which is a multi field of [${path}] cannot contain '.'`);
        if (!isPlainObject(subDef)) throw new MapperParsingError(`Expected map for property [fields] on field [${sub}]`);
        const subType = subDef.type;
        if (subType === undefined || subType === 'object' || subType === 'nested') {
          throw new MapperParsingError(`Type [${String(subType ?? 'object')}] cannot be used in multi field`);
        }
        if (typeof subType !== 'string' || !isFieldType(subType)) {
          throw new MapperParsingError(`No handler for type [${String(subType)}] declared on field [${sub}]`);
        }
        // ES FieldMapper.notInMultiFields: feature fields parse whole objects, never a parent's value.
        if (isFeatureType(subType) || subType === 'dense_vector') throw new MapperParsingError(`Field [${sub}] of type [${subType}] can't be used in multifields`);
        fields.set(sub, parseFieldMapper(sub, subType, subDef, `${path}.${sub}`, true));
      }
      continue;
    }
    const check = allowed[k];
    if (!check) throw new MapperParsingError(`unknown parameter [${k}] on mapper [${name}] of type [${type}]`);
    params[k] = check(v, k);
  }
  if (type === 'scaled_float' && params.scaling_factor === undefined) {
    throw new MapperParsingError(`Field [scaling_factor] is required`);
  }
  if (type === 'completion') return { kind: 'field', type, params: completionParams(params), fields };
  if (type === 'search_as_you_type') return { kind: 'field', type, params: searchAsYouTypeParams(params), fields };
  if (type === 'dense_vector') return { kind: 'field', type, params: denseVectorParams(params, name, unsupportedParams), fields };
  return { kind: 'field', type, params, fields };
}

function parseObjectMapper(def: Record<string, unknown>, path: string, name: string): ObjectMapper {
  let dynamic: DynamicMode | null = null;
  let enabled = true;
  let properties = new Map<string, Mapper>();
  for (const [k, v] of Object.entries(def)) {
    switch (k) {
      case 'type': break;
      case 'dynamic': dynamic = parseDynamic(v); break;
      case 'enabled':
        if (typeof v !== 'boolean') throw new MapperParsingError(`Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`);
        enabled = v;
        break;
      case 'properties': properties = parseProperties(v, path); break;
      case 'subobjects':
        if (v !== true && v !== 'true') throw new MapperParsingError(`[subobjects] other than true is not supported by this server yet`);
        break;
      default:
        throw unsupportedParams(`Mapping definition for [${name}]`, { [k]: v });
    }
  }
  return { kind: 'object', dynamic, enabled, properties };
}

function parseSourceConfig(v: unknown): SourceConfig {
  if (!isPlainObject(v)) throw new MapperParsingError(`[_source] must be an object`);
  let enabled = true;
  let includes: string[] = [];
  let excludes: string[] = [];
  const list = (x: unknown, key: string): string[] => {
    const arr = Array.isArray(x) ? x : [x];
    if (!arr.every((s) => typeof s === 'string')) throw new MapperParsingError(`[_source] [${key}] must be a list of strings`);
    return arr as string[];
  };
  for (const [k, x] of Object.entries(v)) {
    if (k === 'enabled') {
      if (typeof x !== 'boolean') throw new MapperParsingError(`Failed to parse value [${String(x)}] as only [true] or [false] are allowed.`);
      enabled = x;
    } else if (k === 'includes') includes = list(x, k);
    else if (k === 'excludes') excludes = list(x, k);
    else if (k === 'mode') throw new MapperParsingError(`[_source] [mode] is not supported by this server`);
    else throw unsupportedParams('Mapping definition for [_source]', { [k]: x });
  }
  return { enabled, includes, excludes };
}

/** Parses the `mappings` member of create-index or the body of PUT _mapping. */
export function parseRootMapping(json: unknown): RootMapping {
  if (!isPlainObject(json)) throw new MapperParsingError('Failed to parse mapping: Expected map for property [mappings]');
  let root: RootMapping = { ...EMPTY_ROOT, properties: new Map() };
  const explicit = new Set<RootParam>();
  const unsupported: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) {
    switch (k) {
      case 'properties': root = { ...root, properties: parseProperties(v, '') }; break;
      case 'dynamic': root = { ...root, dynamic: parseDynamic(v) }; break;
      case 'enabled':
        if (v !== true) throw new MapperParsingError('Failed to parse mapping: root object mapper cannot be disabled');
        break;
      case '_source': root = { ...root, source: parseSourceConfig(v) }; break;
      case 'date_detection': root = { ...root, dateDetection: v === true || v === 'true' }; explicit.add(k); break;
      case 'numeric_detection': root = { ...root, numericDetection: v === true || v === 'true' }; explicit.add(k); break;
      case 'dynamic_date_formats':
        if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new MapperParsingError('Failed to parse mapping: [dynamic_date_formats] must be a list of strings');
        root = { ...root, dynamicDateFormats: v as string[] };
        explicit.add(k);
        break;
      case '_meta':
        if (!isPlainObject(v)) throw new MapperParsingError('Failed to parse mapping: [_meta] must be an object');
        root = { ...root, meta: v };
        break;
      case 'dynamic_templates':
        if (Array.isArray(v) && v.length === 0) break;
        throw new MapperParsingError('Failed to parse mapping: [dynamic_templates] are not supported by this server yet');
      case '_routing': case '_field_names': break;
      default: unsupported[k] = v;
    }
  }
  if (Object.keys(unsupported).length > 0) {
    throw unsupportedParams('Root mapping definition', unsupported);
  }
  return { ...root, explicitParams: explicit };
}
