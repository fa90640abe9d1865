import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { basicTokenize, inputIds, MAX_SEQUENCE_LENGTH, parseVocabulary, sparseModelDir, tokenize, wordpiece } from '../../src/ml/index.js';

const vocabText = readFileSync(join(sparseModelDir(), 'vocab.txt'), 'utf8');
const vocab = parseVocabulary(vocabText);
const ids = (text: string) => inputIds(vocab, tokenize(vocab, text));
const pieces = (text: string) => tokenize(vocab, text).words.flatMap((w) => w.pieces.map((p) => vocab.tokens[p]));

/**
 * Expected ids were produced by Hugging Face transformers.js 4.3.1 (`AutoTokenizer` over a
 * BertNormalizer + BertPreTokenizer + WordPiece tokenizer.json of the same vocabulary), the
 * tokenizer user models are trained with.
 */
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'bert-uncased-ids.json'), 'utf8')) as {
  cases: Array<{ text: string; ids: number[] }>;
};

describe('the BERT-uncased vocabulary', () => {
  it('is byte-identical to bert-base-uncased vocab.txt (sha256 pinned by keras-nlp, PaddleNLP, …)', () => {
    expect(createHash('sha256').update(vocabText).digest('hex')).toBe('07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3');
    expect(vocab.tokens.length).toBe(30_522);
    expect([vocab.ids.get('[PAD]'), vocab.unkId, vocab.clsId, vocab.sepId, vocab.ids.get('[MASK]')]).toEqual([0, 100, 101, 102, 103]);
  });
});

describe('WordPiece tokenizer parity with Hugging Face BertTokenizer', () => {
  it('gives the ids BERT documents for its own examples', () => {
    expect(ids('i like strawberries')).toEqual([101, 1045, 2066, 13137, 20968, 102]);
    expect(ids('Hello, my dog is cute')).toEqual([101, 7592, 1010, 2026, 3899, 2003, 10140, 102]);
  });

  it.each(fixture.cases.map((c) => [JSON.stringify(c.text).slice(0, 60), c]))('matches transformers.js on %s', (_, c) => {
    expect(ids(c.text)).toEqual(c.ids);
  });

  it('lowercases, strips accents and splits punctuation and CJK characters into words', () => {
    expect(basicTokenize('Crème Brûlée, São-Paulo 中文')).toEqual(['creme', 'brulee', ',', 'sao', '-', 'paulo', '中', '文']);
  });

  it('removes control and format characters such as the zero-width space', () => {
    expect(basicTokenize('zero\u200bwidth\u0007bell')).toEqual(['zerowidthbell']);
  });

  it('marks continuation pieces with ## and keeps a rare word as its pieces', () => {
    expect(pieces('myocardial infarction')).toEqual(['my', '##oca', '##rdial', 'in', '##far', '##ction']);
  });

  it('turns a word longer than 100 characters, or one with no full match, into [UNK]', () => {
    expect(wordpiece(vocab, 'x'.repeat(101))).toEqual([vocab.unkId]);
    expect(wordpiece(vocab, 'y'.repeat(100))).not.toEqual([vocab.unkId]);
    expect(wordpiece(vocab, '😀')).toEqual([vocab.unkId]);
  });
});

describe('the 512-token cap', () => {
  it('keeps the first 510 wordpieces between [CLS] and [SEP] and reports the cut', () => {
    const t = tokenize(vocab, 'word '.repeat(600));
    expect(t.truncated).toBe(true);
    expect(t.pieceCount).toBe(510);
    const all = inputIds(vocab, t);
    expect(all.length).toBe(MAX_SEQUENCE_LENGTH);
    expect(all[0]).toBe(101);
    expect(all[511]).toBe(102);
  });

  it('cuts inside a word when its pieces straddle the limit', () => {
    const t = tokenize(vocab, `${'word '.repeat(509)}myocardial`);
    expect(t.pieceCount).toBe(510);
    expect(t.truncated).toBe(true);
    expect(t.words.at(-1)!.pieces.map((p) => vocab.tokens[p])).toEqual(['my']);
  });

  it('does not report a text of exactly 510 pieces as cut', () => {
    const t = tokenize(vocab, 'word '.repeat(510));
    expect(t.truncated).toBe(false);
    expect(t.pieceCount).toBe(510);
  });
});
