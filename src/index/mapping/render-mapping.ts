/** RootMapping → the JSON GET _mapping returns (nested objects, parameters as given). */
import { defineOwn } from '../../common/json.js';
import type { FieldMapper, Mapper, RootMapping } from './types.js';

function renderField(m: FieldMapper): Record<string, unknown> {
  const out: Record<string, unknown> = { type: m.type, ...m.params };
  if (m.fields.size > 0) out.fields = Object.fromEntries([...m.fields].map(([k, v]) => [k, renderField(v)]));
  return out;
}

function renderMapper(m: Mapper): Record<string, unknown> {
  if (m.kind === 'field') return renderField(m);
  const out: Record<string, unknown> = {};
  if (m.dynamic !== null) out.dynamic = m.dynamic === true || m.dynamic === false ? String(m.dynamic) : m.dynamic;
  if (!m.enabled) out.enabled = false;
  if (m.properties.size > 0) out.properties = renderProperties(m.properties);
  // ES renders an empty object mapper as {"type": "object"} only when nothing else is there.
  if (Object.keys(out).length === 0) out.type = 'object';
  return out;
}

function renderProperties(props: ReadonlyMap<string, Mapper>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // ES renders properties sorted by name.
  for (const name of [...props.keys()].sort()) {
    defineOwn(out, name, renderMapper(props.get(name)!));
  }
  return out;
}

export function renderRootMapping(root: RootMapping): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (root.dynamic !== null) out.dynamic = root.dynamic === true || root.dynamic === false ? String(root.dynamic) : root.dynamic;
  if (root.meta) out._meta = root.meta;
  if (root.source) {
    const s: Record<string, unknown> = {};
    if (!root.source.enabled) s.enabled = false;
    if (root.source.includes.length > 0) s.includes = root.source.includes;
    if (root.source.excludes.length > 0) s.excludes = root.source.excludes;
    out._source = s;
  }
  // ES renders root parameters that were given explicitly (RootObjectMapper.doXContent).
  if (root.explicitParams.has('dynamic_date_formats')) out.dynamic_date_formats = root.dynamicDateFormats;
  if (root.explicitParams.has('date_detection')) out.date_detection = root.dateDetection;
  if (root.explicitParams.has('numeric_detection')) out.numeric_detection = root.numericDetection;
  if (root.properties.size > 0) out.properties = renderProperties(root.properties);
  return out;
}
