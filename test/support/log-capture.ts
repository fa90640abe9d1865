/** A JSON logger whose lines a test reads back (parsed), for request-log and slow-log tests. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logging/index.js';

export interface LogCapture {
  readonly logger: Logger;
  /** Every line written so far, parsed. */
  lines(): Array<Record<string, any>>;
  /** The raw text written so far (to check that a secret appears nowhere). */
  text(): string;
}

export function captureLog(level = 'trace'): LogCapture {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    logger: createLogger({ level, format: 'json', destination: stream }),
    lines: () => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)),
    text: () => text,
  };
}
