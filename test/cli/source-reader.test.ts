/**
 * `load`'s reader on compressed files: gzip is read as it is (line numbers as in the uncompressed
 * file); bzip2, xz and zstd — Rally's corpora download as .json.bz2 — are refused before anything
 * is sent, with the command that decompresses them; a truncated gzip file is bad input, not a crash.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError, EXIT } from '../../src/cli/cli-error.js';
import { checkSource, readDocuments } from '../../src/cli/load/source-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'threadsearch-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Buffer | string) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
// Non-ASCII text across the file, so a character split between gunzip chunks would show.
const text = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ _id: `d${i}`, title: `überprüfung ${'ž'.repeat(i % 50)} ${i}` })).join('\n') + '\n\n';

async function collect(path: string, from = 1) {
  const out = [];
  for await (const d of readDocuments(path, from, undefined)) out.push(d);
  return out;
}

async function failure(run: () => Promise<unknown>): Promise<CliError> {
  try {
    await run();
  } catch (e) {
    return e as CliError;
  }
  throw new Error('no error');
}

describe('load source files', () => {
  it('a gzip file reads as the plain file does, lines numbered alike', async () => {
    const plain = file('docs.jsonl', text);
    const gz = file('docs.json.gz', gzipSync(text));
    expect(await checkSource(gz, 1, undefined)).toEqual(await checkSource(plain, 1, undefined));
    const [a, b] = [await collect(plain, 7), await collect(gz, 7)];
    expect(b).toEqual(a);
    expect(b[0]).toEqual({ line: 7, id: 'd6', source: { title: `überprüfung ${'ž'.repeat(6)} 6` } });
    expect(b).toHaveLength(2994);
  });

  it('bzip2, xz and zstd files are refused with the command that decompresses them', async () => {
    for (const [name, bytes, says] of [
      ['corpus.json.bz2', Buffer.from('BZh91AY&SY\x00\x01', 'latin1'), 'is bzip2-compressed: decompress it first (bunzip2 -k '],
      ['corpus.json.xz', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 1, 2]), 'is xz-compressed: decompress it first (unxz -k '],
      ['corpus.json.zst', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2]), 'is zstd-compressed: decompress it first (unzstd '],
    ] as const) {
      const e = await failure(() => checkSource(file(name, bytes), 1, undefined));
      expect(e).toBeInstanceOf(CliError);
      expect(e.exitCode).toBe(EXIT.usage);
      expect(e.message).toContain(says);
    }
  });

  it('a truncated gzip file is bad input (exit 2), not an internal error', async () => {
    const whole = gzipSync(text);
    const e = await failure(() => checkSource(file('cut.json.gz', whole.subarray(0, whole.length >> 1)), 1, undefined));
    expect(e).toBeInstanceOf(CliError);
    expect(e.exitCode).toBe(EXIT.usage);
    expect(e.message).toMatch(/is not a whole gzip file: /);
  });
});
