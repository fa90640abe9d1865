/**
 * A model deployment's parameters (ES StartTrainedModelDeploymentAction.Request / TaskParams),
 * validated with ES's messages. The defaults are 8.x's (queue_capacity 1024, timeout 20s); the
 * upper bound on queue_capacity is current ES's (100000).
 */
import { ActionRequestValidationError, IllegalArgumentError } from '../errors/index.js';
import { SIMULATIONS, type Simulation } from './onnx/simulation-graph.js';

export type AllocationState = 'starting' | 'started' | 'fully_allocated';
export type Priority = 'normal' | 'low';

export const START_DEFAULTS = {
  numberOfAllocations: 1,
  threadsPerAllocation: 1,
  queueCapacity: 1024,
  timeoutMs: 20_000,
  waitFor: 'started' as AllocationState,
  priority: 'normal' as Priority,
};

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

export interface StartDeploymentRequest {
  readonly modelId: string;
  readonly deploymentId: string;
  readonly numberOfAllocations: number;
  readonly threadsPerAllocation: number;
  readonly queueCapacity: number;
  readonly timeoutMs: number;
  readonly waitFor: AllocationState;
  readonly priority: Priority;
  readonly cacheSize: number | null;
  readonly simulate: Simulation | null;
}

/** `simulate`: the name of a cost graph (threadsearch's own `_start` setting). */
export function parseSimulation(value: string): Simulation {
  const v = value.trim().toLowerCase();
  if ((SIMULATIONS as readonly string[]).includes(v)) return v as Simulation;
  throw new IllegalArgumentError(`[simulate] must be one of [${SIMULATIONS.join(', ')}] but was [${value.slice(0, 40)}]`);
}

/** ES AllocationStatus.State.fromString: an enum name, any case. */
export function parseAllocationState(value: string): AllocationState {
  const v = value.trim().toLowerCase();
  if (v === 'starting' || v === 'started' || v === 'fully_allocated') return v;
  throw new IllegalArgumentError(`No enum constant org.elasticsearch.xpack.core.ml.inference.assignment.AllocationStatus.State.${value.trim().toUpperCase()}`);
}

/** ES Priority.fromString. */
export function parsePriority(value: string): Priority {
  const v = value.trim().toLowerCase();
  if (v === 'normal' || v === 'low') return v;
  throw new IllegalArgumentError(`No enum constant org.elasticsearch.xpack.core.ml.inference.assignment.Priority.${value.trim().toUpperCase()}`);
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
