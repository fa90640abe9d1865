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
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

const WRITE_PATH = /\/(?:_bulk|_doc|_create|_update)(?:\/|\?|$)/;

export class Admission {
  private inFlight = 0;
  private writeBytes = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  /** Current usage, for node stats and tests. */
  stats(): { inFlightRequests: number; writeBytes: number } {
    return { inFlightRequests: this.inFlight, writeBytes: this.writeBytes };
  }

  register(app: FastifyInstance): void {
    // Callback-style hooks (no promise per request), as in server.ts.
    app.addHook('onRequest', (req, reply, done) => {
      if (this.inFlight >= this.limits.maxInFlightRequests) {
        done(new RejectedExecutionError(
          `rejected execution of http request [in_flight_requests=${this.inFlight}, max_in_flight_requests=${this.limits.maxInFlightRequests}]`,
        ));
        return;
      }
      this.inFlight++;
      req.writeBytes = 0;
      reply.raw.once('close', () => {
        this.inFlight--;
        this.release(req);
      });
      const length = Number(req.headers['content-length']);
      try {
        if (isWrite(req)) {
          this.checkParentBreaker(length > 0 ? length : 0);
          if (length > 0) this.reserve(req, length);
        }
      } catch (e) {
        done(e as Error);
        return;
      }
      done();
    });

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
