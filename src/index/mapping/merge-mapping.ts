/**
 * Merging a mapping update (PUT _mapping, or dynamic fields found in a document) into the current
 * mapping, with ES's conflict rules (`MapperService.merge`, `FieldMapper.merge`): fields and
 * multi-fields can be added, a few parameters updated; types and most parameters never change.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { FieldMapper, Mapper, ObjectMapper, RootMapping } from './types.js';
import { DENSE_VECTOR_PARAMETERS, inParameterOrder, mergeDenseVectorParam } from './dense-vector-mapping.js';

/** Parameters ES lets PUT _mapping change on an existing field. */
const UPDATABLE = new Set([
  'ignore_above', 'meta', 'search_analyzer', 'search_quote_analyzer', 'boost', 'eager_global_ordinals', 'fielddata', 'null_value',
  'max_input_length', // completion
]);

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function mergeField(path: string, current: FieldMapper, update: FieldMapper): FieldMapper {
  if (current.type !== update.type) {
    throw new IllegalArgumentError(`mapper [${path}] cannot be changed from type [${current.type}] to [${update.type}]`);
  }
  const conflicts: string[] = [];
  const params: Record<string, unknown> = { ...current.params };
  // dense_vector conflicts are listed in its parameters' order, as ES's merge walks them.
  const keys = current.type === 'dense_vector' ? DENSE_VECTOR_PARAMETERS : new Set([...Object.keys(current.params), ...Object.keys(update.params)]);
  for (const k of keys) {
    const a = current.params[k];
    const b = update.params[k];
    if (sameValue(a, b)) continue;
    if (current.type === 'dense_vector') {
      const merged = mergeDenseVectorParam(k, a, b);
      if ('conflict' in merged) conflicts.push(merged.conflict);
      else if (merged.value === undefined) delete params[k];
      else params[k] = merged.value;
    } else if (UPDATABLE.has(k)) {
      if (b === undefined) delete params[k];
      else params[k] = b;
    } else {
      conflicts.push(`Cannot update parameter [${k}] from [${a === undefined ? 'default' : String(a)}] to [${b === undefined ? 'default' : String(b)}]`);
    }
  }
  if (conflicts.length > 0) {
    throw new IllegalArgumentError(`Mapper for [${path}] conflicts with existing mapper:\n\t${conflicts.join('\n\t')}`);
  }
  const fields = new Map(current.fields);
  for (const [name, sub] of update.fields) {
    const existing = fields.get(name);
    fields.set(name, existing ? mergeField(`${path}.${name}`, existing, sub) : sub);
  }
  return { kind: 'field', type: current.type, params: current.type === 'dense_vector' ? inParameterOrder(params) : params, fields };
}

function mergeMapper(path: string, current: Mapper, update: Mapper): Mapper {
  if (current.kind === 'object' && update.kind === 'object') return mergeObject(path, current, update);
  if (current.kind === 'field' && update.kind === 'field') return mergeField(path, current, update);
  if (current.kind === 'field') {
    throw new IllegalArgumentError(`can't merge a non object mapping [${path}] with an object mapping`);
  }
  throw new IllegalArgumentError(`can't merge a non object mapping [${path}] with an object mapping`);
}

function mergeObject<T extends ObjectMapper>(path: string, current: T, update: ObjectMapper): T {
  const properties = new Map(current.properties);
  for (const [name, m] of update.properties) {
    const childPath = path ? `${path}.${name}` : name;
    const existing = properties.get(name);
    properties.set(name, existing ? mergeMapper(childPath, existing, m) : m);
  }
  if (update.enabled !== current.enabled && path !== '') {
    throw new IllegalArgumentError(`the [enabled] parameter can't be updated for the object mapping [${path}]`);
  }
  return { ...current, properties, dynamic: update.dynamic ?? current.dynamic };
}

export function mergeRootMapping(current: RootMapping, update: RootMapping): RootMapping {
  const merged = mergeObject('', current, update);
  let source = current.source;
  if (update.source !== null && !sameValue(update.source, current.source)) {
    if (current.source !== null && current.source.enabled !== update.source.enabled) {
      throw new IllegalArgumentError('Mapper for [_source] conflicts with existing mapper:\n\tCannot update parameter [enabled] from [' + current.source.enabled + '] to [' + update.source.enabled + ']');
    }
    source = update.source;
  }
  return {
    ...merged,
    source,
    // ES RootObjectMapper.merge: only explicitly given root parameters replace the current ones.
    dateDetection: update.explicitParams.has('date_detection') ? update.dateDetection : current.dateDetection,
    numericDetection: update.explicitParams.has('numeric_detection') ? update.numericDetection : current.numericDetection,
    dynamicDateFormats: update.explicitParams.has('dynamic_date_formats') ? update.dynamicDateFormats : current.dynamicDateFormats,
    explicitParams: new Set([...current.explicitParams, ...update.explicitParams]),
    meta: update.meta ?? current.meta,
  };
}
