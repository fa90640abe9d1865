/**
 * The `_start`, `_update` and `_stop` requests of trained model deployments (ES
 * StartTrainedModelDeploymentAction.Request and friends): the parameter vocabulary, its defaults
 * (8.x's: queue_capacity 1024, timeout 20s) and the parsers that merge body fields with URL
 * parameters. The request's cross-field validation lives with the deployments in ml/.
 */
import { IllegalArgumentError, ParseError, StatusError, XContentParseError } from '../errors/index.js';
import { parseByteSize } from '../common/byte-size.js';
import { forEachEntry, parseBody, readInt, readString } from './parse-helpers.js';
import { parseJsonObject } from './json-body.js';
import { intParam, timeParam, type UrlParams } from './url-params.js';
import { mlUnknownField, readObjectField } from './ml-model-request.js';

/** The cost graphs a deployment can simulate (threadsearch's `simulate` setting; ml/onnx builds them). */
export const SIMULATIONS = ['bert-base'] as const;
export type Simulation = (typeof SIMULATIONS)[number];

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

function byteSizeParam(value: string, name: string): number {
  try {
    return parseByteSize(value, name);
  } catch (e) {
    throw new ParseError((e as Error).message);
  }
}


/** ES's `_start` parameters, and `simulate` (threadsearch's simulation mode). */
export const START_PARAMS = ['number_of_allocations', 'threads_per_allocation', 'queue_capacity', 'wait_for', 'deployment_id', 'timeout', 'priority', 'cache_size', 'simulate'];

/**
 * `_start`: parameters from the body (8.16+ clients) and then the query string (what v8 clients
 * send), the query winning, as ES's RestStartTrainedModelDeploymentAction does.
 */
export function parseStartDeployment(modelId: string, query: UrlParams, body: string | null): { request: StartDeploymentRequest; timeoutText: string } {
  const values: Record<string, string> = {};
  if (body !== null && body.trim() !== '') {
    const json = parseJsonObject(body);
    parseBody(() => forEachEntry(json, (key, value) => {
      if (key === 'adaptive_allocations') {
        const a = readObjectField('start_trained_model_deployment', key, value);
        if (a.enabled === true) throw new StatusError('adaptive allocations are not supported by this server; set [number_of_allocations]', 400);
        return;
      }
      if (key === 'model_id') {
        const id = readString('start_trained_model_deployment', key, value);
        if (id !== modelId) throw new StatusError(`Inconsistent model_id; '${id}' specified in the body differs from '${modelId}' specified as a URL argument`, 400);
        return;
      }
      if (!START_PARAMS.includes(key)) throw mlUnknownField('cluster:admin/xpack/ml/trained_models/deployment/start', key);
      if (key === 'number_of_allocations' || key === 'threads_per_allocation' || key === 'queue_capacity') {
        values[key] = String(readInt('cluster:admin/xpack/ml/trained_models/deployment/start', key, value));
      } else {
        values[key] = readString('cluster:admin/xpack/ml/trained_models/deployment/start', key, value);
      }
    }));
  }
  for (const k of START_PARAMS) if (query[k] !== undefined) values[k] = query[k]!;
  const timeout = timeParam(values.timeout, 'timeout', START_DEFAULTS.timeoutMs);
  const request: StartDeploymentRequest = {
    modelId,
    deploymentId: values.deployment_id ?? modelId,
    numberOfAllocations: intParam(values, 'number_of_allocations', START_DEFAULTS.numberOfAllocations),
    threadsPerAllocation: intParam(values, 'threads_per_allocation', START_DEFAULTS.threadsPerAllocation),
    queueCapacity: intParam(values, 'queue_capacity', START_DEFAULTS.queueCapacity),
    timeoutMs: timeout.ms,
    waitFor: values.wait_for !== undefined ? parseAllocationState(values.wait_for) : START_DEFAULTS.waitFor,
    priority: values.priority !== undefined ? parsePriority(values.priority) : START_DEFAULTS.priority,
    cacheSize: values.cache_size !== undefined ? byteSizeParam(values.cache_size, 'cache_size') : null,
    simulate: values.simulate !== undefined ? parseSimulation(values.simulate) : null,
  };
  if (request.deploymentId === '') throw new IllegalArgumentError('[deployment_id] must not be empty');
  return { request, timeoutText: timeout.text };
}

/** `_update`: `number_of_allocations` from the body (or the query string). */
export function parseUpdateDeployment(query: UrlParams, body: string | null): number {
  let n: number | null = query.number_of_allocations !== undefined ? intParam(query, 'number_of_allocations', 1) : null;
  if (body !== null && body.trim() !== '') {
    const json = parseJsonObject(body);
    parseBody(() => forEachEntry(json, (key, value) => {
      if (key === 'number_of_allocations') n ??= readInt('update_trained_model_deployment_request', key, value);
      else if (key === 'adaptive_allocations') {
        const a = readObjectField('update_trained_model_deployment_request', key, value);
        if (a.enabled === true) throw new StatusError('adaptive allocations are not supported by this server; set [number_of_allocations]', 400);
      } else throw mlUnknownField('update_trained_model_deployment_request', key);
    }));
  }
  if (n === null) throw new IllegalArgumentError('Validation Failed: 1: [number_of_allocations] must be set;');
  return n;
}

/** `_stop` flags may come in the body too. */
export function parseStopBody(body: string | null): { force?: boolean; allowNoMatch?: boolean } {
  if (body === null || body.trim() === '') return {};
  const json = parseJsonObject(body);
  const out: { force?: boolean; allowNoMatch?: boolean } = {};
  parseBody(() => forEachEntry(json, (key, value) => {
    if (key !== 'force' && key !== 'allow_no_match' && key !== 'id') throw mlUnknownField('stop_trained_model_deployment_request', key);
    if (key === 'id') return;
    if (typeof value !== 'boolean') throw new XContentParseError(`[stop_trained_model_deployment_request] failed to parse field [${key}]`);
    if (key === 'force') out.force = value;
    else out.allowNoMatch = value;
  }));
  return out;
}
