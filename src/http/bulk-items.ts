/**
 * `_bulk`'s `items`, collected as each item is written. Two forms, one text:
 *
 * - **Rendered** (every request but `refresh=true`): each item is written as JSON bytes into the
 *   response's chunks at once, a successful write's fields straight from its result. A 5,000-item
 *   request otherwise held one body object per item (and its wrapper) until the translog sync and a
 *   throttled write's wait for a refresh had returned, then stringified them in pieces, sliced and
 *   joined the pieces: ~0.75 KB of the coordinator's young generation per document, the item objects
 *   alive across scavenges during that wait (issue 22: what a smaller young generation has to copy).
 * - **Objects** (`refresh=true`): ES marks each item `forced_refresh` once the refresh is known to
 *   have been forced — which depends on whether any item was written at all — so the objects are
 *   kept and stringified after it, as before.
 */
import type { IndexService, WriteResult } from '../cluster/index.js';
import type { BulkItem } from '../dsl/index.js';
import { ChunkWriter, jsonChunksOf, type JsonChunks } from './json-chunks.js';
import { shardsWritten, writeBody } from './write-responses.js';

type OpType = BulkItem['action'];

export interface BulkItems {
  /** A write's result with its status; `get` the update's `get` section, if asked for. */
  written(action: OpType, index: IndexService, result: Pick<WriteResult, 'id' | 'version' | 'seqNo' | 'primaryTerm'> & { result: string }, status: number, get: Record<string, unknown> | null): void;
  /** Any other item (a failure, a dropped document), as its object. */
  other(item: Record<string, unknown>): void;
  /** The response: `head`, the items, `]}`; `forced` marks every item without an error `forced_refresh`. */
  finish(head: string, forced: boolean): JsonChunks;
}

/** The items as objects, stringified once the request is complete. */
export class BulkItemObjects implements BulkItems {
  private readonly results: Array<Record<string, unknown>> = [];

  written(action: OpType, index: IndexService, result: Pick<WriteResult, 'id' | 'version' | 'seqNo' | 'primaryTerm'> & { result: string }, status: number, get: Record<string, unknown> | null): void {
    const body = writeBody(index, result, false);
    body.status = status;
    if (get) body.get = get;
    this.results.push({ [action]: body });
  }

  other(item: Record<string, unknown>): void {
    this.results.push(item);
  }

  finish(head: string, forced: boolean): JsonChunks {
    if (forced) for (const r of this.results) for (const v of Object.values(r)) if (!(v as Record<string, unknown>).error) (v as Record<string, unknown>).forced_refresh = true;
    return jsonChunksOf(head, this.results, ']}');
  }
}

/** Room for the head (`{"took":…,"ingest_took":…,"errors":…,"items":[`), written last. */
const HEAD_ROOM = 128;
/** An item's bytes besides its prefix and id: field names, three numbers, the result, `_shards`. */
const ITEM_ROOM = 256;

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const VERSION = latin1(',"_version":');
const RESULT = latin1(',"result":"');
const SHARDS = latin1('","_shards":');
const SEQ_NO = latin1(',"_seq_no":');
const PRIMARY_TERM = latin1(',"_primary_term":');
const STATUS = latin1(',"status":');

/** True for an id JSON.stringify writes as it is between quotes: printable ASCII, no `"` or `\`. */
function plainId(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** The items written as JSON as they come, in the same text JSON.stringify gives their objects. */
export class RenderedBulkItems implements BulkItems {
  private readonly out = new ChunkWriter(HEAD_ROOM);
  private first = true;
  // The last item's `{"<action>":{"_index":<name>,"_id":` as bytes (a request's items usually share it).
  private prefixAction: OpType | null = null;
  private prefixIndex: string | null = null;
  private prefix = new Uint8Array(0);
  // The last `_shards` section and its JSON (one shared object per replica count).
  private shards: object | null = null;
  private shardsJson = new Uint8Array(0);

  written(action: OpType, index: IndexService, result: Pick<WriteResult, 'id' | 'version' | 'seqNo' | 'primaryTerm'> & { result: string }, status: number, get: Record<string, unknown> | null): void {
    if (get !== null) {
      const body = writeBody(index, result, false);
      body.status = status;
      body.get = get;
      this.other({ [action]: body });
      return;
    }
    const out = this.out;
    const id = result.id;
    const prefix = this.prefixOf(action, index.name);
    const shards = this.shardsOf(shardsWritten(index, result.result));
    out.room(prefix.length + id.length + shards.length + ITEM_ROOM);
    if (!this.first) out.ascii(',');
    this.first = false;
    out.bytes(prefix);
    if (plainId(id)) {
      out.ascii('"');
      out.ascii(id);
      out.ascii('"');
    } else {
      out.write(JSON.stringify(id));
      out.room(shards.length + ITEM_ROOM);
    }
    out.bytes(VERSION);
    out.number(result.version);
    out.bytes(RESULT);
    out.ascii(result.result);
    out.bytes(SHARDS);
    out.bytes(shards);
    out.bytes(SEQ_NO);
    out.number(result.seqNo);
    out.bytes(PRIMARY_TERM);
    out.number(result.primaryTerm);
    out.bytes(STATUS);
    out.number(status);
    out.ascii('}}');
  }

  other(item: Record<string, unknown>): void {
    const text = JSON.stringify(item);
    this.out.write(this.first ? text : `,${text}`);
    this.first = false;
  }

  finish(head: string): JsonChunks {
    return this.out.finishWithHead(head, ']}');
  }

  private prefixOf(action: OpType, indexName: string): Uint8Array {
    if (action !== this.prefixAction || indexName !== this.prefixIndex) {
      this.prefixAction = action;
      this.prefixIndex = indexName;
      this.prefix = Buffer.from(`{"${action}":{"_index":${JSON.stringify(indexName)},"_id":`, 'utf8');
    }
    return this.prefix;
  }

  private shardsOf(shards: object): Uint8Array {
    if (shards !== this.shards) {
      this.shards = shards;
      this.shardsJson = Buffer.from(JSON.stringify(shards), 'latin1');
    }
    return this.shardsJson;
  }
}
