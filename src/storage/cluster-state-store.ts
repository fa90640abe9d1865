/**
 * Cluster state on disk: one JSON document of named sections. Each service that owns durable
 * metadata (indices, ingest pipelines, model deployments, API keys) registers a
 * section with a function that snapshots it, and calls `save()` after changing it. Saves are
 * atomic (temp → fsync → rename → fsync dir) and coalesced: a save requested while one is running
 * is folded into the next.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic-file.js';

export const CLUSTER_STATE_VERSION = 1;

interface StoredState {
  readonly version: number;
  readonly sections: Record<string, unknown>;
}

export class ClusterStateStore {
  private readonly sections = new Map<string, () => unknown>();
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private loaded: Record<string, unknown> = {};
  /** Bumped by every change; a write records the version it captured once it is durable. */
  private version = 0;
  private durableVersion = 0;

  constructor(private readonly file: string) {}

  /** Reads the stored state (start-up). A missing file is an empty cluster. */
  load(): void {
    if (!existsSync(this.file)) return;
    const state = JSON.parse(readFileSync(this.file, 'utf8')) as StoredState;
    if (state.version !== CLUSTER_STATE_VERSION) throw new Error(`unsupported cluster state version ${state.version}`);
    this.loaded = state.sections ?? {};
  }

  /** The stored value of a section, as loaded at start-up. */
  section<T>(name: string): T | undefined {
    return this.loaded[name] as T | undefined;
  }

  register(name: string, snapshot: () => unknown): void {
    this.sections.set(name, snapshot);
  }

  /** Records that some section changed (cheap; `persist()` makes it durable). */
  markChanged(): void {
    this.version++;
  }

  /** Resolves once every change marked so far is durable; immediately when there is none. */
  persist(): Promise<void> {
    return this.durableVersion >= this.version ? Promise.resolve() : this.save();
  }

  /** Writes every section; resolves once a write that began after the call is durable. */
  save(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return (this.running = this.write().finally(() => (this.running = null)));
    // A write is under way with an older snapshot: queue one more that all callers share.
    const next = this.running.catch(() => undefined).then(() => {
      this.queued = null;
      return (this.running = this.write().finally(() => (this.running = null)));
    });
    this.queued = next;
    return next;
  }

  private async write(): Promise<void> {
    const version = this.version;
    const sections: Record<string, unknown> = { ...this.loaded };
    for (const [name, snapshot] of this.sections) sections[name] = snapshot();
    const state: StoredState = { version: CLUSTER_STATE_VERSION, sections };
    await writeFileAtomic(this.file, JSON.stringify(state));
    if (version > this.durableVersion) this.durableVersion = version;
  }
}
