import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encode, isSpecialToken, loadSparseModel, readSparseModel, sparseModelDir, type SparseVector } from '../../src/ml/index.js';
import { generateBm25Corpus } from '../../src/cli/corpus/corpus.js';

const model = loadSparseModel();
const asObject = (v: SparseVector) => Object.fromEntries(v.tokens.map((t, i) => [t, v.weights[i]]));

/** English passages of the length ELSER's benchmark uses (~256 wordpieces), written for these tests. */
const DOCUMENTS = [
  `Vaccines train the immune system to recognise a pathogen without causing the disease. After an injection the body
   produces antibodies and memory cells; if the real virus arrives later, the response is faster and stronger. Influenza
   vaccines are updated every season because the virus changes, while measles vaccination gives lifelong protection. Some vaccines contain a weakened or inactivated
   virus, others only a protein from its surface or the messenger RNA that tells cells how to make that protein. Side
   effects such as a sore arm, fever or tiredness usually pass within days. When enough people are immune, outbreaks
   stop spreading, which protects infants and patients who cannot be vaccinated themselves.`,
  `The car would not start on a cold morning, so the mechanic checked the battery, the starter motor and the fuel pump.
   A weak battery is the most common cause in winter: low temperatures slow the chemical reaction that produces current.
   After a new battery was fitted the engine started at once and the driver continued the journey to the city. Modern vehicles
   also depend on sensors and an electronic control unit, so a diagnostic scanner plugged into the dashboard port can
   read fault codes. Regular servicing, clean terminals and a charger during long parking periods extend battery life,
   and drivers of electric cars watch their range drop when heating runs on freezing days.`,
  `Central banks raise interest rates to slow inflation. Higher rates make loans and mortgages more expensive, which
   reduces spending and investment; unemployment may rise as companies hire fewer workers. When inflation falls back
   towards the target, the bank can lower rates again to support growth in the economy. Markets react within
   minutes to each announcement: bond yields, currency exchange rates and share prices move as traders revise their
   expectations. Governments influence demand as well, through taxes and public spending, and a credible independent
   monetary policy committee keeps long-term expectations anchored, so wages and prices do not spiral upwards.`,
  `Photosynthesis converts light energy into chemical energy stored in glucose. In the chloroplasts of plant cells,
   chlorophyll absorbs sunlight, water is split to release oxygen, and carbon dioxide is fixed into sugars by the
   Calvin cycle. Nearly all life on Earth depends on this process for food and for the oxygen in the atmosphere. Leaves take in carbon
   dioxide through small pores called stomata, which close in dry weather to save water and so slow the reaction.
   Temperature, light intensity and the concentration of the gas all limit the rate, as experiments with pondweed that
   count bubbles of oxygen show. Algae and cyanobacteria in the oceans perform a large share of global photosynthesis.`,
];
const QUERIES = ['how do vaccines work', 'car battery dead in winter', 'why do central banks raise interest rates', 'how do plants make food from sunlight'];

describe('the .sparse_model_2 artifact', () => {
  it('matches its committed sha256 and loads in well under a second', () => {
    const dir = sparseModelDir();
    const bytes = readFileSync(join(dir, 'model.bin'));
    expect(`${createHash('sha256').update(bytes).digest('hex')}  model.bin\n`).toBe(readFileSync(join(dir, 'model.bin.sha256'), 'utf8'));
    const start = performance.now();
    const fresh = readSparseModel(dir);
    expect(performance.now() - start).toBeLessThan(1000);
    expect(fresh.sha256).toBe(model.sha256);
  });
});

describe('encoding', () => {
  it('is deterministic: the same text gives the same tokens and weights, whatever was encoded before', () => {
    const first = encode(model, DOCUMENTS[0]);
    for (const d of DOCUMENTS) encode(model, d);
    const again = encode(model, DOCUMENTS[0]);
    expect(again.tokens).toEqual(first.tokens);
    expect(Array.from(again.weights)).toEqual(Array.from(first.weights));
  });

  it('outputs unique vocabulary tokens, never special ones, with weights > 0 in descending order', () => {
    for (const text of [...DOCUMENTS, ...QUERIES]) {
      const v = encode(model, text);
      expect(new Set(v.tokens).size).toBe(v.tokens.length);
      for (let i = 0; i < v.tokens.length; i++) {
        expect(model.vocab.ids.has(v.tokens[i])).toBe(true);
        expect(isSpecialToken(v.tokens[i])).toBe(false);
        expect(v.tokens[i]).not.toContain('.');
        expect(v.weights[i]).toBeGreaterThan(0);
        if (i > 0) expect(v.weights[i]).toBeLessThanOrEqual(v.weights[i - 1]);
      }
    }
  });

  it('has ELSER-like output sizes: documents ~100–250 tokens, queries ~20–60', () => {
    const docs = DOCUMENTS.map((d) => encode(model, d).tokens.length);
    const queries = QUERIES.map((q) => encode(model, q).tokens.length);
    for (const n of docs) expect(n).toBeGreaterThanOrEqual(100), expect(n).toBeLessThanOrEqual(256);
    for (const n of queries) expect(n).toBeGreaterThanOrEqual(10), expect(n).toBeLessThanOrEqual(60);
    const meanQuery = queries.reduce((s, n) => s + n, 0) / queries.length;
    expect(meanQuery).toBeGreaterThanOrEqual(20);
  });

  it('weighs the text’s own words highest and adds related terms it does not contain', () => {
    const v = asObject(encode(model, 'how do vaccines work'));
    expect(v.vaccine ?? v.vaccines).toBeGreaterThan(1);
    const expansions = Object.keys(v).filter((t) => !['how', 'do', 'vaccine', 'vaccines', 'work'].includes(t));
    expect(expansions.length).toBeGreaterThan(10);
    expect(expansions.some((t) => ['immunization', 'vaccination', 'influenza', 'flu', 'antibodies', 'virus'].includes(t))).toBe(true);
  });

  it('folds inflections onto one token, so a plural matches its singular', () => {
    expect(encode(model, 'vaccine').tokens[0]).toBe(encode(model, 'vaccines').tokens[0]);
  });

  it('does not expand a word missing from the vocabulary: its pieces carry no meaning of their own (a static model’s limit)', () => {
    const v = encode(model, 'chlorophyll');
    expect(v.tokens.every((t) => model.vocab.tokens.indexOf(t) >= 0)).toBe(true);
    expect([...v.tokens].sort()).toEqual(['##hyl', '##lor', '##op', 'ch']);
  });

  it('gives stop words no weight', () => {
    expect(encode(model, 'the of and to is').tokens).toEqual([]);
    expect(encode(model, '').tokens).toEqual([]);
  });

  it('keeps the wordpieces of a word missing from the vocabulary as its tokens', () => {
    const v = asObject(encode(model, 'myocardial'));
    expect(v['##oca']).toBeGreaterThan(0);
    expect(v['##rdial']).toBeGreaterThan(0);
  });

  it('reads only the first 512 wordpieces and says when it cut', () => {
    const base = DOCUMENTS[1];
    const filler = ' lorem'.repeat(600);
    const cut = encode(model, base + filler + ' photosynthesis chlorophyll');
    expect(cut.isTruncated).toBe(true);
    expect(cut.tokens).not.toContain('photosynthesis');
    expect(encode(model, base).isTruncated).toBe(false);
  });

  it('ranks each document first for its own query by dot product', () => {
    const docs = DOCUMENTS.map((d) => asObject(encode(model, d)));
    QUERIES.forEach((q, expected) => {
      const query = encode(model, q);
      const scores = docs.map((d) => query.tokens.reduce((s, t, i) => s + query.weights[i] * (d[t] ?? 0), 0));
      expect(scores.indexOf(Math.max(...scores))).toBe(expected);
    });
  });

  it('never fails on arbitrary text', () => {
    const corpus = generateBm25Corpus({ docs: 50 } as never);
    for (const text of ['\u0000\uffff\ud800', '😀'.repeat(1000), 'a'.repeat(100_000), '中文'.repeat(300), ...corpus.docs.slice(0, 50).map(String)]) {
      const v = encode(model, text);
      expect(v.tokens.length).toBe(v.weights.length);
    }
  });
});
