/**
 * Lucene's KeywordTokenizer: the entire input is one token, whatever its length. Like Lucene it
 * emits that token even for empty input (an empty term at offsets 0–0).
 */
import type { Tokenizer } from './token-stream.js';

export const keywordTokenizer: Tokenizer = {
  name: 'keyword',
  next(text, previousEnd, out) {
    if (previousEnd >= 0) return false;
    out[0] = 0;
    out[1] = text.length;
    out[2] = 0;
    return true;
  },
};
