/**
 * `onnxruntime-node`, an optional dependency, imported only when a thread loads an ONNX model, so
 * the server starts and serves the built-in model without it. The few runtime types used are
 * declared here: the code compiles whether or not the package is installed.
 */
import { StatusError } from '../../errors/index.js';

export interface OrtTensor {
  readonly data: Float32Array | BigInt64Array | ArrayLike<unknown>;
  readonly dims: readonly number[];
  readonly type: string;
}

export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>, fetches?: readonly string[]): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}

export interface OrtModule {
  readonly InferenceSession: {
    create(path: string, options: Record<string, unknown>): Promise<OrtSession>;
  };
  readonly Tensor: new (type: 'int64', data: BigInt64Array, dims: readonly number[]) => OrtTensor;
}

export const ORT_PACKAGE = 'onnxruntime-node';

let loading: Promise<OrtModule> | null = null;

/** The runtime, imported once per thread; a clear 400 when it is not installed. */
export function loadOnnxRuntime(): Promise<OrtModule> {
  loading ??= (async () => {
    try {
      // A variable specifier keeps bundlers and tsc from resolving the optional package.
      const specifier: string = ORT_PACKAGE;
      const mod = (await import(specifier)) as { default?: OrtModule } & OrtModule;
      return mod.InferenceSession ? mod : mod.default!;
    } catch (e) {
      loading = null;
      throw runtimeLoadError(e);
    }
  })();
  return loading;
}

/** The 400 a failed import of the runtime becomes: how to install it when it is missing. */
export function runtimeLoadError(e: unknown): StatusError {
  const code = (e as NodeJS.ErrnoException).code;
  const reason = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
    ? `the optional package [${ORT_PACKAGE}] is not installed; install it with \`ONNXRUNTIME_NODE_INSTALL=skip npm install ${ORT_PACKAGE}\` to serve ONNX models`
    : `the optional package [${ORT_PACKAGE}] could not be loaded: ${(e as Error).message.slice(0, 200)}`;
  return new StatusError(reason, 400);
}

/** A CPU session with `threads` intra-op threads (a deployment's threads_per_allocation) and one inter-op thread. */
export async function createSession(ort: OrtModule, path: string, threads: number): Promise<OrtSession> {
  try {
    return await ort.InferenceSession.create(path, {
      executionProviders: ['cpu'],
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
  } catch (e) {
    throw new StatusError(`[${ORT_PACKAGE}] cannot load the model graph: ${(e as Error).message.slice(0, 300)}`, 400);
  }
}
