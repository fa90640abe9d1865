export { createLogger, REDACTED, silentLogger, type LogFormat, type Logger, type LoggerOptions } from './logger.js';
