/**
 * The export's checkpoint file: per index, the sort values of the last document of the last batch
 * the target acknowledged (with every batch before it), so `--resume` continues right after it.
 * Written after each acknowledged batch to a temporary file that is fsynced and renamed over the
 * old one, so a kill at any moment leaves the previous or the next checkpoint, never half of one.
 * Documents are written with their ids, so a batch sent again after a kill replaces itself.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { CliError, EXIT } from '../cli-error.js';

export interface IndexProgress {
  state: 'copying' | 'done';
  /** The point in time being read (reused on resume while it lives). */
  pitId?: string;
  /** Sort values (`_shard_doc`) of the last acknowledged document; absent before the first batch. */
  searchAfter?: unknown[];
  /** Documents acknowledged by the target: indexed, and failed for good. */
  indexed: number;
  failed: number;
}

export interface ExportCheckpoint {
  version: 1;
  from: string;
  to: string;
  indices: Record<string, IndexProgress>;
}

export class CheckpointFile {
  private constructor(readonly path: string, readonly state: ExportCheckpoint) {}

  /** A new checkpoint; an existing file is refused unless resuming, so two exports never share one. */
  static start(path: string, from: string, to: string): CheckpointFile {
    if (existsSync(path)) {
      throw new CliError(`checkpoint file [${path}] exists from an earlier export: pass --resume to continue it, or delete it to start over`, EXIT.usage);
    }
    return new CheckpointFile(path, { version: 1, from, to, indices: {} });
  }

  static resume(path: string, from: string, to: string): CheckpointFile {
    if (!existsSync(path)) throw new CliError(`--resume: no checkpoint file [${path}] (pass the --checkpoint of the run to resume)`, EXIT.usage);
    let state: ExportCheckpoint;
    try {
      state = JSON.parse(readFileSync(path, 'utf8')) as ExportCheckpoint;
    } catch (e) {
      throw new CliError(`--resume: checkpoint file [${path}] is not readable JSON (${(e as Error).message.slice(0, 100)})`, EXIT.usage);
    }
    if (state?.version !== 1 || typeof state.indices !== 'object' || state.indices === null) {
      throw new CliError(`--resume: [${path}] is not an export checkpoint`, EXIT.usage);
    }
    if (state.from !== from || state.to !== to) {
      throw new CliError(`--resume: checkpoint [${path}] is of an export from ${state.from} to ${state.to}, not from ${from} to ${to}`, EXIT.usage);
    }
    return new CheckpointFile(path, state);
  }

  index(name: string): IndexProgress | undefined {
    return this.state.indices[name];
  }

  update(name: string, progress: IndexProgress): void {
    this.state.indices[name] = progress;
    this.save();
  }

  save(): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(this.state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
  }

  /** Removed once everything is copied and verified: a later export starts afresh. */
  remove(): void {
    rmSync(this.path, { force: true });
  }
}
