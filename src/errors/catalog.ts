/**
 * The catalog of ES error types the server produces: one constructor per ES exception class, with
 * the reason wording and metadata ES uses (es-api.md §9). Code never builds an EsError by type name
 * elsewhere, so the wording lives here once.
 */
import { EsError, type ErrorMetadata } from './es-error.js';
import { previewInput } from './input-preview.js';

const NA = '_na_';

export class IndexNotFoundError extends EsError {
  constructor(name: string, resourceType: 'index_or_alias' | 'index_expression' = 'index_or_alias') {
    // An index name is at most 255 bytes: anything longer a client sent is quoted as a prefix.
    const index = previewInput(name, 255);
    super('index_not_found_exception', `no such index [${index}]`, 404, {
      metadata: { 'resource.type': resourceType, 'resource.id': index, index_uuid: NA, index },
    });
  }
}

/** A write to a missing index whose matching template says `allow_auto_create: false`. */
export class AutoCreateForbiddenError extends EsError {
  constructor(index: string, template: string) {
    super('index_not_found_exception', `no such index [${index}] and composable template [${template}] forbids index auto creation`, 404, {
      metadata: { 'resource.type': 'index_or_alias', 'resource.id': index, index_uuid: NA, index },
    });
  }
}

export class ResourceAlreadyExistsError extends EsError {
  constructor(index: string, uuid: string) {
    super('resource_already_exists_exception', `index [${index}/${uuid}] already exists`, 400, {
      metadata: { index_uuid: uuid, index },
    });
  }
}

export class InvalidIndexNameError extends EsError {
  constructor(name: string, rule: string) {
    super('invalid_index_name_exception', `Invalid index name [${name}], ${rule}`, 400, {
      metadata: { index_uuid: NA, index: name },
    });
  }
}

/** ES InvalidAliasNameException: a bad alias name, or one that clashes with an index (metadata: that index). */
export class InvalidAliasNameError extends EsError {
  constructor(name: string, description: string, index?: { name: string; uuid: string }) {
    super('invalid_alias_name_exception', `Invalid alias name [${name}]: ${description}`, 400, {
      metadata: { index_uuid: index?.uuid ?? NA, index: index?.name ?? name },
    });
  }
}

/** Java's IllegalStateException: ES renders it as a 500 (e.g. an alias given two write indices). */
export class IllegalStateError extends EsError {
  constructor(reason: string) {
    super('illegal_state_exception', reason, 500);
  }
}

/** ES AliasesNotFoundException (a ResourceNotFoundException): "aliases [a,b] missing". */
export class AliasesNotFoundError extends EsError {
  constructor(names: readonly string[]) {
    super('aliases_not_found_exception', `aliases [${names.join(',')}] missing`, 404, {
      metadata: { 'resource.type': 'aliases', 'resource.id': names.length === 1 ? names[0] : [...names] },
    });
  }
}

/**
 * ES ParsingException: a request-body parse error, shown with the `line`/`col` of the offending
 * value (or of its field name, `at: 'key'`) once the HTTP layer locates it in the body.
 */
export class ParsingError extends EsError {
  constructor(reason: string, cause?: EsError, at: 'value' | 'key' = 'value') {
    super('parsing_exception', reason, 400, { cause, location: { style: 'metadata', atKey: at === 'key' } });
  }
}

/**
 * ES XContentParseException (object-parser failures): its reason is prefixed with `[line:col] `
 * once located. `at: null` for an error that already carries its position (malformed JSON).
 */
export class XContentParseError extends EsError {
  constructor(reason: string, cause?: EsError, at: 'value' | 'key' | null = 'value') {
    super('x_content_parse_exception', reason, 400, { cause, location: at === null ? undefined : { style: 'prefix', atKey: at === 'key' } });
  }
}

/** An unknown name in a registry of parsers (ES NamedObjectNotFoundException, an XContentParseException). */
export class NamedObjectNotFoundError extends EsError {
  constructor(reason: string) {
    super('named_object_not_found_exception', reason, 400, { location: { style: 'prefix' } });
  }
}

export class IllegalArgumentError extends EsError {
  constructor(reason: string, cause?: EsError, metadata?: ErrorMetadata) {
    super('illegal_argument_exception', reason, 400, { cause, metadata });
  }
}

/** A body past `http.max_content_length`, counted decoded (ES's HTTP layer inflates before it aggregates): 413. */
export class ContentTooLongError extends EsError {
  constructor(maxContentLength: number) {
    super('content_too_long_exception', `entity content is too long for the configured buffer limit [${maxContentLength}]`, 413);
  }
}

/** A gzip, deflate or br request body that does not decompress: bad input, not a server failure. */
export class DecompressionError extends IllegalArgumentError {
  constructor(message: string) {
    super(`failed to decompress the request body: ${message}`);
  }
}

export class ActionRequestValidationError extends EsError {
  constructor(messages: string[]) {
    const reason = 'Validation Failed: ' + messages.map((m, i) => `${i + 1}: ${m};`).join('');
    super('action_request_validation_exception', reason, 400);
  }
}

export class MapperParsingError extends EsError {
  constructor(reason: string, cause?: EsError) {
    super('mapper_parsing_exception', reason, 400, { cause });
  }
}

/** 8.8+ per-document parse failure; reason is prefixed with the parser position `[line:col] `. */
export class DocumentParsingError extends EsError {
  constructor(reason: string, cause?: EsError) {
    super('document_parsing_exception', reason, 400, { cause });
  }
}

export class StrictDynamicMappingError extends EsError {
  constructor(reason: string) {
    super('strict_dynamic_mapping_exception', reason, 400);
  }
}

export class VersionConflictError extends EsError {
  constructor(reason: string, index: string, uuid: string, shard: number) {
    super('version_conflict_engine_exception', reason, 409, {
      metadata: { index_uuid: uuid, shard: String(shard), index },
    });
  }
}

export class DocumentMissingError extends EsError {
  constructor(id: string, index: string, uuid: string, shard: number) {
    super('document_missing_exception', `[${id}]: document missing`, 404, {
      metadata: { index_uuid: uuid, shard: String(shard), index },
    });
  }
}

export class QueryShardError extends EsError {
  constructor(reason: string, index?: { name: string; uuid: string }, cause?: EsError) {
    super('query_shard_exception', reason, 400, {
      metadata: index ? { index_uuid: index.uuid, index: index.name } : {},
      cause,
    });
  }
}

/** ES InvalidIndexTemplateException: "index_template [name] invalid, cause [...]". */
export class InvalidIndexTemplateError extends EsError {
  constructor(name: string, cause: string) {
    super('invalid_index_template_exception', `index_template [${name}] invalid, cause [${cause}]`, 400);
  }
}

/** ES IndexTemplateMissingException: deleting a template that does not exist. */
export class IndexTemplateMissingError extends EsError {
  constructor(name: string) {
    super('index_template_missing_exception', `index_template [${name}] missing`, 404);
  }
}

/** ES SearchContextMissingException: a scroll or point in time that expired, was freed, or never was. */
export class SearchContextMissingError extends EsError {
  constructor(id: number) {
    super('search_context_missing_exception', `No search context found for id [${id}]`, 404);
  }
}

/** ES TooManyScrollContextsException: `search.max_open_scroll_context` open scrolls already. */
export class TooManyScrollContextsError extends EsError {
  constructor(max: number) {
    super('too_many_scroll_contexts_exception', `Trying to create too many scroll contexts. Must be less than or equal to: [${max}]. This limit can be set by changing the [search.max_open_scroll_context] setting.`, 429);
  }
}

export class ResourceNotFoundError extends EsError {
  constructor(reason: string) {
    super('resource_not_found_exception', reason, 404);
  }
}

export class RejectedExecutionError extends EsError {
  constructor(reason: string) {
    super('es_rejected_execution_exception', reason, 429);
  }
}

/**
 * ES's CircuitBreakingException from the parent breaker: the request would take the node past its
 * memory limit. TRANSIENT: retrying later may succeed (ES clients back off on the 429).
 */
export class CircuitBreakingError extends EsError {
  constructor(reason: string, bytesWanted: number, bytesLimit: number) {
    super('circuit_breaking_exception', reason, 429, { metadata: { bytes_wanted: bytesWanted, bytes_limit: bytesLimit, durability: 'TRANSIENT' } });
  }
}

export class MediaTypeHeaderError extends EsError {
  constructor(reason: string, cause?: EsError) {
    super('media_type_header_exception', reason, 400, { cause });
  }
}

export class StatusError extends EsError {
  constructor(reason: string, status: number) {
    super('status_exception', reason, status);
  }
}

/** Java's NumberFormatException; `null` input is the empty string ("empty String", as Double.parseDouble says). */
export class NumberFormatError extends EsError {
  constructor(input: string | null) {
    super('number_format_exception', input === null ? 'empty String' : `For input string: "${previewInput(input)}"`, 400);
  }
}

/** java.time's DateTimeParseException, the cause ES gives for a date no format alternative parses. */
export class DateTimeParseError extends EsError {
  constructor(reason: string) {
    super('date_time_parse_exception', reason, 400);
  }
}

/** Lucene's ParseException (query_string syntax), a plain Java exception: not a root cause. */
export class ParseError extends EsError {
  constructor(reason: string, cause?: EsError) {
    super('parse_exception', reason, 400, { cause });
  }
}

/**
 * A failure that happened while executing a search on shards. ES answers with the cause's status,
 * type `search_phase_execution_exception`, reason "all shards failed", and lists each failed shard.
 */
export class SearchPhaseExecutionError extends EsError {
  /**
   * `reason` is "all shards failed" unless some shards succeeded and the request disallowed partial
   * results (ES AbstractSearchAsyncAction: "Partial shards failure", which names no `caused_by`).
   */
  constructor(phase: string, failures: Array<{ shard: number; index: string; node: string; cause: EsError }>, reason = 'all shards failed') {
    const first = failures[0]?.cause;
    // Distinct causes only, as ES groups identical shard failures (`grouped: true`).
    const seen = new Set<string>();
    const roots: EsError[] = [];
    for (const f of failures) {
      const key = `${f.index}|${f.cause.type}|${f.cause.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        roots.push(f.cause);
      }
    }
    const grouped = roots.length < failures.length || failures.length === 1;
    super('search_phase_execution_exception', reason, first?.status ?? 500, {
      rootCauses: roots,
      extra: {
        phase,
        grouped,
        failed_shards: failures
          .filter((f, i) => !grouped || failures.findIndex((g) => g.index === f.index && g.cause.message === f.cause.message) === i)
          .map((f) => ({ shard: f.shard, index: f.index, node: f.node, reason: f.cause.toObject() })),
      },
      cause: reason === 'all shards failed' ? first : undefined,
    });
  }
}

/**
 * A failure of the coordinator's final reduce, e.g. a pipeline aggregation's buckets_path naming no
 * number (ES FetchSearchPhase → onPhaseFailure("fetch", "", cause)): no shard failed, so ES lists
 * no `root_cause` and answers with the cause's status.
 */
export class ReducePhaseError extends EsError {
  constructor(cause: EsError) {
    super('search_phase_execution_exception', '', cause.status, { cause, rootCauses: [], extra: { phase: 'fetch', grouped: true, failed_shards: [] } });
  }
}

/**
 * ES SearchException raised with a message of its own while a shard parses a search (SearchService
 * parseSource: `collapse` with a scroll, `rescore` or a `search_after` not on the collapse field):
 * it wraps no cause, so its status is 500.
 */
export class SearchError extends EsError {
  constructor(reason: string) {
    super('search_exception', reason, 500);
  }
}

/**
 * ES QueryPhaseExecutionException (a SearchException, status 500): the query phase of one shard
 * failed. A search timeout with `allow_partial_search_results=false` is this, "Failed to execute
 * main query" caused by "Time exceeded" (ES QueryPhase).
 */
export class QueryPhaseExecutionError extends EsError {
  constructor(reason: string, cause?: EsError) {
    super('query_phase_execution_exception', reason, 500, { cause });
  }
}

/** Lucene's IndexSearcher.TooManyNestedClauses, as ES 8 reports it (under "Query rewrite failed"). */
export class TooManyClausesError extends IllegalArgumentError {
  constructor(maxClauseCount: number) {
    super('Query rewrite failed: too many clauses', new EsError('too_many_nested_clauses', `Query contains too many nested clauses; maxClauseCount is set to ${maxClauseCount}`, 400));
  }
}

/** Bugs and unexpected failures: rendered without a stack trace, never a 502/503/504. */
export class InternalError extends EsError {
  constructor(reason: string) {
    super('exception', reason, 500);
  }
}

/** The `WWW-Authenticate` challenges ES sends with a 401, one per scheme it accepts. */
export const AUTHENTICATE_CHALLENGES: readonly string[] = ['ApiKey'];

/**
 * ES ElasticsearchSecurityException: 401 (authentication) carries the challenges in its `header`
 * metadata, which ES mirrors into the `WWW-Authenticate` response header; 403 (authorization) does not.
 */
export class SecurityError extends EsError {
  private constructor(reason: string, status: 401 | 403, metadata?: ErrorMetadata) {
    super('security_exception', reason, status, { metadata });
  }

  /** No `Authorization` header at all (the reason names the request path as sent, with its query string). */
  static missingCredentials(uri: string): SecurityError {
    return new SecurityError(`missing authentication credentials for REST request [${uri}]`, 401, { header: { 'WWW-Authenticate': [...AUTHENTICATE_CHALLENGES] } });
  }

  /** Credentials were sent but did not authenticate; `detail` is ES's `additional_unsuccessful_credentials`. */
  static unableToAuthenticate(detail: string): SecurityError {
    return new SecurityError('unable to authenticate with provided credentials and anonymous access is not allowed for this request', 401, {
      additional_unsuccessful_credentials: detail,
      header: { 'WWW-Authenticate': [...AUTHENTICATE_CHALLENGES] },
    });
  }

  /** ES AuthorizationDenialMessages: who was refused which action, where, and what would grant it. */
  static unauthorized(action: string, principal: string, indices: readonly string[] | null, granting: { kind: 'index' | 'cluster'; privileges: readonly string[] } | null): SecurityError {
    let reason = `action [${action}] is unauthorized for ${principal}`;
    if (indices !== null && indices.length > 0) reason += ` on indices [${indices.join(',')}]`;
    if (granting && granting.privileges.length > 0) reason += `, this action is granted by the ${granting.kind} privileges [${granting.privileges.join(',')}]`;
    return new SecurityError(reason, 403);
  }

  /** 403s that are not action denials (e.g. a derived key asking for more than its creator has). */
  static forbidden(reason: string): SecurityError {
    return new SecurityError(reason, 403);
  }

  /** The challenges to send as `WWW-Authenticate` headers (401 only). */
  get challenges(): readonly string[] {
    const header = this.metadata.header as { 'WWW-Authenticate'?: string[] } | undefined;
    return header?.['WWW-Authenticate'] ?? [];
  }
}

// ---- Machine learning (ES ExceptionsHelper, Messages, and the trained-model transport actions) ----

/** ES Messages.INFERENCE_NOT_FOUND: inference against an id that is neither a model nor a deployment. */
export class TrainedModelNotFoundError extends ResourceNotFoundError {
  constructor(id: string) {
    super(`Could not find trained model [${id}]`);
  }
}

/** ES ExceptionsHelper.missingTrainedModel: GET / DELETE / stats of ids that match no model. */
export class MissingTrainedModelError extends ResourceNotFoundError {
  constructor(ids: string) {
    super(`No known trained model with model_id [${ids}]`);
  }
}

/** ES ExceptionsHelper.missingModelDeployment: stop / update of an id with no deployment. */
export class MissingModelDeploymentError extends ResourceNotFoundError {
  constructor(id: string) {
    super(`No known model deployment with id [${id}]`);
  }
}

/** ES Messages.MODEL_ID_TAKEN (TrainedModelProvider.storeTrainedModel on a duplicate id). */
export class TrainedModelExistsError extends EsError {
  constructor(modelId: string) {
    super('resource_already_exists_exception', `Trained machine learning model [${modelId}] already exists`, 400);
  }
}

/**
 * ES ModelDeploymentTimeoutException (an ElasticsearchStatusException, 408): `wait_for` was not
 * reached within `timeout`. The deployment stays; its stats show how far it got.
 */
export class ModelDeploymentTimeoutError extends EsError {
  constructor(timeout: string, deploymentId: string) {
    super(
      'model_deployment_timeout_exception',
      `Timed out after [${timeout}] waiting for trained model deployment [${deploymentId}] to start. Use the trained model stats API to track the state of the deployment and try again once it has started.`,
      408,
    );
  }
}

/**
 * ES TransportStartTrainedModelDeploymentAction: no ML node can take a single allocation (429),
 * with the placement explanation in an `illegal_state_exception` cause.
 */
export class NoMlCapacityError extends EsError {
  constructor(explanation: string) {
    super('status_exception', 'Could not start deployment because no ML nodes with sufficient capacity were found', 429, {
      cause: new EsError('illegal_state_exception', `Could not start deployment because no suitable nodes were found, allocation explanation [${explanation}]`, 500),
    });
  }
}

// ---- Ingest (ES ConfigurationUtils, FailProcessor) ----

/**
 * ES ElasticsearchParseException as ingest's ConfigurationUtils raises it for a bad pipeline or
 * processor definition: the reason names the property (`[field] required property is missing`),
 * and the processor's type, tag and property travel as `processor_type` / `processor_tag` /
 * `property_name` metadata (ES's `es.*` metadata keys, rendered without the prefix).
 */
export class IngestConfigurationError extends EsError {
  constructor(reason: string, where: { processorType?: string | null; processorTag?: string | null; propertyName?: string | null } = {}) {
    const metadata: ErrorMetadata = {};
    if (where.processorType) metadata.processor_type = where.processorType;
    if (where.processorTag) metadata.processor_tag = where.processorTag;
    if (where.propertyName) metadata.property_name = where.propertyName;
    super('parse_exception', where.propertyName ? `[${where.propertyName}] ${reason}` : reason, 400, { metadata });
  }
}

/** ES FailProcessorException: a RuntimeException, so ES answers 500 with the processor's message. */
export class FailProcessorError extends EsError {
  constructor(message: string) {
    super('fail_processor_exception', message, 500);
  }
}

// ---- Tasks (ES TaskId, TransportGetTaskAction, TransportCancelTasksAction) ----

/** ES ElasticsearchTimeoutException (408): a `wait_for_completion` wait ran out. */
export class TaskTimeoutError extends EsError {
  constructor(taskId: string) {
    super('timeout_exception', `Timed out waiting for completion of task [${taskId}]`, 408);
  }
}

/**
 * Lucene's TooComplexToDeterminizeException: a regexp or wildcard whose automaton would need more
 * than `max_determinized_states` states (Lucene 9's wording). ES shows it as the cause of
 * "failed to create query: …" (400); on its own it is a client error too, so 400 here as well.
 */
export class TooComplexToDeterminizeError extends EsError {
  constructor(nfaStates: number, nfaTransitions: number, maxDeterminizedStates: number) {
    super(
      'too_complex_to_determinize_exception',
      `Determinizing automaton with ${nfaStates} states and ${nfaTransitions} transitions would result in more than ${maxDeterminizedStates} states.`,
      400,
    );
  }
}

// ---- snapshots ----------------------------------------------------------------------------------

/** ES RepositoryException: a repository that cannot be registered or used (ES renders it as a 500). */
export class RepositoryError extends EsError {
  constructor(repository: string, reason: string, cause?: EsError) {
    super('repository_exception', `[${repository}] ${reason}`, 500, { cause });
  }
}

export class RepositoryMissingError extends EsError {
  constructor(repository: string) {
    super('repository_missing_exception', `[${repository}] missing`, 404);
  }
}

export class SnapshotMissingError extends EsError {
  constructor(repository: string, snapshot: string) {
    super('snapshot_missing_exception', `[${repository}:${snapshot}] is missing`, 404);
  }
}

export class InvalidSnapshotNameError extends EsError {
  constructor(repository: string, snapshot: string, description: string) {
    super('invalid_snapshot_name_exception', `[${repository}:${snapshot}] Invalid snapshot name [${snapshot}], ${description}`, 400);
  }
}

/** ES SnapshotRestoreException; `snapshot` is `name/uuid` as ES prints it once the snapshot is known. */
export class SnapshotRestoreError extends EsError {
  constructor(repository: string, snapshot: string, reason: string) {
    super('snapshot_restore_exception', `[${repository}:${snapshot}] ${reason}`, 500);
  }
}

/** ES SnapshotException: a snapshot that could not be taken or deleted. */
export class SnapshotError extends EsError {
  constructor(repository: string, snapshot: string, reason: string, status = 500) {
    super('snapshot_exception', `[${repository}:${snapshot}] ${reason}`, status);
  }
}

export class RepositoryVerificationError extends EsError {
  constructor(repository: string, reason: string) {
    super('repository_verification_exception', `[${repository}] ${reason}`, 500);
  }
}
