/**
 * Errors of the aggregation framework (ES AggregationInitializationException,
 * MultiBucketConsumerService.TooManyBucketsException). Kept beside the catalog, with the same shape.
 */
import { EsError } from './es-error.js';

export class AggregationInitializationError extends EsError {
  constructor(reason: string) {
    super('aggregation_initialization_exception', reason, 400);
  }
}

/**
 * ES AggregationExecutionException: 400 as its InvalidPath subclass (a bucket order names no usable
 * sub-aggregation); 500 as thrown plain, e.g. by BucketHelpers when a buckets_path names no number.
 */
export class AggregationExecutionError extends EsError {
  constructor(reason: string, status: 400 | 500 = 400) {
    super('aggregation_execution_exception', reason, status);
  }
}

/** ES `search.max_buckets` default (MultiBucketConsumerService.DEFAULT_MAX_BUCKETS). */
export const DEFAULT_MAX_BUCKETS = 65_536;

/** A response would hold more buckets than `search.max_buckets` allows; ES carries the limit as metadata. */
export class TooManyBucketsError extends EsError {
  constructor(count: number, limit = DEFAULT_MAX_BUCKETS) {
    super(
      'too_many_buckets_exception',
      `Trying to create too many buckets. Must be less than or equal to: [${limit}] but was [${count}]. This limit can be set by changing the [search.max_buckets] cluster level setting.`,
      400, { metadata: { max_buckets: limit } },
    );
  }
}
