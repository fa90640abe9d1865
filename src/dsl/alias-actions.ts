/**
 * Alias request bodies (ES IndicesAliasesRequest.AliasActions and Alias): the `actions` of
 * `POST /_aliases`, the body of `PUT /{index}/_alias/{name}` and the `aliases` of `PUT /{index}`.
 * Each becomes plain data; the cluster applies it. A `filter` is parsed here once to validate it
 * (ES refuses a bad alias filter when the alias is added) and kept as JSON, which is what the
 * cluster state stores and `GET /_alias` shows.
 */
import { ActionRequestValidationError, IllegalArgumentError, XContentParseError, EsError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { forEachEntry, isObject, mapItems, within, parseBody, readBoolean, readString, type JsonObject } from './parse-helpers.js';
import { parseQuery } from './queries/registry.js';

/** What an alias says about one index it points to. */
export interface AliasProperties {
  /** A query (as sent) that searches through the alias are filtered by; null for none. */
  readonly filter: JsonObject | null;
  /** true: writes through the alias go to this index; false: never; null: only when it is the alias's one index. */
  readonly isWriteIndex: boolean | null;
  readonly isHidden: boolean | null;
}

export type AliasAction =
  | { readonly kind: 'add'; readonly indices: readonly string[]; readonly aliases: readonly string[]; readonly properties: AliasProperties; readonly mustExist: boolean | null }
  | { readonly kind: 'remove'; readonly indices: readonly string[]; readonly aliases: readonly string[]; readonly mustExist: boolean | null }
  | { readonly kind: 'remove_index'; readonly indices: readonly string[] };

const ACTIONS = ['add', 'remove', 'remove_index'] as const;

/**
 * Routing through an alias changes which shard a document goes to; this server refuses it rather
 * than ignoring it, so no client believes its documents are routed when they are not.
 */
function refuseRouting(key: string): never {
  throw new IllegalArgumentError(`alias [${key}] is not supported by this server`);
}

function validateFilter(filter: unknown, alias: string): JsonObject {
  if (!isObject(filter)) throw new XContentParseError(`[filter] must be an object but found [${tokenName(filter)}]`);
  try {
    parseQuery(filter);
  } catch (e) {
    // ES AliasValidator: "failed to parse filter for alias [x]" with the query's error as the cause.
    if (e instanceof EsError) throw new IllegalArgumentError(`failed to parse filter for alias [${alias}]`, e);
    throw e;
  }
  return filter;
}

/** The body of `PUT /{index}/_alias/{name}` (ES RestIndexPutAliasAction) or one entry of create-index `aliases`. */
export function parseAliasProperties(body: JsonObject, owner: string, alias: string): AliasProperties {
  let filter: JsonObject | null = null;
  let isWriteIndex: boolean | null = null;
  let isHidden: boolean | null = null;
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'filter': filter = validateFilter(v, alias); break;
      case 'is_write_index': isWriteIndex = readBoolean(owner, k, v); break;
      case 'is_hidden': isHidden = readBoolean(owner, k, v); break;
      case 'routing': case 'index_routing': case 'search_routing': refuseRouting(k); break;
      default: throw new XContentParseError(`[${owner}] unknown field [${k}]`, undefined, 'key');
    }
  });
  return { filter, isWriteIndex, isHidden };
}

/** `index` / `indices`, `alias` / `aliases`: one string or an array of strings, one form only. */
function names(owner: string, single: string, plural: string, body: JsonObject): string[] | null {
  if (body[single] !== undefined && body[plural] !== undefined) {
    throw new IllegalArgumentError(`Only one of [${single}] and [${plural}] is supported`);
  }
  const v = body[single] ?? body[plural];
  if (v === undefined) return null;
  const out = body[single] !== undefined ? [readString(owner, single, v)] : mapItems(v, (x) => readString(owner, plural, x));
  if (out.some((n) => n === '')) throw new IllegalArgumentError(`[${body[single] !== undefined ? single : plural}] can't be empty`);
  return out;
}

function parseAction(kind: (typeof ACTIONS)[number], body: unknown): AliasAction {
  if (!isObject(body)) throw new XContentParseError(`[${kind}] expected START_OBJECT but found [${tokenName(body)}]`);
  const indices = names(kind, 'index', 'indices', body);
  const aliases = kind === 'remove_index' ? null : names(kind, 'alias', 'aliases', body);
  let mustExist: boolean | null = null;
  const props: JsonObject = {};
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'index': case 'indices': break;
      case 'alias': case 'aliases':
        if (kind === 'remove_index') throw new XContentParseError(`[${kind}] unknown field [${k}]`, undefined, 'key');
        break;
      case 'must_exist':
        if (kind === 'remove_index') throw new XContentParseError(`[${kind}] unknown field [${k}]`, undefined, 'key');
        mustExist = readBoolean(kind, k, v);
        break;
      case 'filter': case 'is_write_index': case 'is_hidden': case 'routing': case 'index_routing': case 'search_routing':
        if (kind !== 'add') throw new IllegalArgumentError(`[${k}] is unsupported for [${kind}]`);
        props[k] = v;
        break;
      default: throw new XContentParseError(`[${kind}] unknown field [${k}]`, undefined, 'key');
    }
  });
  // ES AliasActions.validate(), reported as one action_request_validation_exception.
  const problems: string[] = [];
  if (indices === null) problems.push('One of [index] or [indices] is required');
  if (kind !== 'remove_index' && aliases === null) problems.push('One of [alias] or [aliases] is required');
  if (problems.length > 0) throw new ActionRequestValidationError(problems);
  if (kind === 'remove_index') return { kind, indices: indices! };
  if (kind === 'remove') return { kind, indices: indices!, aliases: aliases!, mustExist };
  return { kind, indices: indices!, aliases: aliases!, properties: parseAliasProperties(props, kind, aliases![0]), mustExist };
}

/** `POST /_aliases`: `{"actions": [{"add": {...}}, {"remove": {...}}, {"remove_index": {...}}]}`. */
export function parseAliasActions(body: JsonObject): AliasAction[] {
  return parseBody(() => {
    let actions: AliasAction[] | null = null;
    forEachEntry(body, (k, v) => {
      if (k !== 'actions') throw new XContentParseError(`[aliases] unknown field [${k}]`, undefined, 'key');
      actions = mapItems(v, (item) => {
        if (!isObject(item)) throw new XContentParseError(`[alias_action] expected START_OBJECT but found [${tokenName(item)}]`);
        const keys = Object.keys(item);
        if (keys.length !== 1) throw new IllegalArgumentError(keys.length === 0 ? 'Expected one of [add, remove, remove_index] but found none' : `Too many operations declared on operation entry`);
        const kind = keys[0];
        if (!(ACTIONS as readonly string[]).includes(kind)) throw new XContentParseError(`[alias_action] unknown field [${kind}]`, undefined, 'key');
        return within(kind, () => parseAction(kind as (typeof ACTIONS)[number], item[kind]));
      });
    });
    if (actions === null || (actions as AliasAction[]).length === 0) throw new ActionRequestValidationError(['At least one action is required']);
    return actions;
  });
}

/** Create-index `aliases`: `{"name": {filter, is_write_index, …}}`. */
export function parseIndexAliases(v: unknown): Map<string, AliasProperties> {
  if (!isObject(v)) throw new IllegalArgumentError(`[aliases] must be an object but found [${tokenName(v)}]`);
  const out = new Map<string, AliasProperties>();
  forEachEntry(v, (name, props) => {
    if (!isObject(props)) throw new IllegalArgumentError(`[${name}] must be an object but found [${tokenName(props)}]`);
    out.set(name, parseAliasProperties(props, 'alias', name));
  });
  return out;
}
