/**
 * The node's task registry (ES TaskManager + TaskResultsService): ids are `<node>:<n>` with `n`
 * never reused (it continues after the largest stored id across restarts), running tasks are
 * listed and cancelled here, and a finished task that asked to keep its result is written to the
 * result store before its waiters are released — so `GET /_tasks/<id>` answers after completion
 * and after a restart, as ES's `.tasks` index does.
 */
import { EsError, IllegalArgumentError, InternalError, ResourceNotFoundError, TaskTimeoutError } from '../errors/index.js';
import { wildcardMatch } from '../common/wildcard.js';
import { Task, type JsonObject, type TaskOptions } from './task.js';

/** Where finished results live (the data directory; implemented by storage/). */
export interface TaskResultStore {
  save(id: number, result: JsonObject): Promise<void>;
  load(id: number): JsonObject | null;
  /** The largest stored id, or 0. */
  maxId(): number;
}

/** `GET /_tasks/<id>`: `{completed, task, response | error}`. */
export type TaskResult = JsonObject;

interface Running {
  readonly task: Task;
  readonly done: Promise<void>;
}

export class TaskManager {
  private readonly running = new Map<number, Running>();
  private nextId: number;

  constructor(readonly node: string, private readonly store: TaskResultStore) {
    this.nextId = store.maxId() + 1;
  }

  /**
   * Registers a task and runs `work` as it: the task is listed until `work` settles; its outcome
   * (response or error) is stored when the task asked for it. Resolves with the response.
   */
  start<T extends JsonObject>(options: TaskOptions, work: (task: Task) => Promise<T>): { task: Task; result: Promise<T> } {
    const task = new Task(this.node, this.nextId++, options);
    let settle!: () => void;
    const done = new Promise<void>((r) => (settle = r));
    this.running.set(task.id, { task, done });
    const result = (async () => {
      let response: T | null = null;
      let error: EsError | null = null;
      try {
        response = await work(task);
        return response;
      } catch (e) {
        error = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
        throw error;
      } finally {
        if (options.storeResult) {
          const stored: JsonObject = { completed: true, task: task.info(true) };
          if (error) stored.error = error.toObject();
          else stored.response = response;
          // A result that cannot be stored is lost for GET, not for the work already done.
          await this.store.save(task.id, stored).catch(() => undefined);
        }
        this.running.delete(task.id);
        settle();
      }
    })();
    result.catch(() => undefined);
    return { task, result };
  }

  /** Parses `<node>:<n>` (ES TaskId): anything else is "malformed task id". */
  parseId(text: string): { node: string; id: number } {
    const colon = text.lastIndexOf(':');
    const n = colon < 0 ? NaN : Number(text.slice(colon + 1));
    if (colon <= 0 || !/^-?\d+$/.test(text.slice(colon + 1)) || !Number.isSafeInteger(n)) throw new IllegalArgumentError(`malformed task id ${text}`);
    return { node: text.slice(0, colon), id: n };
  }

  private runningTask(text: string): Task | null {
    const { node, id } = this.parseId(text);
    return node === this.node ? this.running.get(id)?.task ?? null : null;
  }

  /**
   * A task's state: running (`completed: false`) or its stored result; with `waitMs`, waits for
   * completion first (ES `wait_for_completion`, 408 when the wait runs out).
   */
  async get(text: string, waitMs: number | null): Promise<TaskResult> {
    const { node, id } = this.parseId(text);
    const run = node === this.node ? this.running.get(id) : undefined;
    if (run && waitMs !== null) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        run.done.then(() => false),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), waitMs))),
      ]);
      clearTimeout(timer);
      if (timedOut) throw new TaskTimeoutError(text);
    } else if (run) {
      return { completed: false, task: run.task.info(true) };
    }
    const stored = node === this.node ? this.store.load(id) : null;
    if (!stored) throw new ResourceNotFoundError(`task [${text}] isn't running and hasn't stored its results`);
    return stored;
  }

  /** Running tasks whose action matches one of `actions` (wildcards; all when empty). */
  list(actions: readonly string[]): Task[] {
    const out: Task[] = [];
    for (const { task } of this.running.values()) {
      if (actions.length === 0 || actions.some((a) => wildcardMatch(a, task.options.action))) out.push(task);
    }
    return out.sort((a, b) => a.id - b.id);
  }

  /** Cancels one task by id (ES: 404 when not running, 400 when not cancellable). */
  cancel(text: string, reason = 'by user request'): Task {
    const task = this.runningTask(text);
    if (!task) throw new ResourceNotFoundError(`task [${text}] is not found`);
    if (!task.options.cancellable) throw new IllegalArgumentError(`task [${text}] doesn't support cancellation`);
    task.cancel(reason);
    return task;
  }

  /** The running task `text`, for rethrottling (404 when it is not running). */
  require(text: string): Task {
    const task = this.runningTask(text);
    if (!task) throw new ResourceNotFoundError(`task [${text}] is not found`);
    return task;
  }

  /** Resolves once every running task has finished (shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Cancels everything still running (shutdown: tasks stop at their next check). */
  cancelAll(reason: string): void {
    for (const { task } of this.running.values()) if (task.options.cancellable) task.cancel(reason);
  }
}
