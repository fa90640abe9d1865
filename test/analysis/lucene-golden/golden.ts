/** Reads the golden files tools/lucene-golden/run.sh wrote with Lucene 8.7 (see that script). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface GoldenText {
  readonly text: string;
  readonly max: number;
  /** term, start offset, end offset, type, position increment */
  readonly tokens: ReadonlyArray<readonly [string, number, number, string, number]>;
}

const here = (name: string): string => fileURLToPath(new URL(name, import.meta.url));

export function goldenTexts(name: string): GoldenText[] {
  return readFileSync(here(name), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as GoldenText);
}

export function goldenPairs(name: string): Array<[string, string]> {
  return readFileSync(here(name), 'utf8').split('\n').filter((l) => l !== '').map((l) => l.split('\t') as [string, string]);
}
