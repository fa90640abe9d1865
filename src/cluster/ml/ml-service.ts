/**
 * Model management and inference (ES's trained model APIs): the registered models and started
 * deployments (durable in the `ml` cluster-state section, so deployments restart with the server as
 * ES's persistent tasks do), placement of allocations on the simulated ML nodes, and the
 * deployments' thread pools. Implements ml/'s SparseInference for ingest and search.
 */
import {
  EsError, InternalError, MissingModelDeploymentError, MissingTrainedModelError, ModelDeploymentTimeoutError,
  NoMlCapacityError, StatusError, TrainedModelExistsError, TrainedModelNotFoundError,
} from '../../errors/index.js';
import {
  BUILT_IN_MODELS, byteSizeString, estimateMemoryUsageBytes, matchIds, modelMemory, newModelRecord, placeAllocations, reduceAllocations,
  readModelFolder, renderModelConfig, validateStartDeployment, validateUpdateDeployment, type DeploymentRecord,
  type LocalModel, type MlNodeSpec, type ModelProbe, type ModelSpec, type PlacedDeployment, type SparseInference,
  type SparseVector, type TrainedModelRecord,
} from '../../ml/index.js';
import type { AllocationState, Simulation, StartDeploymentRequest } from '../../dsl/index.js';
import type { AllocationModel } from './ml-allocation.js';
import { MlDeployment, type MlThreadPoolStats } from './ml-deployment.js';
import { prepareSimulationGraph, probeModel } from './ml-model-probe.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** What http/ needs from ml/ to render the trained model APIs (http/ imports cluster/ only). */
export { inferenceResultJson } from '../../ml/index.js';

/** The `ml` cluster-state section. */
export interface MlState {
  readonly models: readonly TrainedModelRecord[];
  readonly deployments: readonly DeploymentRecord[];
}

export interface MlServiceOptions {
  readonly nodes: readonly MlNodeSpec[];
  readonly workerDir: URL;
  /** Makes a change durable (cluster state markChanged + persist). */
  readonly persist: () => Promise<void>;
  /** Measures (and so checks) a model in a worker thread; replaceable in tests. */
  readonly probe?: (workerDir: URL, model?: ModelSpec) => Promise<ModelProbe>;
  /**
   * `<data>/models`: where a user model `<id>` is looked for when its PUT names no folder, and where
   * simulation graphs are generated (`.simulation/`). Null: neither is available.
   */
  readonly modelsDir?: string | null;
}

/** ES's model id rule (TrainedModelConfig / MlStrings.isValidId): also keeps ids safe as folder names. */
const VALID_MODEL_ID = /^[a-z0-9](?:[a-z0-9_.-]*[a-z0-9])?$/;

/** What a simulated deployment's `_infer` and `_stats` say about it. */
export interface SimulationNote {
  readonly graph: Simulation;
  readonly note: string;
}

/** ES's default `timeout` of `_infer`. */
export const DEFAULT_INFER_TIMEOUT_MS = 10_000;
/** ES MachineLearning.MAX_TRAINED_MODEL_DEPLOYMENTS. */
const MAX_TRAINED_MODEL_DEPLOYMENTS = 100;

interface Waiter {
  readonly test: () => boolean;
  readonly resolve: () => void;
}

export class MlService implements SparseInference {
  private readonly models = new Map<string, TrainedModelRecord>();
  /** In start order (placement and restore order). */
  private readonly deployments = new Map<string, MlDeployment>();
  private readonly waiters = new Set<Waiter>();
  private readonly nodes: readonly MlNodeSpec[];
  private readonly workerDir: URL;
  private readonly persistState: () => Promise<void>;
  private readonly probe: (workerDir: URL, model?: ModelSpec) => Promise<ModelProbe>;
  private readonly modelsDir: string | null;
  /** Serialises changes (put, delete, start, stop, update), as ES's master does. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(options: MlServiceOptions) {
    this.nodes = options.nodes;
    this.workerDir = options.workerDir;
    this.persistState = options.persist;
    this.probe = options.probe ?? probeModel;
    this.modelsDir = options.modelsDir ?? null;
  }

  /** What a deployment's allocations load: the model's folder (user models) and the simulation graph, if any. */
  private allocationModel(model: TrainedModelRecord, simulate: Simulation | null): AllocationModel {
    return {
      onnxPath: model.location?.local.path ?? null,
      simulate,
      simulationDir: this.modelsDir === null ? null : join(this.modelsDir, '.simulation'),
    };
  }

  snapshot(): MlState {
    return { models: [...this.models.values()], deployments: [...this.deployments.values()].map((d) => d.record) };
  }

  /** Restores models and restarts deployments (start-up); resolves once every allocation loaded or failed. */
  async restore(state: MlState | undefined): Promise<void> {
    if (!state) return;
    for (const m of state.models ?? []) this.models.set(m.model_id, m);
    const starts: Promise<void>[] = [];
    for (const r of state.deployments ?? []) {
      const model = this.models.get(r.model_id);
      if (!model) continue;
      const d = this.newDeployment(r, model);
      starts.push(this.allocate(d, model));
    }
    await Promise.all(starts);
  }

  private newDeployment(record: DeploymentRecord, model: TrainedModelRecord): MlDeployment {
    const d = new MlDeployment({ record, workerDir: this.workerDir, model: this.allocationModel(model, record.simulate ?? null), onChange: () => this.changed() });
    this.deployments.set(record.deployment_id, d);
    return d;
  }

  private changed(): void {
    for (const w of [...this.waiters]) {
      if (w.test()) {
        this.waiters.delete(w);
        w.resolve();
      }
    }
  }

  /** Runs a change after the ones before it (never concurrently). */
  private serial<T>(change: () => Promise<T>): Promise<T> {
    const run = this.queue.then(change, change);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private others(except: MlDeployment): PlacedDeployment[] {
    const out: PlacedDeployment[] = [];
    for (const d of this.deployments.values()) {
      if (d === except) continue;
      const model = this.models.get(d.record.model_id)!;
      out.push({ threadsPerAllocation: d.record.threads_per_allocation, memory: modelMemory(model, d.record.threads_per_allocation), allocations: d.placed() });
    }
    return out;
  }

  /** Places as many of the deployment's missing allocations as fit; returns once they loaded. */
  private allocate(d: MlDeployment, model: TrainedModelRecord): Promise<void> {
    const current = d.placed();
    const placement = placeAllocations(this.nodes, this.others(d), {
      threadsPerAllocation: d.record.threads_per_allocation,
      memory: modelMemory(model, d.record.threads_per_allocation),
      targetAllocations: d.record.number_of_allocations,
      current,
    });
    d.reason = placement.reason ?? '';
    const added: Record<string, number> = {};
    for (const [node, n] of Object.entries(placement.allocations)) if (n > (current[node] ?? 0)) added[node] = n - (current[node] ?? 0);
    return d.addAllocations(added);
  }

  /** After capacity was freed: partially allocated deployments grow, oldest first (ES rebalances on stop). */
  private rebalance(): void {
    for (const d of this.deployments.values()) {
      if (d.state === 'stopping') continue;
      const placed = Object.values(d.placed()).reduce((a, b) => a + b, 0);
      if (placed < d.record.number_of_allocations) void this.allocate(d, this.models.get(d.record.model_id)!);
    }
  }

  private async persist(): Promise<void> {
    await this.persistState();
  }

  // ---- models ----

  getModels(expression: string | undefined, allowNoMatch: boolean, definitionStatus: boolean): { count: number; trained_model_configs: unknown[] } {
    const m = matchIds(expression, [...this.models.keys()], allowNoMatch);
    if (m.unmatched) throw new MissingTrainedModelError(m.unmatched);
    return { count: m.ids.length, trained_model_configs: m.ids.map((id) => renderModelConfig(this.models.get(id)!, { definitionStatus })) };
  }

  /**
   * Registers a built-in model, or a user ONNX model from `localPath` (else `<data>/models/<id>`):
   * its folder is checked here and its graph loaded and run once in a worker thread, so a bad
   * model is refused with the reason and nothing is stored.
   */
  putModel(modelId: string, fieldNames: readonly string[], localPath: string | null = null): Promise<Record<string, unknown>> {
    return this.serial(async () => {
      const builtIn = BUILT_IN_MODELS.has(modelId);
      if (builtIn && localPath !== null) throw new StatusError(`Cannot create model [${modelId}]: built-in models take no [location]`, 400);
      if (!builtIn && !VALID_MODEL_ID.test(modelId)) {
        throw new StatusError(`Invalid model_id; '${modelId.slice(0, 80)}' can contain lowercase alphanumeric (a-z and 0-9), hyphens or underscores; must start and end with alphanumeric`, 400);
      }
      if (this.models.has(modelId)) throw new TrainedModelExistsError(modelId);
      if (this.deployments.has(modelId)) throw new StatusError(`Cannot create model [${modelId}] the id is the same as an current model deployment`, 400);
      let local: LocalModel | null = null;
      if (!builtIn) {
        const path = localPath ?? this.defaultModelFolder(modelId);
        if (path === null) throw onlyBuiltInModels(modelId, this.modelsDir);
        local = { path, maxSequenceLength: readModelFolder(path).config.max_tokens };
      }
      const probe = await this.probe(this.workerDir, { onnxPath: local?.path ?? null, simulate: null, simulationDir: null, threads: 1 });
      const record = newModelRecord(modelId, fieldNames, probe, Date.now(), local);
      this.models.set(modelId, record);
      await this.persist();
      return renderModelConfig(record);
    });
  }

  /** `<data>/models/<id>` when it holds a model. */
  private defaultModelFolder(modelId: string): string | null {
    if (this.modelsDir === null) return null;
    const dir = join(this.modelsDir, modelId);
    return existsSync(join(dir, 'model.onnx')) ? dir : null;
  }

  deleteModel(modelId: string, force: boolean): Promise<void> {
    return this.serial(async () => {
      if (!this.models.has(modelId)) throw new MissingTrainedModelError(modelId);
      const deployed = [...this.deployments.values()].filter((d) => d.record.model_id === modelId);
      if (deployed.length > 0 && !force) throw new StatusError(`Cannot delete model [${modelId}] as it is currently deployed; use force to delete the model`, 409);
      for (const d of deployed) await this.stopOne(d);
      this.models.delete(modelId);
      await this.persist();
      if (deployed.length > 0) this.rebalance();
    });
  }

  // ---- deployments ----

  async startDeployment(r: StartDeploymentRequest, timeoutText: string): Promise<Record<string, unknown>> {
    validateStartDeployment(r);
    const d = await this.serial(() => this.createDeployment(r));
    // Waiting happens outside the serialised section: a stop meanwhile may free the capacity a
    // partially allocated deployment waits for, as ES's master keeps serving while one waits.
    if (r.waitFor !== 'starting') {
      const reached = await this.waitFor(d, r.waitFor, r.timeoutMs);
      if (this.deployments.get(d.id) !== d) {
        throw new StatusError('Error waiting for the model deployment to start. The trained model assignment was removed while waiting', 400);
      }
      const failures = d.failures();
      if (d.state === 'failed' || (d.allocationCount === 0 && d.loading === 0 && Object.keys(failures).length > 0)) {
        await this.serial(async () => {
          if (this.deployments.get(d.id) === d) await this.stopOne(d);
          await this.persist();
        });
        throw new EsError('status_exception', `Could not start trained model deployment, the following nodes failed with errors [${formatMap(failures)}]`, 500);
      }
      if (!reached) throw new ModelDeploymentTimeoutError(timeoutText, r.deploymentId);
    }
    return { assignment: this.assignment(d) };
  }

  private async createDeployment(r: StartDeploymentRequest): Promise<MlDeployment> {
    const model = this.models.get(r.modelId);
    if (!model) throw new MissingTrainedModelError(r.modelId);
    if (this.deployments.size >= MAX_TRAINED_MODEL_DEPLOYMENTS) {
      throw new StatusError(`Could not start model deployment because existing deployments reached the limit of [${MAX_TRAINED_MODEL_DEPLOYMENTS}]`, 429);
    }
    if (this.deployments.has(r.deploymentId)) {
      throw new StatusError(`Could not start model deployment because an existing deployment with the same id [${r.deploymentId}] exist`, 400);
    }
    if (r.deploymentId !== r.modelId && this.models.has(r.deploymentId)) {
      throw new StatusError(
        `Deployment id [${r.deploymentId}] is the same as an another model which is not the model being deployed. Deployment id can be the same as the model being deployed but cannot match a different model`,
        400,
      );
    }
    if (r.simulate !== null) await this.prepareSimulation(model, r.simulate);
    const record: DeploymentRecord = {
      deployment_id: r.deploymentId, model_id: r.modelId, number_of_allocations: r.numberOfAllocations, threads_per_allocation: r.threadsPerAllocation,
      queue_capacity: r.queueCapacity, priority: r.priority, cache_size: r.cacheSize, start_time: Date.now(), ...(r.simulate !== null ? { simulate: r.simulate } : {}),
    };
    // A deployment no node can take a single allocation of is refused outright (ES deletes it).
    const fit = placeAllocations(this.nodes, this.othersThan(null), {
      threadsPerAllocation: record.threads_per_allocation, memory: modelMemory(model, record.threads_per_allocation), targetAllocations: record.number_of_allocations,
    });
    if (fit.allocationCount === 0) throw new NoMlCapacityError(fit.reason ?? 'none');
    const d = this.newDeployment(record, model);
    await this.persist();
    void this.allocate(d, model);
    return d;
  }

  /**
   * Simulation mode applies to built-in models; its graph is generated (first use) in a worker
   * before any allocation starts, so allocations only load it and a missing runtime is a clear 400
   * rather than failed allocations.
   */
  private async prepareSimulation(model: TrainedModelRecord, simulate: Simulation): Promise<void> {
    if (model.location) throw new StatusError(`[simulate] applies to built-in models only; [${model.model_id}] is a user model and costs what it costs`, 400);
    if (this.modelsDir === null) throw new StatusError('[simulate] needs a data directory to generate its graph in', 400);
    await prepareSimulationGraph(this.workerDir, { ...this.allocationModel(model, simulate), threads: 1 });
  }

  /** A simulated deployment's note for `_infer` answers (null when `id` is not simulated or unknown). */
  simulation(id: string): SimulationNote | null {
    let d: MlDeployment;
    try {
      d = this.deploymentFor(id);
    } catch {
      return null;
    }
    return simulationNote(d.record);
  }

  private othersThan(except: MlDeployment | null): PlacedDeployment[] {
    return except ? this.others(except) : [...this.deployments.values()].map((d) => {
      const model = this.models.get(d.record.model_id)!;
      return { threadsPerAllocation: d.record.threads_per_allocation, memory: modelMemory(model, d.record.threads_per_allocation), allocations: d.placed() };
    });
  }

  private reached(d: MlDeployment, waitFor: AllocationState): boolean {
    const order = ['starting', 'started', 'fully_allocated'];
    return order.indexOf(d.allocationState()) >= order.indexOf(waitFor);
  }

  /**
   * Resolves true once the deployment reaches `waitFor`, false after `timeoutMs`; also resolves (true)
   * when every allocation failed to start, which the caller reports. Re-checked on every change.
   */
  private waitFor(d: MlDeployment, waitFor: AllocationState, timeoutMs: number): Promise<boolean> {
    const failed = () => d.state === 'failed' || (d.allocationCount === 0 && d.loading === 0 && Object.keys(d.failures()).length > 0);
    const test = () => this.reached(d, waitFor) || failed() || this.deployments.get(d.id) !== d;
    if (test()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      timer.unref?.();
      this.waiters.add(waiter);
    });
  }

  private async stopOne(d: MlDeployment): Promise<void> {
    this.deployments.delete(d.id);
    await d.stop();
    this.changed();
  }

  /** `_stop`: `id` is a deployment id, a model id (its deployments) or a wildcard expression. */
  stopDeployment(expression: string, allowNoMatch: boolean): Promise<void> {
    return this.serial(async () => {
      const deploymentIds = [...this.deployments.keys()];
      const byDeployment = matchIds(expression, deploymentIds, true);
      const targets = new Set(byDeployment.ids);
      const tokens = expression.split(',').map((t) => t.trim());
      for (const token of tokens) {
        if (token.includes('*') || token === '_all') continue;
        if (this.deployments.has(token)) continue;
        const ofModel = [...this.deployments.values()].filter((d) => d.record.model_id === token);
        for (const d of ofModel) targets.add(d.id);
        // A registered model that is not deployed stops as a no-op, as in ES.
        if (ofModel.length === 0 && !this.models.has(token)) throw new MissingModelDeploymentError(token);
      }
      if (targets.size === 0 && !allowNoMatch && tokens.some((t) => t.includes('*') || t === '_all')) throw new MissingModelDeploymentError(expression);
      for (const id of targets) await this.stopOne(this.deployments.get(id)!);
      await this.persist();
      this.rebalance();
    });
  }

  updateDeployment(deploymentId: string, numberOfAllocations: number): Promise<Record<string, unknown>> {
    validateUpdateDeployment(numberOfAllocations);
    return this.serial(async () => {
      const d = this.deployments.get(deploymentId);
      if (!d) throw new MissingModelDeploymentError(deploymentId);
      const model = this.models.get(d.record.model_id)!;
      const before = d.record.number_of_allocations;
      d.record = { ...d.record, number_of_allocations: numberOfAllocations };
      if (numberOfAllocations < before) {
        d.removeAllocations(reduceAllocations(d.placed(), numberOfAllocations));
        d.reason = '';
        await this.persist();
        this.rebalance();
      } else {
        await this.persist();
        void this.allocate(d, model);
      }
      return { assignment: this.assignment(d) };
    });
  }

  // ---- inference ----

  /** The deployment serving `id`: a deployment id, else a deployment of the model `id`. */
  private deploymentFor(id: string): MlDeployment {
    const direct = this.deployments.get(id);
    if (direct) return direct;
    for (const d of this.deployments.values()) if (d.record.model_id === id) return d;
    if (this.models.has(id)) throw new StatusError(`Model [${id}] must be deployed to use. Please deploy with the start trained model deployment API.`, 409);
    throw new TrainedModelNotFoundError(id);
  }

  /** The first input field of the model behind `id` (the key `_infer` docs must use). */
  inputField(id: string): string {
    const d = this.deploymentFor(id);
    return this.models.get(d.record.model_id)!.input.field_names[0];
  }

  infer(id: string, texts: readonly string[], options: { timeoutMs?: number; timeoutText?: string; purpose?: 'document' | 'query' } = {}): Promise<SparseVector[]> {
    if (this.closed) return Promise.reject(new InternalError('the ML service is shutting down'));
    let d: MlDeployment;
    try {
      d = this.deploymentFor(id);
    } catch (e) {
      return Promise.reject(e);
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_INFER_TIMEOUT_MS;
    return d.infer(texts, timeoutMs, options.timeoutText ?? `${timeoutMs}ms`, options.purpose ?? 'document');
  }

  // ---- rendering ----

  private nodeId(name: string): string {
    return name;
  }

  private nodeEntry(name: string): Record<string, unknown> {
    return {
      [this.nodeId(name)]: {
        name, ephemeral_id: name, transport_address: '127.0.0.1:9300', external_id: name, attributes: {}, roles: ['ml'], version: '8.15.0',
      },
    };
  }

  private cacheSize(d: MlDeployment): string {
    return byteSizeString(d.record.cache_size ?? this.models.get(d.record.model_id)!.model_size_bytes);
  }

  private assignment(d: MlDeployment): Record<string, unknown> {
    const model = this.models.get(d.record.model_id)!;
    const memory = modelMemory(model, d.record.threads_per_allocation);
    return d.assignment((n) => this.nodeId(n), {
      model_id: d.record.model_id,
      deployment_id: d.id,
      model_bytes: model.model_size_bytes,
      threads_per_allocation: d.record.threads_per_allocation,
      number_of_allocations: d.record.number_of_allocations,
      queue_capacity: d.record.queue_capacity,
      cache_size: this.cacheSize(d),
      priority: d.record.priority,
      per_deployment_memory_bytes: memory.perDeploymentMemoryBytes,
      per_allocation_memory_bytes: memory.perAllocationMemoryBytes,
      ...(d.record.simulate ? { simulate: d.record.simulate } : {}),
    });
  }

  /** Every deployment as a thread pool, by deployment id (`_nodes/stats`, `_cat/thread_pool`). */
  threadPools(): Array<{ deploymentId: string; modelId: string; state: string; threadsPerAllocation: number; allocations: number; queueCapacity: number; stats: MlThreadPoolStats }> {
    return [...this.deployments.values()].map((d) => ({
      deploymentId: d.id, modelId: d.record.model_id, state: d.state, threadsPerAllocation: d.record.threads_per_allocation,
      allocations: d.allocationCount, queueCapacity: d.record.queue_capacity, stats: d.threadPoolStats(),
    }));
  }

  /** `_stats`: ids may name models or deployments; one entry per deployment (or per undeployed model). */
  stats(expression: string | undefined, allowNoMatch: boolean): { count: number; trained_model_stats: unknown[] } {
    const deploymentIds = [...this.deployments.keys()];
    const m = matchIds(expression, [...new Set([...this.models.keys(), ...deploymentIds])], allowNoMatch);
    if (m.unmatched) throw new MissingTrainedModelError(m.unmatched);
    const modelIds = new Set<string>();
    const wantedDeployments = new Set<string>();
    for (const id of m.ids) {
      if (this.models.has(id)) {
        modelIds.add(id);
        for (const d of this.deployments.values()) if (d.record.model_id === id) wantedDeployments.add(d.id);
      }
      const d = this.deployments.get(id);
      if (d) {
        modelIds.add(d.record.model_id);
        wantedDeployments.add(d.id);
      }
    }
    const out: unknown[] = [];
    for (const modelId of [...this.models.keys()].filter((id) => modelIds.has(id))) {
      const model = this.models.get(modelId)!;
      const deployments = [...this.deployments.values()].filter((d) => d.record.model_id === modelId && wantedDeployments.has(d.id));
      const base = (d: MlDeployment | null) => {
        const counters = d ? d.counters() : { inferenceCount: 0, failures: 0 };
        const memory = d ? estimateMemoryUsageBytes(modelMemory(model, d.record.threads_per_allocation), d.record.number_of_allocations) : estimateMemoryUsageBytes(modelMemory(model), 1);
        return {
          model_id: modelId,
          model_size_stats: { model_size_bytes: model.model_size_bytes, required_native_memory_bytes: memory },
          pipeline_count: 0,
          ingest: { total: { count: 0, time_in_millis: 0, current: 0, failed: 0 }, pipelines: {} },
          inference_stats: { failure_count: counters.failures, inference_count: counters.inferenceCount, cache_miss_count: 0, missing_all_fields_count: 0, timestamp: Date.now() },
          ...(d ? { deployment_stats: { ...d.stats((n) => this.nodeEntry(n), this.cacheSize(d)), ...withSimulation(d.record) } } : {}),
        };
      };
      if (deployments.length === 0) out.push(base(null));
      for (const d of deployments) out.push(base(d));
    }
    return { count: modelIds.size, trained_model_stats: out };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters) w.resolve();
    this.waiters.clear();
    await Promise.all([...this.deployments.values()].map((d) => d.stop()));
  }
}

/** PUT of a model with no folder to load it from (uploading definitions is not supported). */
export function onlyBuiltInModels(modelId: string, modelsDir: string | null = null): EsError {
  const place = modelsDir === null ? '' : ` or place one at [${join(modelsDir, modelId)}]`;
  return new StatusError(
    `Cannot create model [${modelId}]: besides the built-in models [${[...BUILT_IN_MODELS.keys()].join(', ')}], this server loads ONNX models from a local folder; `
      + `give its path as [location.local.path]${place}; uploading model definitions is not supported`,
    400,
  );
}

function simulationNote(r: DeploymentRecord): SimulationNote | null {
  if (!r.simulate) return null;
  return {
    graph: r.simulate,
    note: `simulation mode: every inference also runs a ${r.simulate} graph with random weights over the same tokens, so cost is a transformer's; the vectors are [${r.model_id}]'s`,
  };
}

function withSimulation(r: DeploymentRecord): { simulation?: SimulationNote } {
  const note = simulationNote(r);
  return note ? { simulation: note } : {};
}

/** A Java map's toString: {a=b, c=d}. */
function formatMap(m: Record<string, string>): string {
  return `{${Object.entries(m).map(([k, v]) => `${k}=${v}`).join(', ')}}`;
}
