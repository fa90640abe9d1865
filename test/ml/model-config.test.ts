/**
 * The pure parts of the trained model APIs: id expressions (ES ExpandedIdsMatcher), deployment
 * parameter validation with ES's messages, and `predicted_value` rendering.
 */
import { describe, expect, it } from 'vitest';
import { inferenceResultJson, matchIds, validateStartDeployment } from '../../src/ml/index.js';
import { parseAllocationState, parsePriority, START_DEFAULTS, type StartDeploymentRequest } from '../../src/dsl/index.js';
import { EsError } from '../../src/errors/index.js';

describe('matchIds', () => {
  const ids = ['.sparse_model_2', 'my-deployment'];
  it('matches concrete ids, wildcards, _all and an empty expression', () => {
    expect(matchIds('_all', ids, true).ids).toEqual(ids);
    expect(matchIds(undefined, ids, true).ids).toEqual(ids);
    expect(matchIds('my-*', ids, true).ids).toEqual(['my-deployment']);
    expect(matchIds('my-deployment,.sparse_model_2', ids, true).ids).toEqual(ids);
  });
  it('reports concrete ids that match nothing, and wildcards only when allow_no_match is false', () => {
    expect(matchIds('nope,other', ids, true).unmatched).toBe('nope,other');
    expect(matchIds('x*', ids, true)).toEqual({ ids: [], unmatched: null });
    expect(matchIds('x*', ids, false).unmatched).toBe('x*');
    expect(matchIds('_all', [], false).unmatched).toBe('*');
  });
});

function request(overrides: Partial<StartDeploymentRequest>): StartDeploymentRequest {
  return {
    modelId: 'm', deploymentId: 'm', numberOfAllocations: 1, threadsPerAllocation: 1, queueCapacity: 1024, timeoutMs: 20_000,
    waitFor: 'started', priority: 'normal', cacheSize: null, simulate: null, ...overrides,
  };
}

function validationError(r: StartDeploymentRequest): string {
  try {
    validateStartDeployment(r);
  } catch (e) {
    expect((e as EsError).type).toBe('action_request_validation_exception');
    return (e as EsError).message;
  }
  throw new Error('expected a validation error');
}

describe('validateStartDeployment (ES StartTrainedModelDeploymentAction.Request.validate)', () => {
  it('accepts the defaults and powers of two up to 32 threads', () => {
    expect(START_DEFAULTS.queueCapacity).toBe(1024);
    for (const t of [1, 2, 4, 8, 16, 32]) expect(() => validateStartDeployment(request({ threadsPerAllocation: t }))).not.toThrow();
  });
  it('rejects threads that are not a power of two or above 32', () => {
    expect(validationError(request({ threadsPerAllocation: 3 }))).toBe('Validation Failed: 1: [threads_per_allocation] must be a power of 2 less than or equal to 32;');
    expect(validationError(request({ threadsPerAllocation: 64 }))).toBe('Validation Failed: 1: [threads_per_allocation] must be a power of 2 less than or equal to 32;');
  });
  it('lists every problem at once', () => {
    expect(validationError(request({ numberOfAllocations: 0, threadsPerAllocation: 0, queueCapacity: 0 }))).toBe(
      'Validation Failed: 1: [number_of_allocations] must be a positive integer;2: [threads_per_allocation] must be a positive integer;3: [threads_per_allocation] must be a power of 2 less than or equal to 32;4: [queue_capacity] must be a positive integer;',
    );
  });
  it('bounds queue_capacity and forces 1 × 1 for low priority', () => {
    expect(validationError(request({ queueCapacity: 100_001 }))).toBe('Validation Failed: 1: [queue_capacity] must be less than 100000;');
    expect(validationError(request({ priority: 'low', numberOfAllocations: 2 }))).toBe('Validation Failed: 1: [number_of_allocations] must be 1 when [priority] is low;');
  });
  it('reads wait_for and priority as ES enums', () => {
    expect(parseAllocationState('FULLY_ALLOCATED')).toBe('fully_allocated');
    expect(() => parseAllocationState('done')).toThrow('No enum constant org.elasticsearch.xpack.core.ml.inference.assignment.AllocationStatus.State.DONE');
    expect(parsePriority('low')).toBe('low');
    expect(() => parsePriority('high')).toThrow('No enum constant org.elasticsearch.xpack.core.ml.inference.assignment.Priority.HIGH');
  });
});

describe('inferenceResultJson', () => {
  it('prints weights as float32 shortest decimals and is_truncated only when cut', () => {
    const v = { tokens: ['muscle', 'sore'], weights: new Float32Array([2.1357968, 0.1]), isTruncated: false };
    expect(inferenceResultJson(v)).toBe('{"predicted_value":{"muscle":2.1357968,"sore":0.1}}');
    expect(JSON.parse(inferenceResultJson({ ...v, isTruncated: true }, 'tokens'))).toEqual({ tokens: { muscle: 2.1357968, sore: 0.1 }, is_truncated: true });
  });
});
