/**
 * Field discovery over mappings: `_field_caps` (ES TransportFieldCapabilitiesAction — each field's
 * type per index, whether it is searchable and aggregatable, merged across indices with the
 * indices that differ listed) and `GET _mapping/field/{fields}` (ES TransportGetFieldMappingsAction
 * — each matching field's mapping as the index renders it, under its leaf name).
 */
import { wildcardsIntersect } from '../../common/wildcard-intersection.js';
import { isPlainObject } from '../../common/json.js';
import type { IndexService } from './index-service.js';

interface Capability {
  readonly type: string;
  readonly metadata: boolean;
  readonly searchable: boolean;
  readonly aggregatable: boolean;
}

/** The metadata fields every index has, as ES 8 reports their capabilities. */
const METADATA_FIELDS: ReadonlyArray<[string, Capability]> = [
  ['_id', { type: '_id', metadata: true, searchable: true, aggregatable: false }],
  ['_ignored', { type: '_ignored', metadata: true, searchable: true, aggregatable: true }],
  ['_index', { type: '_index', metadata: true, searchable: true, aggregatable: true }],
  ['_routing', { type: '_routing', metadata: true, searchable: true, aggregatable: false }],
  ['_seq_no', { type: '_seq_no', metadata: true, searchable: true, aggregatable: true }],
  ['_source', { type: '_source', metadata: true, searchable: false, aggregatable: false }],
  ['_version', { type: '_version', metadata: true, searchable: false, aggregatable: true }],
];

function matchesAny(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => wildcardsIntersect(p, name));
}

/** Every field of one index (mapped fields, their parent objects, metadata fields) with its capability. */
function indexCapabilities(index: IndexService): Map<string, Capability> {
  const out = new Map<string, Capability>();
  const mapping = index.resolvedMapping;
  for (const path of mapping.objects) out.set(path, { type: 'object', metadata: false, searchable: false, aggregatable: false });
  for (const [path, f] of mapping.fields) out.set(path, { type: f.type, metadata: false, searchable: f.indexed, aggregatable: f.docValues });
  for (const [name, cap] of METADATA_FIELDS) out.set(name, cap);
  return out;
}

/** The `_field_caps` response body for `indices` and the requested field patterns. */
export function fieldCapabilities(indices: readonly IndexService[], patterns: readonly string[], includeUnmapped: boolean): Record<string, unknown> {
  const perIndex = indices.map((i) => ({ name: i.name, caps: indexCapabilities(i) }));
  const names = new Set<string>();
  for (const { caps } of perIndex) for (const n of caps.keys()) if (matchesAny(patterns, n)) names.add(n);
  const fields: Record<string, Record<string, unknown>> = {};
  for (const name of [...names].sort()) {
    const byType = new Map<string, Array<{ index: string; cap: Capability }>>();
    const unmapped: string[] = [];
    for (const { name: index, caps } of perIndex) {
      const cap = caps.get(name);
      if (!cap) {
        unmapped.push(index);
        continue;
      }
      const list = byType.get(cap.type) ?? [];
      list.push({ index, cap });
      byType.set(cap.type, list);
    }
    const multipleTypes = byType.size + (includeUnmapped && unmapped.length > 0 ? 1 : 0) > 1;
    const entry: Record<string, unknown> = {};
    for (const [type, list] of byType) {
      const searchable = list.every((x) => x.cap.searchable);
      const aggregatable = list.every((x) => x.cap.aggregatable);
      entry[type] = {
        type, metadata_field: list[0].cap.metadata, searchable, aggregatable,
        ...(multipleTypes ? { indices: list.map((x) => x.index) } : {}),
        ...(!searchable && list.some((x) => x.cap.searchable) ? { non_searchable_indices: list.filter((x) => !x.cap.searchable).map((x) => x.index) } : {}),
        ...(!aggregatable && list.some((x) => x.cap.aggregatable) ? { non_aggregatable_indices: list.filter((x) => !x.cap.aggregatable).map((x) => x.index) } : {}),
      };
    }
    if (includeUnmapped && unmapped.length > 0) {
      entry.unmapped = { type: 'unmapped', metadata_field: false, searchable: false, aggregatable: false, ...(multipleTypes ? { indices: unmapped } : {}) };
    }
    fields[name] = entry;
  }
  return { indices: indices.map((i) => i.name), fields };
}

/** Visits every field of a rendered mapping (multi-fields too) with its full path, leaf name and definition. */
function forEachRenderedField(properties: unknown, prefix: string, visit: (path: string, leaf: string, def: Record<string, unknown>) => void): void {
  if (!isPlainObject(properties)) return;
  for (const [name, def] of Object.entries(properties)) {
    if (!isPlainObject(def)) continue;
    const path = prefix + name;
    if (def.properties !== undefined) forEachRenderedField(def.properties, `${path}.`, visit);
    if (def.type !== undefined) visit(path, name, def);
    if (isPlainObject(def.fields)) {
      for (const [sub, subDef] of Object.entries(def.fields)) if (isPlainObject(subDef)) visit(`${path}.${sub}`, sub, subDef);
    }
  }
}

/** `GET /{index}/_mapping/field/{fields}`: `{full_name, mapping: {<leaf>: definition}}` per matching field. */
export function fieldMappings(index: IndexService, patterns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  forEachRenderedField(index.renderMapping().properties, '', (path, leaf, def) => {
    if (matchesAny(patterns, path)) out[path] = { full_name: path, mapping: { [leaf]: def } };
  });
  return out;
}
