/**
 * Bodies of the snapshot APIs (ES PutRepositoryRequest.source, CreateSnapshotRequest.source,
 * RestoreSnapshotRequest.source): typed requests with ES's messages for malformed sections.
 * Where ES silently ignores an unknown key (repository and create bodies) this server refuses it,
 * so a typo (`include_global_sate`) never goes unnoticed; restore refuses as ES does.
 * `rename_pattern` is compiled here for the matcher VM (common/pattern/java-pattern.ts: Java's
 * String.replaceAll semantics, groups included), never to a backtracking RegExp.
 */
import { ActionRequestValidationError, IllegalArgumentError } from '../errors/index.js';
import { JavaPattern, type Replacement } from '../common/pattern/index.js';
import { isObject, type JsonObject } from './parse-helpers.js';
import { parseWildcardStates } from './wildcard-states.js';

export interface PutRepositoryBody {
  readonly type: string;
  /** Flattened (`{a: {b: 1}}` → `a.b`), values as strings, as ES's Settings hold them. */
  readonly settings: Readonly<Record<string, string>>;
}

/** The index selection both create and restore take (ES IndicesOptions.fromMap keys). */
export interface SnapshotIndices {
  /** null: every index. */
  readonly indices: readonly string[] | null;
  readonly ignoreUnavailable: boolean;
  readonly allowNoIndices: boolean;
}

export interface CreateSnapshotBody extends SnapshotIndices {
  readonly includeGlobalState: boolean;
  readonly partial: boolean;
  readonly metadata: JsonObject | null;
}

export interface RestoreSnapshotBody extends SnapshotIndices {
  readonly includeGlobalState: boolean;
  readonly includeAliases: boolean;
  readonly partial: boolean;
  /** rename_pattern + rename_replacement, when both are given (ES ignores one alone). */
  readonly rename: IndexRename | null;
  /** Settings to set on the restored indices (nested or flat, as in create index). */
  readonly indexSettings: JsonObject | null;
  /** Settings not to restore. */
  readonly ignoreIndexSettings: readonly string[];
}

/** ES's limit on a snapshot's user metadata (CreateSnapshotRequest.validate). */
const MAX_METADATA_BYTES = 1024;

/** ES XContentMapValues.nodeBooleanValue(value, name). */
function nodeBoolean(name: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new IllegalArgumentError(`Could not convert [${name}] to boolean`, new IllegalArgumentError(`Failed to parse value [${typeof v === 'string' ? v : JSON.stringify(v)}] as only [true] or [false] are allowed.`));
}

function stringList(v: unknown, malformed: string): string[] {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v as string[];
  throw new IllegalArgumentError(malformed);
}

function requireObject(body: unknown): JsonObject {
  if (body === null || body === undefined) return {};
  if (!isObject(body)) throw new IllegalArgumentError('request body must be a JSON object');
  return body;
}

function flattenRepositorySettings(prefix: string, v: JsonObject, out: Record<string, string>): void {
  for (const [k, value] of Object.entries(v)) {
    const key = prefix + k;
    if (isObject(value)) flattenRepositorySettings(`${key}.`, value, out);
    else if (Array.isArray(value)) out[key] = value.map(String).join(',');
    else if (value !== null) out[key] = String(value);
  }
}

export function parsePutRepositoryBody(raw: unknown): PutRepositoryBody {
  const body = requireObject(raw);
  let type: string | null = null;
  const settings: Record<string, string> = {};
  for (const [key, v] of Object.entries(body)) {
    if (key === 'type') {
      if (v === null || isObject(v) || Array.isArray(v)) throw new IllegalArgumentError('[type] must be a string');
      type = String(v);
    } else if (key === 'settings') {
      if (!isObject(v)) throw new IllegalArgumentError('Malformed settings section, should include an inner object');
      flattenRepositorySettings('', v, settings);
    } else throw new IllegalArgumentError(`unknown key [${key}] for a repository definition`);
  }
  if (type === null || type === '') throw new ActionRequestValidationError(['type is missing']);
  return { type, settings };
}

/** Handles the IndicesOptions keys; false when `key` is not one of them. */
function indicesOption(key: string, v: unknown, out: { ignoreUnavailable: boolean; allowNoIndices: boolean }): boolean {
  switch (key) {
    case 'ignore_unavailable':
      out.ignoreUnavailable = nodeBoolean(key, v);
      return true;
    case 'allow_no_indices':
      out.allowNoIndices = nodeBoolean(key, v);
      return true;
    case 'expand_wildcards':
      // Validated as ES does; which indices a snapshot takes is decided by `indices` alone here.
      parseWildcardStates(stringList(v, `malformed ${key}, should be a string or an array of strings`), { open: true, closed: false, hidden: false });
      return true;
    case 'ignore_throttled':
      nodeBoolean(key, v);
      return true;
    default:
      return false;
  }
}

function featureStates(v: unknown): void {
  const states = stringList(v, 'malformed feature_states section, should be an array of strings');
  // This server has no system features: only the empty selection ES accepts everywhere is meaningful.
  const other = states.find((s) => s !== 'none');
  if (other !== undefined) throw new IllegalArgumentError(`requested feature states [[${other}]] are not present in snapshot`);
}

/** The keys create and restore share; false when `key` is none of them. */
function commonKey(key: string, v: unknown, out: CommonFields): boolean {
  if (indicesOption(key, v, out)) return true;
  switch (key) {
    case 'indices':
      out.indices = stringList(v, 'malformed indices section, should be an array of strings');
      return true;
    case 'feature_states':
      featureStates(v);
      return true;
    case 'partial':
      out.partial = nodeBoolean(key, v);
      return true;
    case 'include_global_state':
      out.includeGlobalState = nodeBoolean(key, v);
      return true;
    default:
      return false;
  }
}

interface CommonFields {
  indices: string[] | null;
  ignoreUnavailable: boolean;
  allowNoIndices: boolean;
  partial: boolean;
  includeGlobalState: boolean;
}

export function parseCreateSnapshotBody(raw: unknown): CreateSnapshotBody {
  const body = requireObject(raw);
  const common: CommonFields = { indices: null, ignoreUnavailable: false, allowNoIndices: true, partial: false, includeGlobalState: true };
  let metadata: JsonObject | null = null;
  for (const [key, v] of Object.entries(body)) {
    if (commonKey(key, v, common)) continue;
    if (key !== 'metadata') throw new IllegalArgumentError(`unknown key [${key}] for a create snapshot request`);
    if (v !== null && !isObject(v)) throw new IllegalArgumentError('malformed metadata, should be an object');
    metadata = v;
  }
  if (metadata !== null) {
    const size = new TextEncoder().encode(JSON.stringify(metadata)).length;
    if (size > MAX_METADATA_BYTES) throw new ActionRequestValidationError([`metadata must be smaller than 1024 bytes, but was [${size}]`]);
  }
  return { ...common, metadata };
}

export function parseRestoreSnapshotBody(raw: unknown): RestoreSnapshotBody {
  const body = requireObject(raw);
  const common: CommonFields = { indices: null, ignoreUnavailable: false, allowNoIndices: true, partial: false, includeGlobalState: false };
  let includeAliases = true;
  let renamePattern: string | null = null;
  let renameReplacement: string | null = null;
  let indexSettings: JsonObject | null = null;
  let ignoreIndexSettings: string[] = [];
  for (const [key, v] of Object.entries(body)) {
    if (commonKey(key, v, common)) continue;
    switch (key) {
      case 'include_aliases':
        includeAliases = nodeBoolean(key, v);
        break;
      case 'rename_pattern':
        if (typeof v !== 'string') throw new IllegalArgumentError('malformed rename_pattern');
        renamePattern = v;
        break;
      case 'rename_replacement':
        if (typeof v !== 'string') throw new IllegalArgumentError('malformed rename_replacement');
        renameReplacement = v;
        break;
      case 'index_settings':
        if (!isObject(v)) throw new IllegalArgumentError('malformed index_settings section');
        indexSettings = v;
        break;
      case 'ignore_index_settings':
        ignoreIndexSettings = stringList(v, 'malformed ignore_index_settings section, should be an array of strings');
        break;
      default:
        throw new IllegalArgumentError(`Unknown parameter ${key}`);
    }
  }
  const rename = renamePattern !== null && renameReplacement !== null ? new IndexRename(renamePattern, renameReplacement) : null;
  return { ...common, includeAliases, rename, indexSettings, ignoreIndexSettings };
}

/** ES RestoreService's `index.replaceAll(renamePattern, renameReplacement)`, on the matcher VM. */
export class IndexRename {
  private readonly pattern: JavaPattern;
  private readonly replacement: Replacement;

  constructor(pattern: string, replacement: string) {
    this.pattern = JavaPattern.compile(pattern);
    this.replacement = this.pattern.replacement(replacement);
  }

  replaceAll(name: string): string {
    return this.pattern.replace(name, this.replacement, true);
  }
}
