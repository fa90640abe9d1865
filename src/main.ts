#!/usr/bin/env node
/**
 * Process entry of the `threadsearch` command (package.json `bin`, `npm start`). With no command, or
 * with server flags first (`threadsearch --port 9201`), it starts the server as it always has;
 * otherwise the command line of src/cli/program.ts runs (`start`, `load`, `bench`, `capacity`, `eval`).
 */
import { setFlagsFromString } from 'node:v8';
import { runCli } from './cli/program.js';

// As SERVER_NODE_ARGS (cli/server-process.ts), also when node was started without it (this command
// run directly, `node dist/src/main.js`): V8 reads the flag as it allocates and collects, so it takes
// effect from here on (measured under `_msearch` at 100 connections: the mark-compact pauses of the
// command-line flag, not of pretenuring on). The semi-space size cannot be changed after start-up.
setFlagsFromString('--no-allocation-site-pretenuring');

process.exitCode = await runCli(process.argv.slice(2));
