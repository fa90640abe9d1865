/**
 * Bodies of `_reindex`, `_update_by_query` and `_delete_by_query` (ES ReindexRequest.PARSER,
 * RestUpdateByQueryAction / RestDeleteByQueryAction body consumers): typed requests, with ES's
 * object-parser errors for unknown fields and wrong types. `script` and `source.remote` need
 * painless or a remote cluster and are refused clearly.
 */
import { ActionRequestValidationError, IllegalArgumentError, XContentParseError } from '../errors/index.js';
import type { SourceFilter } from '../common/source-filter.js';
import { forEachEntry, isObject, parseBody, readInt, readObject, readString, readStringArray } from './parse-helpers.js';
import type { QueryNode } from './query-nodes.js';
import { parseQuery } from './queries/registry.js';
import { parseSourceFilter } from './source-filter.js';
import { tokenName } from './json-body.js';

export type Conflicts = 'abort' | 'proceed';

export interface ReindexBody {
  readonly sourceIndex: string;
  readonly size: number | null;
  readonly query: QueryNode | null;
  readonly sourceFilter: SourceFilter | null;
  readonly destIndex: string;
  readonly opType: 'index' | 'create';
  readonly pipeline: string | null;
  readonly maxDocs: number | null;
  readonly conflicts: Conflicts | null;
}

export interface ByQueryBody {
  readonly query: QueryNode | null;
  readonly maxDocs: number | null;
  readonly conflicts: Conflicts | null;
}

function unknownField(owner: string, key: string): XContentParseError {
  return new XContentParseError(`[${owner}] unknown field [${key}]`, undefined, 'key');
}

/** ES AbstractBulkByScrollRequest.setConflicts. */
export function parseConflicts(v: string): Conflicts {
  if (v === 'abort' || v === 'proceed') return v;
  throw new IllegalArgumentError(`conflicts may only be "proceed" or "abort" but was [${v}]`);
}

function maxDocsValue(owner: string, field: string, v: unknown): number {
  const n = readInt(owner, field, v);
  if (n < 0 && n !== -1) throw new ActionRequestValidationError([`maxDocs should be greater than 0 if the request is limited to some number of documents or -1 if it isn't but it was [${n}]`]);
  return n;
}

function unsupported(what: string): IllegalArgumentError {
  return new IllegalArgumentError(`[${what}] is not supported by this server (it needs painless scripts or a remote cluster)`);
}

export function parseReindexBody(body: unknown): ReindexBody {
  return parseBody(() => {
    if (!isObject(body)) throw new XContentParseError(`[reindex] Expected START_OBJECT but found [${tokenName(body)}]`, undefined, null);
    let sourceIndex: string | null = null;
    let size: number | null = null;
    let query: QueryNode | null = null;
    let sourceFilter: SourceFilter | null = null;
    let destIndex: string | null = null;
    let opType: 'index' | 'create' = 'index';
    let pipeline: string | null = null;
    let maxDocs: number | null = null;
    let conflicts: Conflicts | null = null;
    forEachEntry(body, (k, v) => {
      switch (k) {
        case 'source':
          forEachEntry(readObject('reindex', 'source', v), (sk, sv) => {
            switch (sk) {
              case 'index': sourceIndex = readStringArray('source', 'index', sv).join(','); break;
              case 'size': size = readInt('source', 'size', sv); break;
              case 'query': query = parseQuery(sv); break;
              case '_source': sourceFilter = parseSourceFilter(sv); break;
              case 'remote': throw unsupported('source.remote');
              case 'sort': throw unsupported('source.sort');
              default: throw unknownField('source', sk);
            }
          });
          break;
        case 'dest':
          forEachEntry(readObject('reindex', 'dest', v), (dk, dv) => {
            switch (dk) {
              case 'index': destIndex = readString('dest', 'index', dv); break;
              case 'op_type': {
                const t = readString('dest', 'op_type', dv);
                if (t !== 'index' && t !== 'create') throw new IllegalArgumentError(`opType must be 'create' or 'index', found: [${t}]`);
                opType = t;
                break;
              }
              case 'pipeline': pipeline = readString('dest', 'pipeline', dv); break;
              case 'version_type': if (readString('dest', 'version_type', dv) !== 'internal') throw unsupported('dest.version_type'); break;
              case 'routing': if (readString('dest', 'routing', dv) !== 'keep') throw unsupported('dest.routing'); break;
              default: throw unknownField('dest', dk);
            }
          });
          break;
        case 'max_docs':
        case 'size':
          maxDocs = maxDocsValue('reindex', k, v);
          break;
        case 'conflicts':
          conflicts = parseConflicts(readString('reindex', 'conflicts', v));
          break;
        case 'script':
          throw unsupported('script');
        default:
          throw unknownField('reindex', k);
      }
    });
    const problems: string[] = [];
    if (sourceIndex === null || sourceIndex === '') problems.push('use _all if you really want to copy from all existing indexes');
    if (sourceFilter !== null && !(sourceFilter as SourceFilter).fetch) problems.push('_source:false is not supported in this context');
    if (destIndex === null) problems.push('index must be specified');
    if (problems.length > 0) throw new ActionRequestValidationError(problems);
    return { sourceIndex: sourceIndex!, size, query, sourceFilter, destIndex: destIndex!, opType, pipeline, maxDocs: maxDocs === -1 ? null : maxDocs, conflicts };
  });
}

export function parseByQueryBody(body: unknown, owner: 'update_by_query' | 'delete_by_query'): ByQueryBody {
  if (body === null) return { query: null, maxDocs: null, conflicts: null };
  return parseBody(() => {
    if (!isObject(body)) throw new XContentParseError(`[${owner}] Expected START_OBJECT but found [${tokenName(body)}]`, undefined, null);
    let query: QueryNode | null = null;
    let maxDocs: number | null = null;
    let conflicts: Conflicts | null = null;
    forEachEntry(body, (k, v) => {
      if (k === 'query') query = parseQuery(v);
      else if (k === 'max_docs' || k === 'size') maxDocs = maxDocsValue(owner, k, v);
      else if (k === 'conflicts') conflicts = parseConflicts(readString(owner, 'conflicts', v));
      else if (k === 'script') throw unsupported('script');
      else throw unknownField(owner, k);
    });
    return { query, maxDocs: maxDocs === -1 ? null : maxDocs, conflicts };
  });
}
