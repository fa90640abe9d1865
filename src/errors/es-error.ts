/**
 * The one error type the server throws for anything a client did or asked for.
 *
 * An EsError knows its ES `type` (snake_case of the Java exception class), its HTTP status, the
 * metadata keys ES flattens into the error object (`index`, `index_uuid`, `resource.id`, `line`, …)
 * and an optional cause. It renders itself into the ES body in exactly one place (`toBody`), and
 * crosses threads as plain data (`toPlain` / `EsError.fromPlain`) so worker failures are rebuilt on
 * the coordinator with their ES shape intact.
 */

import { MAX_MESSAGE_CHARS, boundedMetadataValue, previewInput } from './input-preview.js';

export type ErrorMetadata = Record<string, unknown>;

/** A path from a request body's root: object keys and array indices. */
export type JsonPath = Array<string | number>;

export interface Position {
  readonly line: number;
  readonly col: number;
}

/**
 * Where a request-body parse error points (ES's XContentLocation). The DSL parses decoded JSON, so
 * instead of a line/col this is a JSON path: it grows outward as the error leaves each enclosing
 * parser (`prependPath`), is complete once the whole-body parser has seen it (`inBody`), and becomes
 * line/col in the raw text only when the error is rendered (`withPositions`). Successful requests
 * never track positions.
 */
export interface BodyLocation {
  readonly path: JsonPath;
  /** ES points at the field name, not its value (ObjectParser "unknown field", count's "request does not support"). */
  readonly atKey: boolean;
  /** ParsingException shows it as `line`/`col` metadata; XContentParseException prefixes its reason with `[line:col] `. */
  readonly style: 'metadata' | 'prefix';
  inBody: boolean;
}

/**
 * The types that are ElasticsearchException subclasses. ES's `guessRootCauses` descends through a
 * cause only from one of these into another; plain Java exceptions (illegal_argument_exception,
 * number_format_exception, x_content_parse_exception, Lucene's parse_exception, …) end the descent.
 * Kept here, beside the walk, because catalog.ts imports this module (the reverse would be a cycle).
 */
export const ELASTICSEARCH_EXCEPTION_TYPES: ReadonlySet<string> = new Set([
  'exception', 'parsing_exception', 'index_not_found_exception', 'resource_already_exists_exception',
  'invalid_index_name_exception', 'mapper_parsing_exception', 'document_parsing_exception',
  'strict_dynamic_mapping_exception', 'version_conflict_engine_exception', 'document_missing_exception',
  'query_shard_exception', 'resource_not_found_exception', 'status_exception', 'search_phase_execution_exception',
  'security_exception', 'query_phase_execution_exception', 'invalid_alias_name_exception', 'aliases_not_found_exception',
  'repository_exception', 'repository_missing_exception', 'snapshot_missing_exception', 'invalid_snapshot_name_exception',
  'snapshot_restore_exception', 'snapshot_exception', 'repository_verification_exception', 'script_exception',
]);

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
  /** Request-body parse errors only; not carried across threads (the DSL runs on the coordinator). */
  readonly location?: BodyLocation;

  constructor(
    type: string,
    reason: string,
    status: number,
    options: {
      metadata?: ErrorMetadata; cause?: EsError; rootCauses?: EsError[]; extra?: ErrorMetadata;
      location?: { style: BodyLocation['style']; atKey?: boolean };
    } = {},
  ) {
    // Reasons and metadata often quote client input: held to a few KB here, whatever was quoted.
    super(previewInput(reason, MAX_MESSAGE_CHARS));
    this.name = 'EsError';
    this.type = type;
    this.status = status;
    this.metadata = boundMetadata(options.metadata);
    if (options.cause) this.cause = options.cause;
    if (options.rootCauses) this.rootCauses = options.rootCauses;
    if (options.extra) this.extra = options.extra;
    if (options.location) this.location = { path: [], atKey: options.location.atKey ?? false, style: options.location.style, inBody: false };
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

  /**
   * What ES lists in `root_cause` (ElasticsearchException.guessRootCauses): explicit root causes
   * (a search phase failure's shard causes; none when no shard failed) are each guessed in turn;
   * otherwise the walk follows `caused_by` while both ends are ES exceptions, and stops at the first
   * plain Java exception.
   */
  guessRootCauses(): EsError[] {
    if (this.rootCauses) return this.rootCauses.flatMap((e) => e.guessRootCauses());
    const descend = this.cause && ELASTICSEARCH_EXCEPTION_TYPES.has(this.type) && ELASTICSEARCH_EXCEPTION_TYPES.has(this.cause.type);
    return descend ? this.cause!.guessRootCauses() : [this];
  }

  /** The full response body `{error: {...}, status}`. */
  toBody(): Record<string, unknown> {
    const rootCause = this.guessRootCauses().map((e) => e.toObject(false));
    const error: Record<string, unknown> = { root_cause: rootCause, ...this.toObject(), ...this.extra };
    return { error, status: this.status };
  }

  /** A parse error leaving the parser of the value under `key`: the key joins its (and its causes') paths. */
  prependPath(key: string | number): void {
    for (let e: EsError | undefined = this; e; e = e.cause) e.location?.path.unshift(key);
  }

  /** A parse error leaving the whole-body parser: its paths now start at the body root. */
  markInBody(): void {
    for (let e: EsError | undefined = this; e; e = e.cause) if (e.location) e.location.inBody = true;
  }

  /** Whether this error or a cause points into the request body (`withPositions` has something to locate). */
  locatesInBody(): boolean {
    return this.location?.inBody === true || (this.cause?.locatesInBody() ?? false);
  }

  /** This error with body positions filled in where ES shows them (see BodyLocation); `this` when none. */
  withPositions(locate: (path: JsonPath, atKey: boolean) => Position): EsError {
    const cause = this.cause?.withPositions(locate);
    const loc = this.location;
    if (!loc?.inBody && cause === this.cause) return this;
    let reason = this.message;
    let metadata = this.metadata;
    if (loc?.inBody) {
      const p = locate(loc.path, loc.atKey);
      if (loc.style === 'prefix') reason = `[${p.line}:${p.col}] ${reason}`;
      else metadata = { ...metadata, line: p.line, col: p.col };
    }
    return new EsError(this.type, reason, this.status, { metadata, cause, rootCauses: this.rootCauses, extra: this.extra });
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

function boundMetadata(metadata: ErrorMetadata | undefined): ErrorMetadata {
  if (!metadata) return {};
  for (const v of Object.values(metadata)) {
    if ((typeof v === 'string' && v.length > MAX_MESSAGE_CHARS) || (v !== null && typeof v === 'object')) {
      return boundedMetadataValue(metadata) as ErrorMetadata;
    }
  }
  return metadata;
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
    super(previewInput(message, MAX_MESSAGE_CHARS));
    this.name = 'RestStatusError';
    this.status = status;
    this.includeStatus = includeStatus;
    this.headers = headers;
  }
  toBody(): Record<string, unknown> {
    return this.includeStatus ? { error: this.message, status: this.status } : { error: this.message };
  }
}
