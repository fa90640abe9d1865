/** A setting the server cannot start with: start-up prints the message (no stack) and exits 2. */
export class ConfigError extends Error {}
