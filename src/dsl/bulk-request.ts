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

/**
 * The lines of an NDJSON body, `\r\n` or `\n` terminated. Bytes are split on the bytes and each
 * line decoded alone (a newline byte is never part of a multi-byte character, so this reads
 * exactly what decoding the whole body would); a string is sliced.
 */
class NdjsonLines {
  private pos = 0;
  /** The number of the line last returned, from 1. */
  line = 0;
  private readonly length: number;

  constructor(private readonly body: string | Buffer) {
    this.length = body.length;
  }

  /** True when the body ends with a newline, as ES requires. */
  terminated(): boolean {
    const body = this.body;
    return this.length > 0 && (typeof body === 'string' ? body.charCodeAt(this.length - 1) : body[this.length - 1]) === 0x0a;
  }

  next(): string | null {
    if (this.pos >= this.length) return null;
    const body = this.body;
    const start = this.pos;
    let nl = typeof body === 'string' ? body.indexOf('\n', start) : body.indexOf(0x0a, start);
    if (nl < 0) nl = this.length;
    this.pos = nl + 1;
    this.line++;
    let end = nl;
    if (end > start && (typeof body === 'string' ? body.charCodeAt(end - 1) : body[end - 1]) === 0x0d) end--;
    return typeof body === 'string' ? body.slice(start, end) : body.toString('utf8', start, end);
  }
}

/** True for a line of whitespace only (String.prototype.trim's), which the parser skips. */
function blank(text: string): boolean {
  // An action line starts with `{`: only other lines need the full check.
  return text.length === 0 || (text.charCodeAt(0) !== 0x7b && text.trim() === '');
}

/**
 * Splits and validates the NDJSON structure (the body's text, or its UTF-8 bytes); item-level
 * problems are left to execution.
 */
export function parseBulkBody(body: string | Buffer, defaultIndex: string | null): BulkItem[] {
  const lines = new NdjsonLines(body);
  if (!lines.terminated()) throw new IllegalArgumentError('The bulk request must be terminated by a newline [\\n]');
  const items: BulkItem[] = [];
  // What BulkRequest.validate reports for the whole request once the structure is read.
  let missingIndex = 0;
  let missingId = 0;
  let tooLong: string[] | null = null;
  for (let text = lines.next(); text !== null; text = lines.next()) {
    if (blank(text)) continue;
    const item = readItem(lines, text, defaultIndex);
    if (item.index === null) missingIndex++;
    if (item.id === null && (item.action === 'update' || item.action === 'delete')) missingId++;
    // (The first 100 suffice: the reason shows no more than its first KB.)
    const long = idTooLong(item.id);
    if (long !== null && (tooLong ??= []).length < 100) tooLong.push(long);
    items.push(item);
  }
  if (missingIndex > 0) throw new ActionRequestValidationError(new Array<string>(missingIndex).fill('index is missing'));
  if (missingId > 0) throw new ActionRequestValidationError(new Array<string>(missingId).fill('id is missing'));
  // As a single-document write would: the whole request fails validation (ES BulkRequest.validate).
  if (tooLong !== null) throw new ActionRequestValidationError(tooLong);
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

/**
 * One item: its action line (`text`, line `lines.line`) and, but for a delete, the source line
 * after it. Its own function, not the body of parseBulkBody's loop: V8 optimizes it as a function
 * after a few hundred items rather than compiling parseBulkBody on the fly (OSR) again and again in
 * a fresh server's first requests (issue 19).
 */
function readItem(lines: NdjsonLines, text: string, defaultIndex: string | null): BulkItem {
  const line = lines.line;
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
  for (const k in meta) {
    if (!METADATA.has(k)) throw new IllegalArgumentError(`Action/metadata line [${line}] contains an unknown parameter [${k}]`);
    const v = meta[k];
    // ES BulkRequestParser reads each metadata value as text: an object or array is malformed.
    if (v !== null && typeof v === 'object' && k !== 'dynamic_templates' && k !== '_source') throw malformed(line, `expected a simple value for field [${k}] but found [${tokenName(v)}]`);
  }
  const index = meta._index !== undefined ? String(meta._index) : defaultIndex;
  const id = meta._id !== undefined && meta._id !== null ? String(meta._id) : null;
  let source: string | null = null;
  if (name !== 'delete') {
    source = lines.next();
    if (source === null) throw new IllegalArgumentError(`The bulk request must be terminated by a newline [\\n]`);
  }
  return { action: name as OpType, index, id, meta, source };
}
