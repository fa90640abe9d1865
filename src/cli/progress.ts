/**
 * What `load` and `export` show and how they stop: the documents progress bar, drawn on stderr
 * only when it is a terminal (never mixed into piped output), with the rate and an ETA; and Ctrl-C
 * as a clean stop.
 */
import { SingleBar } from 'cli-progress';
import { EXIT } from './cli-error.js';

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

export interface GracefulStop {
  /** True once the user pressed Ctrl-C: stop reading, let the requests in flight finish. */
  requested(): boolean;
  dispose(): void;
}

/** The first Ctrl-C asks for a clean stop (what is acknowledged gets reported); a second one exits. */
export function gracefulStop(): GracefulStop {
  let stop = false;
  const onSigint = () => {
    stop = true;
    process.stderr.write('\nstopping: finishing the requests in flight (Ctrl-C again to abort)\n');
    process.once('SIGINT', () => process.exit(EXIT.interrupted));
  };
  process.once('SIGINT', onSigint);
  return { requested: () => stop, dispose: () => process.off('SIGINT', onSigint) };
}
