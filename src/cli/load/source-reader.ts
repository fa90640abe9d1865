/**
 * What `load` reads: a JSONL / NDJSON file (one JSON object per line, blank lines skipped) or a
 * BEIR dataset folder (its corpus.jsonl: `_id`, `title`, `text`). A line's `_id` becomes the
 * document id and leaves the source (ES refuses `_id` inside a document); `--id-field` names a
 * source field to take the id from instead. Lines are numbered from 1, as an editor shows them.
 * A gzip-compressed file (`documents.json.gz`) is read through gunzip; bzip2, xz and zstd files
 * (Rally's corpora download as `.json.bz2`) are refused with the command that decompresses them.
 */
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CliError, EXIT, excerpt } from '../cli-error.js';

export interface SourceDoc {
  line: number;
  id: string | undefined;
  source: Record<string, unknown>;
  /** Custom routing the document was indexed with (export copies it; files carry none). */
  routing?: string;
}

/** The file to read for `path`: the file itself, or a BEIR folder's corpus.jsonl. */
export function resolveSourceFile(path: string): string {
  if (!existsSync(path)) throw new CliError(`no such file or folder [${path}]`, EXIT.usage);
  if (statSync(path).isDirectory()) {
    const corpus = join(path, 'corpus.jsonl');
    if (!existsSync(corpus)) throw new CliError(`folder [${path}] is not a BEIR dataset: it has no corpus.jsonl`, EXIT.usage);
    return corpus;
  }
  return path;
}

/** Compressions recognised by their first bytes that `load` does not decode itself, with the command that does. */
const UNSUPPORTED_COMPRESSION: readonly { magic: readonly number[]; name: string; command: string }[] = [
  { magic: [0x42, 0x5a, 0x68], name: 'bzip2', command: 'bunzip2 -k' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], name: 'xz', command: 'unxz -k' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], name: 'zstd', command: 'unzstd' },
];

/** The file's lines as text: gunzipped when it starts with gzip's magic bytes. */
function lineReader(file: string): AsyncIterable<string> {
  const head = Buffer.alloc(6);
  const fd = openSync(file, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const startsWith = (magic: readonly number[]) => n >= magic.length && magic.every((b, i) => head[i] === b);
  for (const c of UNSUPPORTED_COMPRESSION) {
    if (startsWith(c.magic)) throw new CliError(`[${file}] is ${c.name}-compressed: decompress it first (${c.command} ${file}), or gzip it (gzip files are read as they are)`, EXIT.usage);
  }
  const raw = createReadStream(file);
  const input: Readable = startsWith([0x1f, 0x8b]) ? raw.pipe(createGunzip()) : raw;
  if (input !== raw) raw.on('error', (e) => input.destroy(e));
  input.setEncoding('utf8');
  return gzipErrorsAsCliErrors(file, createInterface({ input, crlfDelay: Infinity }));
}

/** A damaged or truncated gzip file is bad input (exit 2, one line), not an internal error. */
async function* gzipErrorsAsCliErrors(file: string, lines: AsyncIterable<string>): AsyncGenerator<string> {
  try {
    yield* lines;
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('Z_')) throw new CliError(`[${file}] is not a whole gzip file: ${(e as Error).message}`, EXIT.usage);
    throw e;
  }
}

/** One line → document, or a CliError naming the file and line (and a short prefix of it). */
export function parseLine(file: string, line: number, text: string, idField: string | undefined): SourceDoc {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}:${line}: malformed JSON (${(e as Error).message.slice(0, 80)}): ${excerpt(text)}`, EXIT.usage);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliError(`${file}:${line}: a line must be one JSON object (a document), got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`, EXIT.usage);
  }
  const source = value as Record<string, unknown>;
  const key = idField ?? '_id';
  const raw = source[key];
  if (raw === undefined) {
    if (idField !== undefined) throw new CliError(`${file}:${line}: the document has no [${idField}] field for --id-field`, EXIT.usage);
    return { line, id: undefined, source };
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') throw new CliError(`${file}:${line}: [${key}] must be a string or a number to be an id`, EXIT.usage);
  if (idField === undefined) delete source._id;
  return { line, id: String(raw), source };
}

/** The documents of `file` from line `fromLine` on, streamed (the file is never read whole). */
export async function* readDocuments(file: string, fromLine: number, idField: string | undefined): AsyncGenerator<SourceDoc> {
  const lines = lineReader(file);
  let n = 0;
  for await (const text of lines) {
    n++;
    if (n < fromLine || text.trim().length === 0) continue;
    yield parseLine(file, n, text, idField);
  }
}

export interface SourceCheck {
  /** Documents from `fromLine` on. */
  docs: number;
  /** Lines in the file. */
  lines: number;
}

/**
 * Reads the whole file once before anything is sent, so a malformed line stops the load before
 * a single document is written (and gives the progress bar its total).
 */
export async function checkSource(file: string, fromLine: number, idField: string | undefined): Promise<SourceCheck> {
  let docs = 0;
  const lines = lineReader(file);
  let n = 0;
  for await (const text of lines) {
    n++;
    if (n < fromLine || text.trim().length === 0) continue;
    parseLine(file, n, text, idField);
    docs++;
  }
  if (fromLine > n + 1) throw new CliError(`--resume-from ${fromLine} is past the end of [${file}] (${n} lines)`, EXIT.usage);
  return { docs, lines: n };
}
