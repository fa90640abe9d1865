/**
 * One running task (ES Task / CancellableTask): what it does (`action`, `description`), when it
 * started, a live `status` the task keeps current, and cooperative cancellation — `cancel()` only
 * sets a flag and wakes waiters; the task's own loop stops at its next check, so no write is ever
 * cut in half.
 */
export type JsonObject = Record<string, unknown>;

export interface TaskOptions {
  readonly action: string;
  readonly description: string;
  readonly cancellable: boolean;
  /** Keep the result after completion (ES stores it in `.tasks` for wait_for_completion=false). */
  readonly storeResult: boolean;
  /** The current status object (`task.status`), read whenever the task is shown. */
  readonly status?: () => JsonObject;
}

export class Task {
  readonly startTimeMillis = Date.now();
  private readonly startNanos = process.hrtime.bigint();
  private cancelReason: string | null = null;
  private readonly cancelListeners = new Set<() => void>();
  /** Called by `_rethrottle` with the new requests_per_second (tasks that throttle set it). */
  rethrottle: ((requestsPerSecond: number) => void) | null = null;

  constructor(readonly node: string, readonly id: number, readonly options: TaskOptions) {}

  get taskId(): string {
    return `${this.node}:${this.id}`;
  }

  get cancelled(): boolean {
    return this.cancelReason !== null;
  }

  get reasonCancelled(): string | null {
    return this.cancelReason;
  }

  cancel(reason: string): void {
    if (this.cancelReason !== null) return;
    this.cancelReason = reason;
    for (const l of this.cancelListeners) l();
    this.cancelListeners.clear();
  }

  /** Runs `listener` once when the task is cancelled (at once if it already is); returns an unsubscribe. */
  onCancel(listener: () => void): () => void {
    if (this.cancelled) {
      listener();
      return () => {};
    }
    this.cancelListeners.add(listener);
    return () => this.cancelListeners.delete(listener);
  }

  /** ES TaskInfo as `_tasks` renders it; `status` and `description` only when `detailed`. */
  info(detailed: boolean, runningNanos?: number): JsonObject {
    const out: JsonObject = { node: this.node, id: this.id, type: 'transport', action: this.options.action };
    if (detailed && this.options.status) out.status = this.options.status();
    if (detailed) out.description = this.options.description;
    out.start_time_in_millis = this.startTimeMillis;
    out.running_time_in_nanos = runningNanos ?? Number(process.hrtime.bigint() - this.startNanos);
    out.cancellable = this.options.cancellable;
    if (this.options.cancellable) out.cancelled = this.cancelled;
    out.headers = {};
    return out;
  }
}
