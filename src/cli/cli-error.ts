/**
 * How a command fails: a message for the user (no stack trace) and an exit code. Everything a
 * command throws that is not a CliError is a bug and is printed with its stack by main.ts.
 */

/** Exit codes of every command (documented in `threadsearch --help`). */
export const EXIT = {
  ok: 0,
  /** The command could not do its work: server unreachable, refused credentials, server errors. */
  failed: 1,
  /** Bad command line or bad input file: nothing was sent or written. */
  usage: 2,
  /** The command finished but not everything succeeded (documents rejected, target not met). */
  partial: 3,
  /** Interrupted by SIGINT after a clean stop (what was acknowledged is reported). */
  interrupted: 130,
} as const;

export class CliError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.failed) {
    super(message);
  }
}

/** At most `max` characters of user input, for error messages (never echo a whole line). */
export function excerpt(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max)}…`;
}
