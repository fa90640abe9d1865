/**
 * The documents progress bar of `load` and `export`: drawn on stderr only when it is a terminal
 * (never mixed into piped output), with the rate and an ETA.
 */
import { SingleBar } from 'cli-progress';

export interface DocsProgress {
  /** Adds acknowledged documents. */
  add(docs: number): void;
  stop(): void;
}

export function docsProgress(total: number, enabled: boolean, already = 0, label = ''): DocsProgress {
  const bar = enabled && process.stderr.isTTY
    ? new SingleBar({ stream: process.stderr, format: `${label}{bar} {percentage}% | {value}/{total} docs | {rate} docs/s | ETA {eta_formatted}`, hideCursor: true, etaBuffer: 50 })
    : null;
  const started = performance.now();
  let done = already;
  let added = 0;
  bar?.start(total, done, { rate: 0 });
  return {
    add(docs) {
      done += docs;
      added += docs;
      bar?.update(done, { rate: Math.round(added / Math.max(0.001, (performance.now() - started) / 1000)) });
    },
    stop() {
      bar?.stop();
    },
  };
}
