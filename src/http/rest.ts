/**
 * The small REST layer over fastify every API family uses: a route is methods × paths, the URL
 * parameters it accepts, and a handler from a RestRequest to a RestResponse. Registration also
 * records every route so unknown methods on known paths get ES's 405 instead of a 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { IllegalArgumentError } from '../errors/index.js';
import { asJsonObject, parseJson, parsedJsonValue, type ParsedJson } from '../dsl/index.js';
import { checkParams, type Query } from './params.js';
import { authorizeRequest, type RequestAuthorizer, type RouteAuthorization } from './authorization.js';
import { LargeBody } from './large-body.js';
import { NdjsonBody } from './ndjson-body.js';
import { releaseBodyOnFinish } from './body-reader.js';
import { JsonPieces } from '../common/json-pieces.js';
import { JsonChunks, sendChunks } from './json-chunks.js';
import { responseBytes } from './response-buffers.js';

export interface RestRequest {
  readonly method: string;
  /** The path as sent (no query string), for error messages. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Query;
  /** The raw body, or null when there is none (a large body's text is decoded on first read: see `hasBody`). */
  readonly body: string | null;
  /** The body already parsed as JSON (a large one, off the main thread); read it through `jsonBody`. */
  readonly json?: ParsedJson;
  /**
   * A `_bulk` body as the UTF-8 bytes received (never empty), for a handler that splits its lines
   * itself; `body` is then their text, decoded on first read.
   */
  readonly bytes?: Buffer;
  readonly headers: FastifyRequest['headers'];
  /** The caller's permission, for checks the handler makes itself (bulk items); unset without security. */
  readonly authorizer?: RequestAuthorizer;
}

export interface RestResponse {
  readonly status?: number;
  /** Objects are JSON-serialised; strings, JsonPieces and JsonChunks are sent as they are (already JSON). */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** The response's media type when it is not the negotiated JSON one (`_cat`'s text tables). */
  readonly contentType?: string;
}

/**
 * The client's connection, for a handler that waits (`_cluster/health?wait_for_status`): once it is
 * destroyed nobody reads the answer, so the wait stops instead of running to its timeout.
 */
export interface ClientConnection {
  readonly destroyed: boolean;
}

export type RestHandler = (req: RestRequest, client: ClientConnection) => RestResponse | Promise<RestResponse>;

export interface RouteDef {
  readonly methods: readonly HTTPMethods[];
  readonly paths: readonly string[];
  readonly params?: readonly string[];
  /** The ES action this route performs, which the caller must be authorized for. */
  readonly authz: RouteAuthorization;
  /**
   * False for routes that read no body (GET /idx, DELETE /idx, …): like ES's BaseRestHandler they
   * refuse one with 400 rather than ignore it, so a malformed body never goes unnoticed.
   */
  readonly takesBody?: boolean;
  /**
   * The handler checks the `{index}` name itself and answers ES's invalid_index_name_exception for
   * a reserved one (index creation); other routes never see an `_`-prefixed index name.
   */
  readonly validatesIndexName?: boolean;
  /** The body is NDJSON lines the handler reads itself (`_bulk`, `_msearch`), never one JSON value. */
  readonly ndjson?: boolean;
  /**
   * The body is a read request (query DSL of a search, count, explain, by-query …; `_mget`'s ids;
   * `_termvectors` options; `_analyze` text), never a document to index: it is held to `http.max_query_content_length` and `http.max_query_token_count` (dsl/json-limits.ts).
   */
  readonly queryBody?: boolean;
  readonly handler: RestHandler;
}

/**
 * Whether a path segment can be the `{index}` of a route: index names never start with `_`, so an
 * `_`-prefixed first segment (`/_nodes`, `/_analyze`) is an endpoint this server does not have, not
 * an index — except the `_all` expression. Static routes win over `/:index` in the router, so any
 * endpoint registered later takes its path without this rule knowing about it.
 */
export function isIndexSegment(segment: string): boolean {
  return !segment.startsWith('_') || segment === '_all';
}

/** Path patterns and the methods registered for them (for 405 answers). */
export class RouteTable {
  private readonly entries: Array<{ path: string; regex: RegExp; methods: Set<string> }> = [];
  add(path: string, methods: readonly string[]): void {
    const regex = new RegExp('^' + path.split('/').map(segmentPattern).join('/') + '/?$');
    const existing = this.entries.find((e) => e.regex.source === regex.source);
    if (existing) for (const m of methods) existing.methods.add(m);
    else this.entries.push({ path, regex, methods: new Set(methods) });
  }
  /** Every registered path pattern (`/:index/_doc/:id`) with its methods, for tools that walk the API. */
  list(): Array<{ path: string; methods: string[] }> {
    return this.entries.map((e) => ({ path: e.path, methods: [...e.methods].sort() }));
  }
  /** Methods allowed on a concrete path, if any route pattern matches it. */
  allowed(path: string): string[] {
    const out = new Set<string>();
    for (const e of this.entries) if (e.regex.test(path)) for (const m of e.methods) out.add(m);
    return [...out].sort();
  }
}

/** A route path segment as a regular expression: `:index` never matches an `_`-prefixed name (see isIndexSegment). */
function segmentPattern(seg: string): string {
  if (seg === ':index') return '(?:_all|[^_/][^/]*)';
  return seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decodeParams(params: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((params ?? {}) as Record<string, unknown>)) out[k] = String(v);
  return out;
}

/** The request's content, or null: the body, else `?source=` for clients that cannot send one (ES RestRequest). */
export function requestContent(req: FastifyRequest): string | null {
  if (req.body instanceof LargeBody || req.body instanceof NdjsonBody) return req.body.decode();
  if (typeof req.body === 'string' && req.body.length > 0) return req.body;
  const source = (req.query as Query).source;
  return source !== undefined && source !== '' ? source : null;
}

/** The request without its body: all that routing, parameter checks and authorization read. */
export type RestRequestHead = Omit<RestRequest, 'body'>;

export function requestHead(req: FastifyRequest): RestRequestHead {
  const url = req.url;
  const q = url.indexOf('?');
  return {
    method: req.method,
    path: q < 0 ? url : url.slice(0, q),
    params: decodeParams(req.params),
    query: { ...(req.query as Query) },
    headers: req.headers,
    // Present (unset) on every head, so heads with and without security share one hidden class.
    authorizer: undefined,
  };
}

/** Whether the request has content, without decoding a large body's text to find out. */
export function hasBody(req: RestRequest): boolean {
  return req.json !== undefined || req.bytes !== undefined || req.body !== null;
}

/**
 * The RestRequest a route handler gets: `body` is the request's content, read (for a large body:
 * decoded from its bytes) only if the handler reads it.
 */
function restRequest(head: RestRequestHead, req: FastifyRequest): RestRequest {
  const body = req.body;
  // A literal, not `{ ...head, body }`: a spread followed by another property gets a fresh hidden
  // class on every request in V8, which costs more than the copy itself.
  if (body instanceof NdjsonBody) {
    return {
      method: head.method, path: head.path, params: head.params, query: head.query, headers: head.headers, authorizer: head.authorizer, bytes: body.bytes,
      get body() {
        return body.decode();
      },
    };
  }
  if (!(body instanceof LargeBody)) {
    return { method: head.method, path: head.path, params: head.params, query: head.query, headers: head.headers, authorizer: head.authorizer, body: requestContent(req) };
  }
  const rest = { ...head, json: body.json } as RestRequest;
  Object.defineProperty(rest, 'body', { enumerable: true, get: () => body.decode() });
  return rest;
}

/** The body as a JSON value, null without one: parsed off the main thread already when it was large. */
export function jsonBody(req: RestRequest): unknown {
  if (req.json !== undefined) return parsedJsonValue(req.json);
  return req.body === null ? null : parseJson(req.body);
}

/** The body as a JSON object (ES's parsing_exception for any other value, or no body). */
export function jsonObjectBody(req: RestRequest, what?: string): Record<string, unknown> {
  return asJsonObject(jsonBody(req), what);
}

export function sendRest(reply: FastifyReply, res: RestResponse): FastifyReply {
  // The handler is done with its body: a reused buffer goes back once this response is written.
  const request = reply.request.body;
  if (request instanceof NdjsonBody && request.pooled !== null) releaseBodyOnFinish(request.pooled, reply.raw);
  reply.code(res.status ?? 200);
  // The onSend hook sets Content-Type from the request's response type.
  if (res.contentType) reply.request.responseType = res.contentType;
  if (res.headers) for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
  const body = res.body;
  if (body === undefined || body === null) return reply.send('');
  if (body instanceof JsonPieces) {
    // `filter_path` and `pretty` rewrite the text (server.ts onSend); otherwise the pieces go out
    // as bytes, typed here (fastify would call a Buffer application/octet-stream).
    const query = reply.request.query as Query;
    if (query.filter_path !== undefined || query.pretty !== undefined) return reply.send(body.toString());
    reply.header('content-type', reply.request.responseType ?? 'application/json');
    return reply.send(responseBytes(body, reply.raw));
  }
  if (body instanceof JsonChunks) {
    const query = reply.request.query as Query;
    if (query.filter_path !== undefined || query.pretty !== undefined) {
      const text = body.toString();
      body.release();
      return reply.send(text);
    }
    reply.header('content-type', reply.request.responseType ?? 'application/json');
    reply.header('content-length', String(body.byteLength));
    return reply.send(sendChunks(body, reply.raw));
  }
  return reply.send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** What route authorization needs from the rest of the server. */
export interface RouteSecurity {
  /** The names of the existing indices (wildcards expand over them). */
  existingIndices(): readonly string[];
  /** A hidden index or alias (wildcards skip it unless the request expands hidden ones). */
  isHidden(name: string): boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request head with the route's authorization, decided before the body was read. */
    authorized?: RestRequestHead;
  }
}

export function registerRoutes(app: FastifyInstance, table: RouteTable, defs: readonly RouteDef[], security: RouteSecurity | null = null): void {
  // One closure for every request, not one per request.
  const existingIndices = security === null ? null : () => security.existingIndices();
  const isHidden = security === null ? null : (name: string) => security.isHidden(name);
  for (const def of defs) {
    // Parameters and the caller's rights depend on the URL only, so both are checked before the
    // body is read: a key without privileges cannot hold an in-flight slot by sending it slowly.
    const authorize = (req: FastifyRequest): RestRequestHead => {
      const head = requestHead(req);
      checkParams(head.path, head.query, def.params ?? []);
      if (existingIndices !== null && req.authentication) {
        const { params, authorizer } = authorizeRequest(head, def.authz, req.authentication, existingIndices, isHidden!);
        // The head is this request's own, made just above: it takes the authorization in place
        // (same hidden class: `authorizer` is on every head) instead of a second head per request.
        const authorized = head as { -readonly [K in keyof RestRequestHead]: RestRequestHead[K] };
        authorized.params = params;
        authorized.authorizer = authorizer;
      }
      req.authorized = head;
      return head;
    };
    for (const path of def.paths) {
      table.add(path, def.methods);
      app.route({
        method: [...def.methods],
        url: path,
        config: { ndjson: def.ndjson === true, queryBody: def.queryBody === true },
        preParsing: (req, _reply, payload, done) => {
          try {
            authorize(req);
          } catch (e) {
            done(e as Error, undefined);
            return;
          }
          done(null, payload);
        },
        handler: async (req, reply) => {
          const index = (req.params as { index?: string }).index;
          if (index !== undefined && !def.validatesIndexName && !isIndexSegment(index)) return reply.callNotFound();
          // The head was read (and authorized) before the body, in preParsing; it is read only once.
          const head = req.authorized ?? authorize(req);
          if (def.takesBody === false && (req.body instanceof LargeBody || req.body instanceof NdjsonBody || (typeof req.body === 'string' && req.body.length > 0))) {
            throw new IllegalArgumentError(`request [${req.method} ${head.path}] does not support having a body`);
          }
          return sendRest(reply, await def.handler(restRequest(head, req), req.raw.socket));
        },
      });
    }
  }
}
