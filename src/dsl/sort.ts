/**
 * `sort`: a bare string, an object, or an array of them (ES SortBuilder.fromXContent).
 * `_score` defaults to descending, everything else to ascending.
 */
import { ParsingError, IllegalArgumentError } from '../errors/index.js';
import { forEachEntry, isObject, mapItems, readString, within } from './parse-helpers.js';
import type { TermValue } from './query-nodes.js';
import { parseScriptSpec, type ScriptSpec } from './script/script-spec.js';
import { objectField, unknownField } from './object-parser.js';

export type SortOrder = 'asc' | 'desc';
export type SortMode = 'min' | 'max' | 'avg' | 'sum' | 'median';

export type SortSpec =
  | { readonly kind: 'score'; readonly order: SortOrder }
  | { readonly kind: 'doc'; readonly order: SortOrder }
  /** `_shard_doc`: the tiebreaker of point-in-time searches, one value per document of the PIT. */
  | { readonly kind: 'shard_doc'; readonly order: SortOrder }
  /** `_script` (ES ScriptSortBuilder): documents ordered by a script's number or string. */
  | { readonly kind: 'script'; readonly type: 'number' | 'string'; readonly script: ScriptSpec; readonly order: SortOrder }
  | {
      readonly kind: 'field';
      readonly field: string;
      readonly order: SortOrder;
      /** `_last` (default), `_first`, or a value to use for documents without one. */
      readonly missing: '_last' | '_first' | TermValue;
      readonly mode: SortMode | null;
      readonly unmappedType: string | null;
      readonly format: string | null;
    };

function order(v: unknown): SortOrder {
  const s = readString('sort', 'order', v).toLowerCase();
  if (s === 'asc' || s === 'desc') return s;
  throw new IllegalArgumentError(`Unknown SortOrder [${String(v)}]`);
}

const SCRIPT_SORT_MEMBERS = ['script', 'type', 'order', 'mode', 'nested'];

/** ScriptSortBuilder's ConstructingObjectParser: `script` and `type` required; `mode` is moot for one value per document. */
function scriptSort(opts: unknown): SortSpec {
  if (!isObject(opts)) throw new ParsingError(`[_script] failed to parse field [_script]`);
  let script: ScriptSpec | null = null;
  let type: 'number' | 'string' | null = null;
  let o: SortOrder = 'asc';
  forEachEntry(opts, (k, v) => {
    switch (k) {
      case 'script': script = objectField('_script', k, () => parseScriptSpec(v)); return;
      case 'type': {
        type = objectField('_script', k, () => {
          const t = readString('_script', k, v);
          if (t === 'version') throw new IllegalArgumentError('[_script] sorts of [type] [version] are not supported by this server yet');
          if (t !== 'number' && t !== 'string') throw new IllegalArgumentError(`Unknown ScriptSortType [${t}]`);
          return t;
        });
        return;
      }
      case 'order': o = objectField('_script', k, () => order(v)); return;
      case 'mode': objectField('_script', k, () => readString('_script', k, v)); return;
      case 'nested': throw new IllegalArgumentError('[_script] sorts with [nested] are not supported by this server yet');
      default: throw unknownField('_script', k, SCRIPT_SORT_MEMBERS);
    }
  });
  const missing = [script === null ? 'script' : null, type === null ? 'type' : null].filter((m) => m !== null);
  if (missing.length > 0) throw new IllegalArgumentError(`Required [${missing.join(', ')}]`);
  return { kind: 'script', type: type!, script: script!, order: o };
}

function one(field: string, opts: unknown): SortSpec {
  if (field === '_script') return scriptSort(opts);
  if (field === '_score' || field === '_doc' || field === '_shard_doc') {
    let o: SortOrder = field === '_score' ? 'desc' : 'asc';
    if (typeof opts === 'string') o = order(opts);
    else if (isObject(opts)) {
      forEachEntry(opts, (k, v) => {
        if (k === 'order') o = order(v);
        else throw new ParsingError(`[${field === '_score' ? '_score' : 'sort'}] unknown field [${k}]`);
      });
    }
    return field === '_score' ? { kind: 'score', order: o } : { kind: field === '_doc' ? 'doc' : 'shard_doc', order: o };
  }
  let o: SortOrder = 'asc';
  let missing: '_last' | '_first' | TermValue = '_last';
  let mode: SortMode | null = null;
  let unmappedType: string | null = null;
  let format: string | null = null;
  if (typeof opts === 'string') o = order(opts);
  else if (isObject(opts)) {
    forEachEntry(opts, (k, v) => {
      switch (k) {
        case 'order': o = order(v); break;
        case 'missing':
          if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new ParsingError(`[field_sort] failed to parse field [missing]`);
          missing = v;
          break;
        case 'mode': {
          const m = readString('sort', k, v).toLowerCase();
          if (!['min', 'max', 'avg', 'sum', 'median'].includes(m)) throw new IllegalArgumentError(`Unknown SortMode [${m}]`);
          mode = m as SortMode;
          break;
        }
        case 'unmapped_type': unmappedType = readString('sort', k, v); break;
        case 'format': format = readString('sort', k, v); break;
        case 'numeric_type': readString('sort', k, v); break;
        default: throw new ParsingError(`[field_sort] unknown field [${k}]`);
      }
    });
  } else if (opts !== undefined) {
    throw new ParsingError(`[sort] failed to parse field [${field}]`);
  }
  return { kind: 'field', field, order: o, missing, mode, unmappedType, format };
}

export function parseSort(json: unknown): SortSpec[] {
  return mapItems(json, (item) => {
    if (typeof item === 'string') return one(item, undefined);
    if (!isObject(item)) throw new ParsingError(`[sort] unexpected token [${item === null ? 'VALUE_NULL' : typeof item}]`);
    const keys = Object.keys(item);
    if (keys.length !== 1) throw new ParsingError(`[sort] expected a single field per sort object, found [${keys.join(', ')}]`);
    return within(keys[0], () => one(keys[0], item[keys[0]]));
  });
}

/** URL form `sort=field:desc,other` (ES RestSearchAction). */
export function parseSortParam(param: string): SortSpec[] {
  return param.split(',').filter((s) => s.length > 0).map((s) => {
    const i = s.lastIndexOf(':');
    return i < 0 ? one(s, undefined) : one(s.slice(0, i), s.slice(i + 1));
  });
}
