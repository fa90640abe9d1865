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

/** An action line read by NdjsonLines.usualAction: its action and the object JSON.parse would give for its metadata. */
interface UsualAction {
  readonly name: OpType;
  readonly meta: Record<string, unknown>;
}

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
/** The bytes after `{"` of the usual action lines, up to their metadata's first key. */
const INDEX_OPEN = ascii('index":{');
const CREATE_OPEN = ascii('create":{');
const DELETE_OPEN = ascii('delete":{');
const UPDATE_OPEN = ascii('update":{');
const INDEX_KEY = ascii('"_index":"');
const ID_KEY = ascii('"_id":"');

function matches(body: Buffer, at: number, bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (body[at + i] !== bytes[i]) return false;
  return true;
}

/**
 * The lines of an NDJSON body, `\r\n` or `\n` terminated. Bytes are split on the bytes and each
 * line decoded alone (a newline byte is never part of a multi-byte character, so this reads
 * exactly what decoding the whole body would); a string is sliced.
 */
class NdjsonLines {
  private pos = 0;
  private lastIndex: string | null = null;
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

  /**
   * The usual action line — `{"<action>":{"_index":"…","_id":"…"}}`, one or both keys in either order,
   * printable ASCII values without escapes, no whitespace — read straight from the bytes into what
   * JSON.parse makes of it, without decoding the line or running JSON.parse (together ~15% of the
   * coordinator's CPU in a bulk load, issue 19). Null, with nothing consumed, for any other line (a
   * string body, another shape, whitespace, escapes, non-ASCII), which `next` and readItem read.
   */
  usualAction(): UsualAction | null {
    const body = this.body;
    if (typeof body === 'string') return null;
    let p = this.pos;
    if (body[p] !== 0x7b || body[p + 1] !== 0x22) return null;
    p += 2;
    let name: OpType;
    if (matches(body, p, INDEX_OPEN)) name = 'index';
    else if (matches(body, p, CREATE_OPEN)) name = 'create';
    else if (matches(body, p, DELETE_OPEN)) name = 'delete';
    else if (matches(body, p, UPDATE_OPEN)) name = 'update';
    else return null;
    p += INDEX_OPEN.length + (name === 'index' ? 0 : 1);
    let index: string | null = null;
    let id: string | null = null;
    let indexFirst = false;
    for (;;) {
      let isIndex: boolean;
      if (index === null && matches(body, p, INDEX_KEY)) {
        isIndex = true;
        p += INDEX_KEY.length;
      } else if (id === null && matches(body, p, ID_KEY)) {
        isIndex = false;
        p += ID_KEY.length;
      } else return null;
      const start = p;
      for (let c = body[p]; c !== 0x22; c = body[++p]) if (!(c >= 0x20 && c < 0x7f && c !== 0x5c)) return null; // ends at the closing quote; undefined past the end fails
      if (isIndex) {
        index = this.indexName(start, p);
        indexFirst = id === null;
      } else {
        // The id through JSON.parse all the same (its quoted bytes alone): V8 internalizes the short
        // strings it parses, and the shard's live version map (a Map keyed by id) was measurably
        // slower to look up with plain strings — more than parsing the quoted id costs.
        id = JSON.parse(body.toString('latin1', start - 1, p + 1)) as string;
      }
      p++;
      if (body[p] === 0x2c) p++;
      else if (body[p] === 0x7d && body[p + 1] === 0x7d) break;
      else return null;
    }
    p += 2;
    // The line must end here: `\n`, `\r\n` or the body's end.
    if (p < this.length && body[p] !== 0x0a && !(body[p] === 0x0d && body[p + 1] === 0x0a)) return null;
    this.pos = body[p] === 0x0d ? p + 2 : p + 1;
    this.line++;
    const meta: Record<string, unknown> = index === null ? { _id: id } : id === null ? { _index: index } : indexFirst ? { _index: index, _id: id } : { _id: id, _index: index };
    return { name, meta };
  }

  /** The previous usual line's index name when the bytes are the same (they usually are): one string, not one per item. */
  private indexName(start: number, end: number): string {
    const body = this.body as Buffer;
    const last = this.lastIndex;
    if (last !== null && end - start === last.length) {
      let same = true;
      for (let i = 0; i < last.length && same; i++) same = body[start + i] === last.charCodeAt(i);
      if (same) return last;
    }
    return (this.lastIndex = body.toString('latin1', start, end));
  }

  /** The body, for items that decode their source lines when first read (BulkLineItem). */
  get text(): string | Buffer {
    return this.body;
  }

  /**
   * Steps over the next line without decoding it, leaving where it lies in `lineStart`/`lineEnd`
   * (its `\r\n` or `\n` excluded); false at the body's end.
   */
  skip(): boolean {
    if (this.pos >= this.length) return false;
    const body = this.body;
    const start = this.pos;
    let nl = typeof body === 'string' ? body.indexOf('\n', start) : body.indexOf(0x0a, start);
    if (nl < 0) nl = this.length;
    this.pos = nl + 1;
    this.line++;
    let end = nl;
    if (end > start && (typeof body === 'string' ? body.charCodeAt(end - 1) : body[end - 1]) === 0x0d) end--;
    this.lineStart = start;
    this.lineEnd = end;
    return true;
  }

  lineStart = 0;
  lineEnd = 0;

  next(): string | null {
    if (!this.skip()) return null;
    const body = this.body;
    return typeof body === 'string' ? body.slice(this.lineStart, this.lineEnd) : body.toString('utf8', this.lineStart, this.lineEnd);
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
  for (;;) {
    const usual = lines.usualAction();
    let item: BulkItem;
    if (usual !== null) item = itemOf(lines, usual.name, usual.meta, defaultIndex);
    else {
      const text = lines.next();
      if (text === null) break;
      if (blank(text)) continue;
      item = readItem(lines, text, defaultIndex);
    }
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
  return itemOf(lines, name as OpType, meta, defaultIndex);
}

/**
 * An item whose source line is decoded from the body when first read, not when the body is split:
 * a request's 5,000 source strings (~0.27 KB each for short documents) then exist only from their
 * item's write (or its pipelines) on, and die with it, instead of all living from the split to the
 * request's last write through the coordinator's scavenges (issue 22). The same text either way.
 */
class BulkLineItem implements BulkItem {
  private decoded: string | null = null;

  constructor(
    readonly action: OpType,
    readonly index: string | null,
    readonly id: string | null,
    readonly meta: Record<string, unknown>,
    private readonly body: string | Buffer | null,
    private readonly start: number,
    private readonly end: number,
  ) {}

  get source(): string | null {
    const body = this.body;
    if (this.decoded === null && body !== null) this.decoded = typeof body === 'string' ? body.slice(this.start, this.end) : body.toString('utf8', this.start, this.end);
    return this.decoded;
  }
}

/** An item from its checked action line: the target, the id and, but for a delete, the next line as its source. */
function itemOf(lines: NdjsonLines, name: OpType, meta: Record<string, unknown>, defaultIndex: string | null): BulkItem {
  const index = meta._index !== undefined ? String(meta._index) : defaultIndex;
  const id = meta._id !== undefined && meta._id !== null ? String(meta._id) : null;
  if (name === 'delete') return new BulkLineItem(name, index, id, meta, null, 0, 0);
  if (!lines.skip()) throw new IllegalArgumentError(`The bulk request must be terminated by a newline [\\n]`);
  return new BulkLineItem(name, index, id, meta, lines.text, lines.lineStart, lines.lineEnd);
}
