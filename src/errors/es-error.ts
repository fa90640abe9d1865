/**
 * The one error type the server throws for anything a client did or asked for.
 *
 * An EsError knows its ES `type` (snake_case of the Java exception class), its HTTP status, the
 * metadata keys ES flattens into the error object (`index`, `index_uuid`, `resource.id`, `line`, …)
 * and an optional cause. It renders itself into the ES body in exactly one place (`toBody`), and
 * crosses threads as plain data (`toPlain` / `EsError.fromPlain`) so worker failures are rebuilt on
 * the coordinator with their ES shape intact.
 */

export type ErrorMetadata = Record<string, unknown>;

/** The serialisable form of an error (what ES shows as one object of `root_cause` or `caused_by`). */
export interface PlainError {
  type: string;
  reason: string;
  status: number;
  metadata?: ErrorMetadata;
  cause?: PlainError;
  /** Explicit root causes (search phase failures list the shard causes, not the wrapper). */
  rootCauses?: PlainError[];
  /** Extra members rendered on the top-level error object only (e.g. `phase`, `failed_shards`). */
  extra?: ErrorMetadata;
}

export class EsError extends Error {
  readonly type: string;
  readonly status: number;
  readonly metadata: ErrorMetadata;
  override readonly cause?: EsError;
  readonly rootCauses?: EsError[];
  readonly extra?: ErrorMetadata;

  constructor(
    type: string,
    reason: string,
    status: number,
    options: { metadata?: ErrorMetadata; cause?: EsError; rootCauses?: EsError[]; extra?: ErrorMetadata } = {},
  ) {
    super(reason);
    this.name = 'EsError';
    this.type = type;
    this.status = status;
    this.metadata = options.metadata ?? {};
    if (options.cause) this.cause = options.cause;
    if (options.rootCauses) this.rootCauses = options.rootCauses;
    if (options.extra) this.extra = options.extra;
  }

  get reason(): string {
    return this.message;
  }

  /** One error object as ES renders it inside `root_cause` / `caused_by` / bulk items. */
  toObject(includeCause = true): Record<string, unknown> {
    const obj: Record<string, unknown> = { type: this.type, reason: this.message, ...this.metadata };
    if (includeCause && this.cause) obj.caused_by = this.cause.toObject();
    return obj;
  }

  /** The deepest causes, which ES lists in `root_cause`. */
  rootCauseObjects(): Record<string, unknown>[] {
    if (this.rootCauses && this.rootCauses.length > 0) return this.rootCauses.map((e) => e.toObject(false));
    // ES walks `caused_by` only through ElasticsearchException wrappers that declare themselves
    // non-root (e.g. search_phase_execution_exception); for ordinary errors the root cause is the
    // error itself minus its cause chain.
    return [this.toObject(false)];
  }

  /** The full response body `{error: {...}, status}`. */
  toBody(): Record<string, unknown> {
    const error: Record<string, unknown> = { root_cause: this.rootCauseObjects(), ...this.toObject(), ...this.extra };
    return { error, status: this.status };
  }

  toPlain(): PlainError {
    const plain: PlainError = { type: this.type, reason: this.message, status: this.status };
    if (Object.keys(this.metadata).length > 0) plain.metadata = this.metadata;
    if (this.cause) plain.cause = this.cause.toPlain();
    if (this.rootCauses) plain.rootCauses = this.rootCauses.map((e) => e.toPlain());
    if (this.extra) plain.extra = this.extra;
    return plain;
  }

  static fromPlain(plain: PlainError): EsError {
    return new EsError(plain.type, plain.reason, plain.status, {
      metadata: plain.metadata,
      cause: plain.cause ? EsError.fromPlain(plain.cause) : undefined,
      rootCauses: plain.rootCauses?.map((p) => EsError.fromPlain(p)),
      extra: plain.extra,
    });
  }
}

/**
 * Routing-level failures that ES reports with a bare string `error` member (no envelope), e.g.
 * "no handler found for uri [/x/_foo] and method [GET]" (es-api.md §9).
 */
export class RestStatusError extends Error {
  readonly status: number;
  readonly includeStatus: boolean;
  readonly headers: Record<string, string>;
  constructor(message: string, status: number, includeStatus: boolean, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'RestStatusError';
    this.status = status;
    this.includeStatus = includeStatus;
    this.headers = headers;
  }
  toBody(): Record<string, unknown> {
    return this.includeStatus ? { error: this.message, status: this.status } : { error: this.message };
  }
}
