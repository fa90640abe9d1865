/**
 * Finished task results in the data directory (`tasks/<n>.json`, one atomic file each): what ES
 * keeps in its `.tasks` index, so `GET /_tasks/<id>` answers after completion and after restarts.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

export class TaskResultFiles {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  save(id: number, result: Record<string, unknown>): Promise<void> {
    return writeFileAtomic(join(this.dir, `${id}.json`), JSON.stringify(result));
  }

  load(id: number): Record<string, unknown> | null {
    try {
      return JSON.parse(readFileSync(join(this.dir, `${id}.json`), 'utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  maxId(): number {
    let max = 0;
    for (const name of readdirSync(this.dir)) {
      const m = /^(\d+)\.json$/.exec(name);
      if (m) max = Math.max(max, Number(m[1]));
    }
    return max;
  }
}
