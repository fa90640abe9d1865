/**
 * Admission control at the HTTP edge, so overload turns into 429s instead of memory growth:
 *
 * - In-flight requests: at most `maxInFlightRequests` are handled at once; the next one is
 *   rejected before its body is read.
 * - Indexing pressure (ES `indexing_pressure.memory.limit`): the bytes of write requests (`_bulk`,
 *   `_doc`, `_create`, `_update`) being handled are bounded. A request's Content-Length is reserved
 *   before its body is read; a chunked body reserves as it streams in. Both are released when the
 *   response is finished or the connection closes.
 * - The parent circuit breaker (ES `indices.breaker.total.limit`, real-memory mode): a write request
 *   whose body would take the process's resident memory past `maxMemoryBytes` gets 429
 *   `circuit_breaking_exception` before its body is read. Reads are never refused (they hold
 *   little and are how an operator finds out what to delete).
 */
import type { ServerResponse } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CircuitBreakingError, RejectedExecutionError } from '../errors/index.js';
import { humanBytes } from './cat-table.js';

export interface AdmissionLimits {
  readonly maxInFlightRequests: number;
  readonly indexingPressureBytes: number;
  /** Process RSS past which writes trip the parent breaker (Infinity: none). */
  readonly maxMemoryBytes: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Write bytes this request holds against the indexing pressure limit. */
    writeBytes?: number;
  }
}

/** The admitted request a response belongs to, until the response closes. */
const ADMITTED = Symbol('admitted');
type AdmittedResponse = ServerResponse & { [ADMITTED]?: FastifyRequest };

const WRITE_PATH = /\/(?:_bulk|_doc|_create|_update)(?:\/|\?|$)/;

export class Admission {
  private inFlight = 0;
  private writeBytes = 0;

  /** The `close` listener of every admitted response (`this` is the response). */
  private readonly onResponseClose: (this: AdmittedResponse) => void;

  constructor(private limits: AdmissionLimits) {
    const admission = this;
    this.onResponseClose = function onResponseClose(this: AdmittedResponse): void {
      const req = this[ADMITTED];
      if (req === undefined) return;
      this[ADMITTED] = undefined;
      admission.inFlight--;
      admission.release(req);
    };
  }

  /** `indices.breaker.total.limit` changed through the cluster settings (Infinity: none). */
  setMaxMemoryBytes(bytes: number): void {
    this.limits = { ...this.limits, maxMemoryBytes: bytes };
  }

  /** Current usage, for node stats and tests. */
  stats(): { inFlightRequests: number; writeBytes: number } {
    return { inFlightRequests: this.inFlight, writeBytes: this.writeBytes };
  }

  /**
   * Admits a request before anything else is spent on it (server.ts's onRequest hook calls it):
   * throws ES's 429s when the in-flight bound, the indexing pressure or the parent breaker refuses it.
   */
  admit(req: FastifyRequest, reply: FastifyReply): void {
    if (this.inFlight >= this.limits.maxInFlightRequests) {
      throw new RejectedExecutionError(
        `rejected execution of http request [in_flight_requests=${this.inFlight}, max_in_flight_requests=${this.limits.maxInFlightRequests}]`,
      );
    }
    this.inFlight++;
    req.writeBytes = 0;
    // One listener function for every response (it finds its request under ADMITTED), not a
    // closure and a `once` wrapper per request: ~0.6 KB of garbage on every request otherwise.
    // A response emits `close` once, whether it finished or the connection went away first.
    (reply.raw as AdmittedResponse)[ADMITTED] = req;
    reply.raw.on('close', this.onResponseClose);
    if (isWrite(req)) {
      const length = Number(req.headers['content-length']);
      this.checkParentBreaker(length > 0 ? length : 0);
      if (length > 0) this.reserve(req, length);
    }
  }

  /** Counts a chunked write body against the indexing pressure as it streams in. */
  register(app: FastifyInstance): void {
    // A chunked write body has no length up front: count it as it arrives.
    app.addHook('preParsing', (req, _reply, payload, done) => {
      if (req.headers['content-length'] !== undefined || !isWrite(req)) {
        done(null, payload);
        return;
      }
      const counter = new Transform({
        transform: (chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) => {
          try {
            this.reserve(req, chunk.length);
            done(null, chunk);
          } catch (e) {
            done(e as Error);
          }
        },
      });
      payload.on('error', (e) => counter.destroy(e));
      done(null, payload.pipe(counter) as unknown as typeof payload);
    });
  }

  /** ES HierarchyCircuitBreakerService.checkParentLimit with real memory usage: RSS + the body. */
  private checkParentBreaker(bytes: number): void {
    const limit = this.limits.maxMemoryBytes;
    if (limit === Infinity) return;
    const used = process.memoryUsage.rss();
    const wanted = used + bytes;
    if (wanted <= limit) return;
    throw new CircuitBreakingError(
      `[parent] Data too large, data for [<http_request>] would be [${wanted}/${humanBytes(wanted)}], which is larger than the limit of [${limit}/${humanBytes(limit)}], real usage: [${used}/${humanBytes(used)}], new bytes reserved: [${bytes}/${humanBytes(bytes)}]`,
      wanted, limit,
    );
  }

  private reserve(req: FastifyRequest, bytes: number): void {
    const limit = this.limits.indexingPressureBytes;
    if (this.writeBytes + bytes > limit) {
      const held = req.writeBytes ?? 0;
      throw new RejectedExecutionError(
        `rejected execution of coordinating operation [coordinating_and_primary_bytes=${this.writeBytes}, replica_bytes=0, all_bytes=${this.writeBytes}, coordinating_operation_bytes=${held + bytes}, max_coordinating_and_primary_bytes=${limit}]`,
      );
    }
    this.writeBytes += bytes;
    req.writeBytes = (req.writeBytes ?? 0) + bytes;
  }

  private release(req: FastifyRequest): void {
    this.writeBytes -= req.writeBytes ?? 0;
    req.writeBytes = 0;
  }
}

function isWrite(req: FastifyRequest): boolean {
  return req.method !== 'GET' && req.method !== 'HEAD' && WRITE_PATH.test(req.url);
}
