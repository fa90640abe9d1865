/**
 * The node's ingest pipelines (ES IngestService): stored definitions (a durable cluster-state
 * section; PUT/DELETE are acknowledged only once it is saved), the pipelines that apply to a write
 * (`?pipeline=` / `index.default_pipeline`, then `index.final_pipeline`), and their execution over
 * a batch of documents. Nothing here writes documents: callers index what comes out.
 */
import { EsError, IllegalArgumentError, ResourceNotFoundError } from '../errors/index.js';
import { wildcardMatch } from '../common/wildcard.js';
import type { SparseInference } from '../ml/index.js';
import { IngestDocument, type JsonMap } from './ingest-document.js';
import { executePipeline } from './execute.js';
import { parsePipeline, type Pipeline } from './pipeline.js';
import type { ExecutionContext } from './processor.js';

/** The `ingest` cluster-state section. */
export interface IngestState {
  readonly pipelines: Record<string, JsonMap>;
}

/** `pipeline=_none` (or the setting's value `_none`) means "no pipeline". */
export const NO_PIPELINE = '_none';

/** One document to run through a chain of pipelines (request/default pipeline, then final). */
export interface IngestRequest {
  readonly doc: IngestDocument;
  readonly pipelines: readonly string[];
}

/**
 * The pipelines a write runs (ES IngestService.resolvePipelines): the request's pipeline, else the
 * index's default pipeline, then the index's final pipeline; `_none` disables the first.
 */
export function resolvePipelines(requestPipeline: string | null, defaultPipeline: string | null, finalPipeline: string | null): string[] {
  const out: string[] = [];
  const first = requestPipeline ?? defaultPipeline;
  if (first !== null && first !== NO_PIPELINE) out.push(first);
  if (finalPipeline !== null && finalPipeline !== NO_PIPELINE) out.push(finalPipeline);
  return out;
}

/** The `_ingest.timestamp` ES records when a document enters its pipelines. */
export function ingestTimestamp(): string {
  return new Date().toISOString();
}

export class IngestService {
  private readonly pipelines = new Map<string, Pipeline>();
  readonly context: ExecutionContext;

  constructor(inference: SparseInference, private readonly persist: () => Promise<void>) {
    this.context = { inference };
  }

  restore(state: IngestState | undefined): void {
    for (const [id, config] of Object.entries(state?.pipelines ?? {})) this.pipelines.set(id, parsePipeline(id, config));
  }

  snapshot(): IngestState {
    const pipelines: Record<string, JsonMap> = {};
    for (const [id, p] of this.pipelines) pipelines[id] = p.config;
    return { pipelines };
  }

  has(id: string): boolean {
    return this.pipelines.has(id);
  }

  /** The stored pipeline `id`, or ES's write-time error when there is none. */
  require(id: string): Pipeline {
    const p = this.pipelines.get(id);
    if (!p) throw new IllegalArgumentError(`pipeline with id [${id}] does not exist`);
    return p;
  }

  async put(id: string, body: unknown): Promise<void> {
    const pipeline = parsePipeline(id, body);
    this.pipelines.set(id, pipeline);
    await this.persist();
  }

  /** Definitions matching a comma list of ids or wildcards (all when null); empty when none match. */
  get(ids: string | null): Record<string, JsonMap> {
    const patterns = ids === null || ids === '' || ids === '_all' ? ['*'] : ids.split(',');
    const out: Record<string, JsonMap> = {};
    for (const id of [...this.pipelines.keys()].sort()) {
      if (patterns.some((p) => wildcardMatch(p, id))) out[id] = this.pipelines.get(id)!.config;
    }
    return out;
  }

  /** Deletes matching pipelines (ES: "pipeline [x] is missing" unless a match-all pattern matched nothing). */
  async delete(ids: string): Promise<void> {
    const patterns = ids.split(',');
    const matched = [...this.pipelines.keys()].filter((id) => patterns.some((p) => wildcardMatch(p, id)));
    if (matched.length === 0) {
      if (patterns.every((p) => p === '*' || p === '_all')) return;
      throw new ResourceNotFoundError(`pipeline [${ids}] is missing`);
    }
    for (const id of matched) this.pipelines.delete(id);
    await this.persist();
  }

  /**
   * Runs each request's pipelines over its document. Requests with the same chain run together,
   * stage by stage, so a batch processor sees every document of the batch in one call. Per
   * request: null (done, or dropped — see `doc.dropped`) or the error that failed it.
   */
  async execute(requests: readonly IngestRequest[]): Promise<Array<EsError | null>> {
    const results: Array<EsError | null> = requests.map(() => null);
    const groups = new Map<string, number[]>();
    requests.forEach((r, i) => {
      if (r.pipelines.length === 0) return;
      const key = r.pipelines.join('\u0000');
      const g = groups.get(key);
      if (g) g.push(i);
      else groups.set(key, [i]);
    });
    await Promise.all([...groups.values()].map(async (members) => {
      for (const id of requests[members[0]].pipelines) {
        const live = members.filter((i) => results[i] === null && !requests[i].doc.dropped);
        if (live.length === 0) return;
        const pipeline = this.pipelines.get(id);
        if (!pipeline) {
          const missing = new IllegalArgumentError(`pipeline with id [${id}] does not exist`);
          for (const i of live) results[i] = missing;
          continue;
        }
        const errors = await executePipeline(pipeline, live.map((i) => requests[i].doc), this.context);
        live.forEach((i, k) => (results[i] = errors[k]));
      }
    }));
    return results;
  }
}
