/**
 * The server's one logger: pino (the logger fastify is built on), at the configured level, as JSON
 * lines or formatted for people by pino-pretty in the same thread (no transport worker, so a line
 * is written before the process can exit). Secrets never reach it: request lines carry no headers
 * and redacted paths (request-log.ts), and the redaction below masks credentials anywhere in a
 * logged object, in case an error or a future log call carries one.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };
export type LogFormat = 'pretty' | 'json';

export const REDACTED = '<redacted>';

/** Paths pino masks in every logged object (one level of nesting and the request headers). */
const REDACT_PATHS = [
  'authorization', '*.authorization', 'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
  'api_key', '*.api_key', 'password', '*.password', 'secret', '*.secret',
];

export interface LoggerOptions {
  readonly level: string;
  readonly format: LogFormat;
  /** Where lines go; stdout by default (tests pass a stream to read them). */
  readonly destination?: DestinationStream | NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const out = options.destination ?? pino.destination({ fd: 1, sync: true });
  const stream = options.format === 'pretty'
    ? pretty({ destination: out, sync: true, colorize: options.destination === undefined && process.stdout.isTTY === true, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l', ignore: 'pid,hostname' })
    : out;
  return pino({ level: options.level, base: { name: 'threadsearch' }, redact: { paths: REDACT_PATHS, censor: REDACTED } }, stream as DestinationStream);
}

/** A logger that writes nothing (embedding, tests): every level check is false, so callers pay nothing. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
