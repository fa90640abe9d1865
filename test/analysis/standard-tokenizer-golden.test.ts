import { createHash } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { standardTokens } from '../../src/analysis/standard-tokenizer.js';
import { mulberry32 } from '../../src/common/prng.js';

/**
 * The scanner's output on seeded random texts, pinned to what the tokenizer answered before its
 * long-run fast path and run memo were made linear (the snapshot was written by that version).
 * The alphabet mixes every character class the grammar treats specially, and runs of one character
 * repeated up to 600 times, so texts hit the 255-unit cut, small `max_token_length`s and the
 * paths where a lexeme is scanned far without matching (underscores, ZWJs).
 */
const ALPHABET = [
  'a', 'Z', 'q', '7', '0', '_', '.', ',', "'", ':', ';', ' ', '-', '"', '#', '*',
  '\u200d', '\u0301', '\ufe0f', '\ufe0e', '\u20e3', '\u00ad', 'א', 'ア', 'ー', 'あ', '中', 'ก', '한',
  '😀', '🏽', '🇺', '🇸', '\u{E0067}', '\u{E007F}', '１', '\ud800', '\udc00', '٣', 'é',
];

function randomText(rand: () => number): string {
  const parts: string[] = [];
  const pieces = 1 + Math.floor(rand() * 12);
  for (let k = 0; k < pieces; k++) {
    const ch = ALPHABET[Math.floor(rand() * ALPHABET.length)];
    const r = rand();
    const n = r < 0.6 ? 1 : r < 0.85 ? 1 + Math.floor(rand() * 8) : 1 + Math.floor(rand() * 600);
    parts.push(ch.repeat(n));
  }
  return parts.join('');
}

describe('standard tokenizer output on random texts (pinned)', () => {
  it('matches the previous scanner token for token, at several max_token_length', async () => {
    const rand = mulberry32(15_002);
    const lines: string[] = [];
    for (let c = 0; c < 600; c++) {
      const text = randomText(rand);
      const max = [255, 255, 1, 3, 8, 40][c % 6];
      const tokens = standardTokens(text, max).map((t) => `${t.startOffset}-${t.endOffset}${t.type[1]}`);
      // The first tokens in clear (readable diffs), all of them through a digest (a small snapshot).
      const digest = createHash('sha256').update(tokens.join(' ')).digest('hex').slice(0, 16);
      lines.push(`${c} ${max} ${text.length}: ${tokens.length} ${digest} ${tokens.slice(0, 6).join(' ')}`);
    }
    await expect(lines.join('\n') + '\n').toMatchFileSnapshot('./__snapshots__/standard-tokenizer-golden.txt');
  });
});
