/**
 * A model deployment's parameters (ES StartTrainedModelDeploymentAction.Request / TaskParams),
 * validated with ES's messages; the request itself is read in dsl/ml-deployment-request.ts. The defaults are 8.x's (queue_capacity 1024, timeout 20s); the
 * upper bound on queue_capacity is current ES's (100000).
 */
import { ActionRequestValidationError, IllegalArgumentError } from '../errors/index.js';
import type { Priority, Simulation, StartDeploymentRequest } from '../dsl/index.js';

const MAX_THREADS_PER_ALLOCATION = 32;
const MAX_QUEUE_CAPACITY = 100_000;

/** What is stored per started deployment (the persistent task's params). */
export interface DeploymentRecord {
  readonly deployment_id: string;
  readonly model_id: string;
  readonly number_of_allocations: number;
  readonly threads_per_allocation: number;
  readonly queue_capacity: number;
  readonly priority: Priority;
  /** Bytes; null = the model's size (ES's default). */
  readonly cache_size: number | null;
  /** Epoch millis. */
  readonly start_time: number;
  /** Simulation mode: each inference also runs this graph (threadsearch's own setting; absent = none). */
  readonly simulate?: Simulation;
}

function isPowerOf2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

/** ES Request.validate(): every problem at once, as one action_request_validation_exception. */
export function validateStartDeployment(r: StartDeploymentRequest): void {
  const errors: string[] = [];
  if (r.numberOfAllocations < 1) errors.push('[number_of_allocations] must be a positive integer');
  if (r.threadsPerAllocation < 1) errors.push('[threads_per_allocation] must be a positive integer');
  if (r.threadsPerAllocation > MAX_THREADS_PER_ALLOCATION || !isPowerOf2(r.threadsPerAllocation)) {
    errors.push(`[threads_per_allocation] must be a power of 2 less than or equal to ${MAX_THREADS_PER_ALLOCATION}`);
  }
  if (r.queueCapacity < 1) errors.push('[queue_capacity] must be a positive integer');
  if (r.queueCapacity > MAX_QUEUE_CAPACITY) errors.push(`[queue_capacity] must be less than ${MAX_QUEUE_CAPACITY}`);
  if (r.timeoutMs <= 0) errors.push('[timeout] must be positive');
  if (r.priority === 'low') {
    if (r.numberOfAllocations > 1) errors.push('[number_of_allocations] must be 1 when [priority] is low');
    if (r.threadsPerAllocation > 1) errors.push('[threads_per_allocation] must be 1 when [priority] is low');
  }
  if (errors.length > 0) throw new ActionRequestValidationError(errors);
}

/** ES UpdateTrainedModelDeploymentAction.Request.validate for `number_of_allocations`. */
export function validateUpdateDeployment(numberOfAllocations: number): void {
  if (numberOfAllocations < 1) throw new ActionRequestValidationError(['[number_of_allocations] must be a positive integer']);
}
