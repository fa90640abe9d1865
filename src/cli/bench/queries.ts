/**
 * The query texts a bench run cycles through: the user's file (one query per line), or queries of
 * two or three words drawn from the index's own sampled documents with a seeded PRNG, so two runs
 * over the same index send the same queries.
 */
import { readFileSync, existsSync } from 'node:fs';
import { CliError, EXIT } from '../cli-error.js';
import { mulberry32 } from '../../common/prng.js';
import type { IndexProfile } from './index-profile.js';

export function readQueryFile(path: string): string[] {
  if (!existsSync(path)) throw new CliError(`no such query file [${path}]`, EXIT.usage);
  const queries = readFileSync(path, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  if (queries.length === 0) throw new CliError(`query file [${path}] has no queries (one per line)`, EXIT.usage);
  return queries;
}

const WORD = /[\p{L}\p{N}]{3,}/gu;

function collectText(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectText(v, out);
}

function fieldValue(source: Record<string, unknown>, path: string): unknown {
  let v: unknown = source;
  for (const part of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v ?? source[path];
}

/** `count` queries of 2–3 words from the sample's text fields (words of 3+ letters, lowercased). */
export function sampleQueries(profile: IndexProfile, fields: readonly string[], count: number, seed = 42): string[] {
  const words: string[] = [];
  for (const doc of profile.sample) {
    const texts: string[] = [];
    for (const f of fields) collectText(fieldValue(doc.source, f), texts);
    for (const t of texts) for (const m of t.toLowerCase().matchAll(WORD)) words.push(m[0]);
  }
  if (words.length === 0) throw new CliError(`no words to build queries from in the sampled documents' fields [${fields.join(', ')}]; pass --queries <file>`, EXIT.usage);
  const random = mulberry32(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = random() < 0.5 ? 2 : 3;
    const q: string[] = [];
    for (let k = 0; k < n; k++) q.push(words[Math.floor(random() * words.length)]);
    out.push(q.join(' '));
  }
  return out;
}
