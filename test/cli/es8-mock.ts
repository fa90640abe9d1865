/**
 * A recording stand-in for an Elasticsearch 8.x cluster: it answers the requests `threadsearch
 * export` sends as ES 8.15 does (bodies, statuses, the X-elastic-product header), insists on what
 * ES insists on (credentials, a JSON or NDJSON content type with every body, NDJSON ending in a
 * newline, no body on GET/HEAD), and records every request for the test to compare.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface RecordedRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  authorization: string | undefined;
  /** JSON bodies parsed; NDJSON bodies as their parsed lines; undefined when there was none. */
  body: unknown;
}

export interface Es8MockOptions {
  /** The `Authorization` header the cluster accepts. */
  authorization: string;
  /** `_bulk` requests (1-based) answered 429 as a whole, as an overloaded coordinating node does. */
  rejectBulkRequests?: readonly number[];
  /** Document ids whose `_bulk` items fail with a document_parsing_exception. */
  badDocIds?: readonly string[];
}

export interface Es8Mock {
  url: string;
  requests: RecordedRequest[];
  /** Ids indexed per index. */
  docs: Map<string, Map<string, unknown>>;
  indices: Map<string, unknown>;
  pipelines: Map<string, unknown>;
  close(): Promise<void>;
}

const ROOT = {
  name: 'es-node-1', cluster_name: 'prod', cluster_uuid: 'n1sEkGA9QIa4kvMGzZ0y_Q',
  version: {
    number: '8.15.1', build_flavor: 'default', build_type: 'docker', build_hash: '253e8544a65ad44581194068936f2a5d57c2c051',
    build_date: '2024-09-02T22:04:47.310170297Z', build_snapshot: false, lucene_version: '9.11.1',
    minimum_wire_compatibility_version: '7.17.0', minimum_index_compatibility_version: '7.0.0',
  },
  tagline: 'You Know, for Search',
};

function error(status: number, type: string, reason: string, extra: Record<string, unknown> = {}) {
  const cause = { type, reason, ...extra };
  return { status, body: { error: { root_cause: [cause], ...cause }, status } };
}

export function startEs8Mock(options: Es8MockOptions): Promise<Es8Mock> {
  const requests: RecordedRequest[] = [];
  const docs = new Map<string, Map<string, unknown>>();
  const indices = new Map<string, unknown>();
  const pipelines = new Map<string, unknown>();
  let bulkRequests = 0;
  let seqNo = 0;

  const answer = (method: string, path: string, body: unknown): { status: number; body?: unknown } => {
    const [pathname] = path.split('?');
    if (method === 'GET' && pathname === '/') return { status: 200, body: ROOT };
    let m: RegExpExecArray | null;
    if ((m = /^\/_ingest\/pipeline\/([^/]+)$/.exec(pathname))) {
      const id = decodeURIComponent(m[1]);
      if (method === 'GET') return pipelines.has(id) ? { status: 200, body: { [id]: pipelines.get(id) } } : { status: 404, body: {} };
      if (method === 'PUT') {
        pipelines.set(id, body);
        return { status: 200, body: { acknowledged: true } };
      }
    }
    if (method === 'POST' && pathname === '/_bulk') {
      bulkRequests++;
      if (options.rejectBulkRequests?.includes(bulkRequests)) {
        return error(429, 'es_rejected_execution_exception', 'rejected execution of coordinating operation [coordinating_and_primary_bytes=0, replica_bytes=0, all_bytes=0, coordinating_operation_bytes=5230, max_coordinating_and_primary_bytes=0]');
      }
      const lines = body as any[];
      const items: unknown[] = [];
      for (let i = 0; i < lines.length; i += 2) {
        const { _index, _id } = lines[i].index;
        if (!indices.has(_index)) throw new Error(`bulk into missing index ${_index}`);
        if (options.badDocIds?.includes(_id)) {
          items.push({ index: { _index, _id, status: 400, error: { type: 'document_parsing_exception', reason: `[1:42] failed to parse field [year] of type [integer] in document with id '${_id}'. Preview of field's value: 'x'` } } });
          continue;
        }
        const store = docs.get(_index)!;
        const created = !store.has(_id);
        store.set(_id, lines[i + 1]);
        items.push({ index: { _index, _id, _version: 1, result: created ? 'created' : 'updated', _shards: { total: 2, successful: 1, failed: 0 }, _seq_no: seqNo++, _primary_term: 1, status: created ? 201 : 200 } });
      }
      return { status: 200, body: { errors: items.some((it: any) => it.index.error), took: 3, items } };
    }
    if ((m = /^\/([^/_][^/]*)(\/_settings|\/_refresh|\/_count)?$/.exec(pathname))) {
      const index = decodeURIComponent(m[1]);
      const missing = () => error(404, 'index_not_found_exception', `no such index [${index}]`, { 'resource.type': 'index_or_alias', 'resource.id': index, index_uuid: '_na_', index });
      if (m[2] === undefined && method === 'HEAD') return { status: indices.has(index) ? 200 : 404 };
      if (m[2] === undefined && method === 'PUT') {
        if (indices.has(index)) return error(400, 'resource_already_exists_exception', `index [${index}/Xb1o0yXoQYG7Ct2y7Vd8Zw] already exists`, { index_uuid: 'Xb1o0yXoQYG7Ct2y7Vd8Zw', index });
        indices.set(index, body);
        docs.set(index, new Map());
        return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index } };
      }
      if (!indices.has(index)) return missing();
      if (m[2] === '/_settings' && method === 'PUT') return { status: 200, body: { acknowledged: true } };
      if (m[2] === '/_refresh' && method === 'POST') return { status: 200, body: { _shards: { total: 2, successful: 1, failed: 0 } } };
      if (m[2] === '/_count' && method === 'GET') return { status: 200, body: { count: docs.get(index)!.size, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } } };
    }
    return { status: 400, body: { error: `no handler found for uri [${path}] and method [${method}]` } };
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const method = req.method!;
    const path = req.url!;
    const contentType = req.headers['content-type'];
    let body: unknown;
    const reply = (status: number, payload?: unknown) => {
      res.writeHead(status, { 'X-elastic-product': 'Elasticsearch', ...(payload === undefined ? {} : { 'content-type': 'application/json' }) });
      res.end(payload === undefined ? undefined : JSON.stringify(payload));
    };
    if (req.headers.authorization !== options.authorization) {
      requests.push({ method, path, contentType, authorization: req.headers.authorization, body: undefined });
      const e = error(401, 'security_exception', `unable to authenticate user [elastic] for REST request [${path.split('?')[0]}]`, { header: { 'WWW-Authenticate': ['Basic realm="security" charset="UTF-8"', 'Bearer realm="security"', 'ApiKey'] } });
      return reply(e.status, method === 'HEAD' ? undefined : e.body);
    }
    if (raw.length > 0) {
      if ((method === 'GET' && path.split('?')[0] !== '/_search') || method === 'HEAD') return reply(400, { error: 'unexpected body' });
      if (contentType === 'application/json') body = JSON.parse(raw);
      else if (contentType === 'application/x-ndjson') {
        // ES: "The bulk request must be terminated by a newline [\n]".
        if (!raw.endsWith('\n')) return reply(400, error(400, 'illegal_argument_exception', 'The bulk request must be terminated by a newline [\\n]').body);
        body = raw.slice(0, -1).split('\n').map((l) => JSON.parse(l));
      } else {
        return reply(406, { error: `Content-Type header [${contentType ?? ''}] is not supported`, status: 406 });
      }
    }
    requests.push({ method, path, contentType, authorization: req.headers.authorization, body });
    const a = answer(method, path, body);
    reply(a.status, method === 'HEAD' ? undefined : a.body);
  };

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => handle(req, res, raw));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, requests, docs, indices, pipelines, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}
