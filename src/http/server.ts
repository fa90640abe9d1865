/**
 * The fastify instance and what every response needs: body parsing for JSON/NDJSON/vendor types
 * (gzip-encoded bodies too), the `X-elastic-product` header, Content-Type echoing, `pretty` and
 * `filter_path`, ES-shaped errors for everything (never a stack trace, never 502/503/504), and
 * ES's answers for unknown paths (400) and wrong methods (405).
 */
import { brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, gunzipSync, inflateSync, type ZlibOptions, type BrotliOptions } from 'node:zlib';
import type { Transform } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { ContentTooLongError, DecompressionError, EsError, InternalError, MAX_MESSAGE_CHARS, previewInput, RestStatusError, SecurityError } from '../errors/index.js';
import type { ContentCoding, ReadBody } from '../cluster/index.js';
import type { ApiKeyService, Authentication } from '../security/index.js';
import { corsHooks, type CorsOptions } from './cors.js';
import { authenticateRequest } from './security.js';
import { checkJsonLimits, withBodyPositions, type QueryBodyLimits } from '../dsl/index.js';
import { applyFilterPath } from './filter-path.js';
import { checkBodyContentType, negotiate } from './media-types.js';
import { requestContent, RouteTable } from './rest.js';
import { NdjsonBody } from './ndjson-body.js';
import { giveBodyBuffer, readBody } from './body-reader.js';
import { esClientError } from './client-errors.js';
import { LargeBody } from './large-body.js';
import { gzipStatedSize } from '../common/gzip-trailer.js';
import { Admission, type AdmissionLimits } from './admission.js';
import type { Logger } from '../logging/index.js';
import { registerRequestLog } from './request-log.js';

/** ES `http.max_content_length` default. */
export const DEFAULT_MAX_CONTENT_LENGTH = 100 * 1024 * 1024;

/**
 * Bodies from this size on (decoded) are decoded and parsed by `readLargeBody` off the main thread.
 * Below it JSON.parse takes a few ms at most; a 95 MB body took ~3 s, during which nothing else ran.
 */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** The Content-Encodings a request body may have, as streams (NDJSON routes) and in one call. */
const DECODERS: Record<ContentCoding, { stream: () => Transform; sync: (bytes: Buffer, options: ZlibOptions & BrotliOptions) => Buffer }> = {
  gzip: { stream: createGunzip, sync: gunzipSync },
  deflate: { stream: createInflate, sync: inflateSync },
  br: { stream: createBrotliDecompress, sync: brotliDecompressSync },
};

function contentCoding(header: string): ContentCoding | null {
  return header === 'gzip' || header === 'x-gzip' ? 'gzip' : header === 'deflate' || header === 'br' ? header : null;
}

/**
 * A compressed body inflated on the main thread when it is small once inflated (most compressed
 * requests); null when it inflates to LARGE_BODY_BYTES or more, so a worker inflates it instead.
 * zlib stops at the limit: a gzip bomb costs the main thread at most that much inflating.
 */
function inflateSmall(bytes: Buffer, coding: ContentCoding, maxContentLength: number): Buffer | null {
  try {
    // Past a limit below LARGE_BODY_BYTES the worker answers 413.
    return DECODERS[coding].sync(bytes, { maxOutputLength: Math.min(LARGE_BODY_BYTES - 1, maxContentLength) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return null;
    throw new DecompressionError((e as Error).message);
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads NDJSON lines itself (`_bulk`, `_msearch`): its body is never parsed as one JSON value. */
    ndjson?: boolean;
    /** The body is query DSL, never a document: it is held to `queryBodyLimits`. */
    queryBody?: boolean;
  }
  interface FastifyRequest {
    /** The body's Content-Encoding when the content type parser inflates it (not a stream in preParsing). */
    bodyCoding?: ContentCoding;
    responseType?: string;
    /** Set when the response is an error body, which `filter_path` leaves whole (ES newErrorBuilder). */
    errorResponse?: boolean;
  }
}

export interface HttpServer {
  readonly app: FastifyInstance;
  readonly routes: RouteTable;
  readonly admission: Admission;
  /**
   * Stops accepting connections and resolves once in-flight requests are answered. Responses sent
   * meanwhile carry `Connection: close`, so keep-alive clients do not hold the server open.
   */
  drain(): Promise<void>;
}

function errorBody(err: unknown, log: FastifyInstance['log'], requestContent: () => string | null, maxContentLength: number): { status: number; body: unknown; headers?: Record<string, string> } {
  if (err instanceof SecurityError && err.challenges.length > 0) {
    return { status: err.status, body: err.toBody(), headers: { 'WWW-Authenticate': err.challenges.join(', ') } };
  }
  if (err instanceof EsError) {
    // Parse errors carry JSON paths; only now, on the error path, are they found in the body text
    // (a large body's text is decoded only for that).
    const content = err.locatesInBody() ? requestContent() : null;
    return { status: err.status, body: (content === null ? err : withBodyPositions(err, content)).toBody() };
  }
  if (err instanceof RestStatusError) return { status: err.status, body: err.toBody(), headers: err.headers };
  const code = (err as { code?: string }).code;
  const statusCode = (err as { statusCode?: number }).statusCode;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, body: new ContentTooLongError(maxContentLength).toBody() };
  if (code?.startsWith('Z_') || code === 'ERR_ZLIB_INITIALIZATION_FAILED') return { status: 400, body: new DecompressionError((err as Error).message).toBody() };
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || (statusCode !== undefined && statusCode >= 400 && statusCode < 500)) {
    return { status: 400, body: new EsError('illegal_argument_exception', (err as Error).message, 400).toBody() };
  }
  log.error({ err }, 'unexpected failure handling a request');
  return { status: 500, body: new InternalError((err as Error)?.message ?? String(err)).toBody() };
}

export interface HttpServerOptions extends Partial<AdmissionLimits> {
  /** The server's logger (logging/logger.ts); none: fastify logs nothing. */
  readonly logger?: Logger;
  readonly cors?: CorsOptions;
  /** API keys to authenticate every request with; null: security off. */
  readonly apiKeys?: ApiKeyService | null;
  /** `http.max_content_length` in bytes. */
  readonly maxContentLength?: number;
  /**
   * Time a client has to send a whole request, headers and body (default 60 s); past it the
   * connection gets 408 and is closed, so a body that never ends cannot hold its in-flight slot.
   * The headers alone get at most 10 s of it.
   */
  readonly requestTimeoutMs?: number;
  /**
   * Inflates, decodes and parses a large or compressed JSON body off the main thread
   * (cluster/body-pool.ts: 413 past `maxContentLength` decoded bytes); absent: all on it.
   */
  readonly readLargeBody?: (bytes: Buffer, coding: ContentCoding | null, maxContentLength: number, maxTokenCount: number | null) => Promise<ReadBody>;
  /**
   * `http.max_query_content_length` and `http.max_query_token_count`: what a query DSL body (a
   * route with `queryBody`) may hold; absent: only `maxContentLength`.
   */
  readonly queryBodyLimits?: QueryBodyLimits;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const MAX_HEADERS_TIMEOUT_MS = 10_000;

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const maxContentLength = options.maxContentLength ?? DEFAULT_MAX_CONTENT_LENGTH;
  // 0 or -1 (`--request-timeout -1`): no deadline for the body; the headers keep theirs.
  const requestTimeout = Math.max(0, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const headersTimeout = requestTimeout === 0 ? MAX_HEADERS_TIMEOUT_MS : Math.min(requestTimeout, MAX_HEADERS_TIMEOUT_MS);
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: maxContentLength,
    requestTimeout,
    // Node checks these deadlines on a timer (30 s by default, longer than a short timeout).
    http: { headersTimeout, connectionsCheckingInterval: Math.min(1_000, headersTimeout) },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4096 },
    exposeHeadRoutes: false,
    // Clients treat 503 as a dead node; while closing, finish requests instead.
    return503OnClosing: false,
    // One log line per request would cost more than many searches do.
    logController: new LogController({ disableRequestLogging: true }),
    // Nothing logs through a per-request logger (failures go to the server's log), and building a
    // child logger with a request-id binding costs more per request than fastify's own routing.
    childLoggerFactory: (logger) => logger,
    // Requests Node's parser refuses get ES's error bodies (client-errors.ts).
    clientErrorHandler: esClientError,
  });
  const routes = new RouteTable();
  // ES reads a body sent with GET (e.g. _search, _count); fastify ignores GET bodies by default.
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });

  app.removeAllContentTypeParsers();
  const readLargeBody = options.readLargeBody;
  const queryBodyLimits = options.queryBodyLimits ?? null;
  // Fastify stops reading a query body (and inflating an NDJSON one as it streams in) past its limit.
  if (queryBodyLimits !== null) {
    const queryBodyLimit = Math.min(maxContentLength, queryBodyLimits.maxContentLength);
    app.addHook('onRoute', (route) => {
      if (route.config?.queryBody === true) route.bodyLimit = queryBodyLimit;
    });
  }
  // The body is read as fastify's `parseAs: 'buffer'` reads it, but an NDJSON one (`_bulk`) of a
  // few hundred KB or more into a reused buffer (body-reader.ts), which its NdjsonBody holds.
  app.addContentTypeParser('*', { bodyLimit: maxContentLength }, (req: FastifyRequest, payload, done) => {
    const route = req.routeOptions;
    readBody(req, payload, route.bodyLimit ?? maxContentLength, route.config?.ndjson === true, (error, bytes, pooled) => {
      if (error !== null) done(error, undefined);
      else parseBody(req, route.config, bytes!, pooled, done);
    });
  });
  // `config`: the route's (req.routeOptions makes a new object at each read: read once per request).
  const parseBody = (
    req: FastifyRequest, config: FastifyRequest['routeOptions']['config'], bytes: Buffer, pooled: Buffer | null, done: (error: Error | null, body?: unknown) => void,
  ): void => {
    const coding = req.bodyCoding;
    const ndjson = config?.ndjson === true;
    // A query DSL body is held to http.max_query_* (dsl/json-limits.ts; fastify has cut one sent
    // plain at the byte limit already), any other to http.max_content_length.
    const queryLimits = config?.queryBody === true ? queryBodyLimits : null;
    const limit = queryLimits === null ? maxContentLength : Math.min(maxContentLength, queryLimits.maxContentLength);
    const toWorker = (decoded: Buffer) => readLargeBody !== undefined && decoded.length >= LARGE_BODY_BYTES && !ndjson;
    let inflated: Buffer | null = bytes;
    try {
      // ES checks the media type of content only; an empty body (a GET with a Content-Type) is none.
      if (bytes.length > 0) checkBodyContentType(req.headers['content-type']);
      // A gzip body whose trailer states more than the limit inflates to more: 413 before inflating any.
      if (coding === 'gzip' && (gzipStatedSize(bytes) ?? 0) > limit) throw new ContentTooLongError(limit);
      if (coding !== undefined && bytes.length > 0) inflated = inflateSmall(bytes, coding, limit);
      // A body the worker does not read is checked here (only one longer than the token limit can pass it).
      if (queryLimits !== null && inflated !== null && !toWorker(inflated) && inflated.length > queryLimits.maxTokenCount) checkJsonLimits(inflated, queryLimits.maxTokenCount);
    } catch (e) {
      if (pooled !== null) giveBodyBuffer(pooled);
      done(e as Error, undefined);
      return;
    }
    if (inflated === null || toWorker(inflated)) {
      // A large body, or a compressed one that inflates to one: only a worker holds its text.
      readLargeBody!(inflated === null ? bytes : inflated, inflated === null ? coding! : null, limit, queryLimits?.maxTokenCount ?? null).then(
        ({ bytes: decoded, json }) => done(null, new LargeBody(decoded, json)),
        (e: Error) => done(e, undefined),
      );
      return;
    }
    // An NDJSON body (`_bulk`, `_msearch`) stays bytes: `_bulk` decodes it line by line (ndjson-body.ts).
    // (Only an NDJSON body is ever in a reused buffer, and one sent as it is: `inflated` is `bytes`.)
    if (ndjson && inflated.length > 0) done(null, new NdjsonBody(inflated, pooled));
    else {
      if (pooled !== null) giveBodyBuffer(pooled);
      done(null, inflated.toString('utf8'));
    }
  };

  // Order matters: CORS answers preflights without a key; admission bounds work before any of it
  // is spent on authentication; authentication runs before the body is read.
  const cors = corsHooks(options.cors ?? { allowOrigins: [] });
  const admission = new Admission({
    maxInFlightRequests: options.maxInFlightRequests ?? Infinity, indexingPressureBytes: options.indexingPressureBytes ?? Infinity,
    maxMemoryBytes: options.maxMemoryBytes ?? Infinity,
  });
  // One onRequest hook for negotiation, CORS, admission and authentication (and one onSend below),
  // callback-style, not async: each hook is a turn of fastify's hook runner and an async one a
  // promise and extra microtask turns, which add up at tens of thousands of requests per second.
  const apiKeys = options.apiKeys ?? null;
  app.addHook('onRequest', (req, reply, done) => {
    // JSON until negotiation succeeds, so its own error answers in JSON.
    req.responseType = 'application/json';
    // Every other property a request gains on its way (admission's count, the route's authorized
    // head, who it runs as), made here at once before anything reads a header, so the request has
    // its final shape before fastify's `headers` getter, shared by every hook that reads one, sees
    // it. Gained one by one across the hooks, a request went through four shapes (five with
    // `authentication`, then a fastify decorator) and that getter's loads went megamorphic on a
    // secured server: ~17 megamorphic loads, ~2,000 instructions per `_search` (callgrind,
    // docs/benchmarks/issue-19-request-hot-path.md security-i19w). Named stores, not fastify's
    // decorators: those define each property through one keyed store in a loop, itself
    // megamorphic (~170 instructions each).
    req.writeBytes = 0;
    req.authorized = undefined;
    if (apiKeys !== null) req.authentication = null;
    let pending: Promise<Authentication> | null = null;
    try {
      req.responseType = negotiate(req.headers['content-type'], req.headers.accept).responseType;
      // Answered by CORS (a preflight, a refused origin): the request goes no further.
      if (cors !== null && cors.onRequest(req, reply)) return;
      admission.admit(req, reply);
      if (apiKeys !== null) {
        const auth = authenticateRequest(apiKeys, req);
        if (auth instanceof Promise) pending = auth;
        else if (auth !== null) req.authentication = auth;
      }
    } catch (e) {
      done(e as Error);
      return;
    }
    if (pending === null) {
      done();
      return;
    }
    // A key not seen before: its secret is verified (scrypt) off the main thread.
    pending.then((auth) => {
      req.authentication = auth;
      done();
    }, (e: Error) => done(e));
  });
  admission.register(app);
  if (options.logger) registerRequestLog(app, options.logger);

  // Clients may gzip or deflate request bodies (`compression: true`); brotli (`br`) is decoded too,
  // any other coding is refused rather than read as plain text. A JSON body is read as sent and
  // inflated by the content type parser (in a worker when it expands past LARGE_BODY_BYTES: a
  // 97 KB gzip body can hold 95 MB); an NDJSON one (`_bulk`), which the main thread reads line by
  // line anyway, is inflated as it streams in. Fastify checks Content-Length against
  // `receivedEncodedLength`, so count the raw bytes as they stream in.
  app.addHook('preParsing', (req, _reply, payload, done) => {
    const enc = req.headers['content-encoding']?.trim().toLowerCase();
    if (enc === undefined || enc === '' || enc === 'identity') {
      done(null, payload);
      return;
    }
    const coding = contentCoding(enc);
    if (coding === null) {
      done(new RestStatusError(`Content-Encoding header [${enc}] is not supported`, 415, true), undefined);
      return;
    }
    if (readLargeBody && req.routeOptions.config?.ndjson !== true) {
      req.bodyCoding = coding;
      done(null, payload);
      return;
    }
    const decoded = payload.pipe(DECODERS[coding].stream()) as Transform & { receivedEncodedLength: number };
    decoded.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => {
      decoded.receivedEncodedLength += chunk.length;
    });
    done(null, decoded);
  });

  let draining = false;
  app.addHook('onSend', (req, reply, payload, done) => {
    cors?.onSend(req, reply);
    reply.header('X-elastic-product', 'Elasticsearch');
    if (draining) reply.header('connection', 'close');
    if (req.method === 'HEAD') {
      reply.header('content-type', req.responseType ?? 'application/json');
      done(null, '');
      return;
    }
    const contentType = reply.getHeader('content-type');
    if (contentType === undefined || String(contentType).startsWith('text/plain') || String(contentType).startsWith('application/json')) {
      reply.header('content-type', req.responseType ?? 'application/json');
    }
    done(null, reformat(req, payload));
  });

  app.setErrorHandler((err, req, reply) => {
    // A route's own limit (a query body's) when it has one.
    const { status, body, headers } = errorBody(err, app.log, () => requestContent(req), req.routeOptions.bodyLimit ?? maxContentLength);
    req.errorResponse = true;
    if (headers) for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    // A request that failed before onRequest ran (e.g. media type) still answers in JSON.
    req.responseType ??= 'application/json';
    reply.code(status).send(JSON.stringify(body));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = routes.allowed(path);
    req.responseType ??= 'application/json';
    if (req.method === 'OPTIONS' && allowed.length > 0) {
      // ES answers OPTIONS on a known path with the methods it allows.
      reply.code(200).header('Allow', allowed.join(',')).send('');
      return;
    }
    req.errorResponse = true;
    if (allowed.length > 0) {
      reply.code(405).header('Allow', allowed.join(',')).send(JSON.stringify({
        error: `Incorrect HTTP method for uri [${previewInput(req.url, MAX_MESSAGE_CHARS)}] and method [${req.method}], allowed: [${allowed.join(', ')}]`,
        status: 405,
      }));
      return;
    }
    // The uri is the client's own (query string included): quoted up to a bounded prefix, as every error quotes input.
    reply.code(400).send(JSON.stringify({ error: `no handler found for uri [${previewInput(req.url, MAX_MESSAGE_CHARS)}] and method [${req.method}]` }));
  });

  return {
    app,
    routes,
    admission,
    drain: () => {
      draining = true;
      return app.close();
    },
  };
}

/** `filter_path` and `pretty` applied to a JSON body; anything else goes out as it is. */
function reformat(req: FastifyRequest, payload: unknown): unknown {
  const query = req.query as Record<string, string | undefined>;
  if (typeof payload !== 'string' || payload.length === 0 || (query.filter_path === undefined && query.pretty === undefined)) return payload;
  try {
    let value: unknown = JSON.parse(payload);
    if (query.filter_path && !req.errorResponse) value = applyFilterPath(value, query.filter_path);
    return query.pretty !== undefined && query.pretty !== 'false' ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value);
  } catch {
    return payload;
  }
}
