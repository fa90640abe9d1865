/**
 * `_bulk` bodies (ES BulkRequestParser): NDJSON action/metadata lines, each `index`/`create` with a
 * source line, `update` with a `{doc, upsert, doc_as_upsert}` line, `delete` alone. Structural
 * errors fail the whole request (400) here; everything about one item (its source line, options,
 * rights) is left to execution, where it fails only that item.
 */
import { ActionRequestValidationError, EsError, IllegalArgumentError, previewInput } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { checkNestingDepth, parseJson, parseJsonChecked, tokenName } from './json-body.js';

/** ES DocWriteRequest.OpType. */
export type OpType = 'index' | 'create' | 'update' | 'delete';

const ACTIONS = new Set<OpType>(['index', 'create', 'update', 'delete']);
const METADATA = new Set(['_index', '_id', 'routing', 'pipeline', 'if_seq_no', 'if_primary_term', 'version', 'version_type', 'require_alias', 'require_data_stream', 'retry_on_conflict', 'dynamic_templates', '_source', 'op_type', 'list_executed_pipelines']);

export interface BulkItem {
  readonly action: OpType;
  readonly index: string | null;
  readonly id: string | null;
  readonly meta: Record<string, unknown>;
  /** The source (or update body) line, for all but delete. */
  readonly source: string | null;
}

function malformed(line: number, detail: string): IllegalArgumentError {
  return new IllegalArgumentError(`Malformed action/metadata line [${line}], ${detail}`);
}

const utf8 = new TextEncoder();

/**
 * ES DocWriteRequest.validateDocIdLength: ids are at most 512 UTF-8 bytes. The message, or null; it
 * quotes the id as ES does, but no more than 600 characters of it.
 */
export function idTooLong(id: string | null): string | null {
  // 128 UTF-16 units are at most 512 UTF-8 bytes: only longer ids are measured.
  if (id === null || id.length <= 128) return null;
  const bytes = utf8.encode(id).length;
  return bytes > 512 ? `id [${previewInput(id, 600)}] is too long, must be no longer than 512 bytes but was: ${bytes}` : null;
}

/** Splits and validates the NDJSON structure; item-level problems are left to execution. */
export function parseBulkBody(body: string, defaultIndex: string | null): BulkItem[] {
  if (!body.endsWith('\n')) throw new IllegalArgumentError('The bulk request must be terminated by a newline [\\n]');
  const items: BulkItem[] = [];
  let pos = 0;
  let line = 0;
  const nextLine = (): string | null => {
    if (pos >= body.length) return null;
    const nl = body.indexOf('\n', pos);
    const text = body.slice(pos, nl < 0 ? body.length : nl);
    pos = nl < 0 ? body.length : nl + 1;
    line++;
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for (let text = nextLine(); text !== null; text = nextLine()) {
    if (text.trim() === '') continue;
    let action: unknown;
    checkNestingDepth(text);
    try {
      action = JSON.parse(text);
    } catch {
      throw malformed(line, `expected START_OBJECT or END_OBJECT but found [${text.trimStart().startsWith('"') ? 'VALUE_STRING' : 'invalid JSON'}]`);
    }
    if (!isPlainObject(action)) throw malformed(line, `expected START_OBJECT or END_OBJECT but found [${Array.isArray(action) ? 'START_ARRAY' : 'VALUE_STRING'}]`);
    const keys = Object.keys(action);
    if (keys.length !== 1) throw malformed(line, `expected field [create], [delete], [index] or [update] but found [${keys[1] ?? 'END_OBJECT'}]`);
    const name = keys[0];
    if (!ACTIONS.has(name as OpType)) throw malformed(line, `expected field [create], [delete], [index] or [update] but found [${name}]`);
    const meta = action[name];
    if (!isPlainObject(meta)) throw malformed(line, `expected START_OBJECT but found [${meta === null ? 'VALUE_NULL' : 'VALUE_STRING'}]`);
    for (const k of Object.keys(meta)) {
      if (!METADATA.has(k)) throw new IllegalArgumentError(`Action/metadata line [${line}] contains an unknown parameter [${k}]`);
      const v = meta[k];
      // ES BulkRequestParser reads each metadata value as text: an object or array is malformed.
      if (v !== null && typeof v === 'object' && k !== 'dynamic_templates' && k !== '_source') throw malformed(line, `expected a simple value for field [${k}] but found [${tokenName(v)}]`);
    }
    const index = meta._index !== undefined ? String(meta._index) : defaultIndex;
    const id = meta._id !== undefined && meta._id !== null ? String(meta._id) : null;
    let source: string | null = null;
    if (name !== 'delete') {
      source = nextLine();
      if (source === null) throw new IllegalArgumentError(`The bulk request must be terminated by a newline [\\n]`);
    }
    items.push({ action: name as OpType, index, id, meta, source });
  }
  const missing = items.filter((it) => it.index === null).map((): string => 'index is missing');
  if (missing.length > 0) throw new ActionRequestValidationError(missing);
  const noId = items.filter((it) => (it.action === 'update' || it.action === 'delete') && it.id === null);
  if (noId.length > 0) throw new ActionRequestValidationError(noId.map(() => 'id is missing'));
  // As a single-document write would: the whole request fails validation (ES BulkRequest.validate).
  // (The first 100 suffice: the reason shows no more than its first KB.)
  const tooLong = items.map((it) => idTooLong(it.id)).filter((m): m is string => m !== null).slice(0, 100);
  if (tooLong.length > 0) throw new ActionRequestValidationError(tooLong);
  return items;
}

/**
 * A source line that is not JSON fails only its item, as a document parsing error. `parseSource`
 * (the target index's, when it reads feature objects from the text) parses it first; where it
 * answers null JSON.parse decides.
 */
export function parseDocumentLine(text: string, parseSource: ((text: string) => Record<string, unknown> | null) | null = null): unknown {
  try {
    if (parseSource !== null) {
      checkNestingDepth(text);
      return parseSource(text) ?? parseJsonChecked(text);
    }
    return parseJson(text);
  } catch (e) {
    if (e instanceof EsError) throw new EsError('document_parsing_exception', `${e.message.replace(/^(\[\d+:\d+\]) (.*)$/, '$1 failed to parse: $2')}`, 400);
    throw e;
  }
}
