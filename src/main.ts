#!/usr/bin/env node
/**
 * Process entry of the `threadsearch` command (package.json `bin`, `npm start`). With no command, or
 * with server flags first (`threadsearch --port 9201`), it starts the server as it always has;
 * otherwise the command line of src/cli/program.ts runs (`start`, `load`, `bench`, `capacity`, `eval`).
 */
import { runCli } from './cli/program.js';

process.exitCode = await runCli(process.argv.slice(2));
