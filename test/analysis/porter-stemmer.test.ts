import { describe, it, expect } from 'vitest';
import { porterStem } from '../../src/analysis/porter-stemmer.js';

describe('porterStem (Lucene PorterStemmer)', () => {
  it('stems the examples in the comments of Lucene PorterStemmer.step1', () => {
    const examples: Record<string, string> = {
      caresses: 'caress', ponies: 'poni', ties: 'ti', caress: 'caress', cats: 'cat', feed: 'feed',
      agreed: 'agre', disabled: 'disabl', matting: 'mat', mating: 'mate', meeting: 'meet',
      milling: 'mill', messing: 'mess', meetings: 'meet',
    };
    for (const [word, stem] of Object.entries(examples)) expect(porterStem(word), word).toBe(stem);
  });

  it('stems the step examples of Porter\u2019s paper to their final stems', () => {
    // Full five-step results (the paper lists each step alone; these are the words after all steps).
    const examples: Record<string, string> = {
      plastered: 'plaster', bled: 'bled', motoring: 'motor', sing: 'sing', conflated: 'conflat',
      troubled: 'troubl', sized: 'size', hopping: 'hop', tanned: 'tan', falling: 'fall', hissing: 'hiss',
      fizzed: 'fizz', failing: 'fail', filing: 'file', happy: 'happi', sky: 'sky', relational: 'relat',
      conditional: 'condit', rational: 'ration', valenci: 'valenc', hesitanci: 'hesit', digitizer: 'digit',
      conformabli: 'conform', radicalli: 'radic', differentli: 'differ', vileli: 'vile',
      analogousli: 'analog', vietnamization: 'vietnam', predication: 'predic', operator: 'oper',
      feudalism: 'feudal', decisiveness: 'decis', hopefulness: 'hope', callousness: 'callous',
      formaliti: 'formal', sensitiviti: 'sensit', sensibiliti: 'sensibl', triplicate: 'triplic',
      formative: 'form', formalize: 'formal', electriciti: 'electr', electrical: 'electr', hopeful: 'hope',
      goodness: 'good', revival: 'reviv', allowance: 'allow', inference: 'infer', airliner: 'airlin',
      gyroscopic: 'gyroscop', adjustable: 'adjust', defensible: 'defens', irritant: 'irrit',
      replacement: 'replac', adjustment: 'adjust', dependent: 'depend', adoption: 'adopt',
      homologou: 'homolog', communism: 'commun', activate: 'activ', angulariti: 'angular',
      homologous: 'homolog', effective: 'effect', bowdlerize: 'bowdler', probate: 'probat', rate: 'rate',
      cease: 'ceas', controll: 'control', roll: 'roll', generalizations: 'gener', oscillators: 'oscil',
    };
    for (const [word, stem] of Object.entries(examples)) expect(porterStem(word), word).toBe(stem);
  });

  it('maps -logi to -log and -bli to -ble in step 3, as Lucene\u2019s revised algorithm does', () => {
    expect(porterStem('archaeology')).toBe('archaeolog');
    expect(porterStem('analogies')).toBe('analog');
    expect(porterStem('conformabli')).toBe('conform');
  });

  it('leaves words of one or two characters alone', () => {
    for (const word of ['a', 'is', 'as', 'ss', 'ed']) expect(porterStem(word)).toBe(word);
  });

  it('handles the short words Lucene\u2019s "Bug 1" and "Bug 2" fixes are about', () => {
    expect(porterStem('eed')).toBe('eed');
    expect(porterStem('aed')).toBe('a');
    expect(porterStem('oed')).toBe('o');
    expect(porterStem('ion')).toBe('ion');
    expect(porterStem('ies')).toBe('i');
    expect(porterStem('sses')).toBe('ss');
  });

  it('treats yy before -ed or -ing as a double consonant, as Lucene does', () => {
    // y after a vowel-y is a consonant (cons() recurses), so "yy" is a double consonant to undouble.
    expect(porterStem('syyed')).toBe('sy');
    expect(porterStem('tidyying')).toBe('tidi');
  });

  it('counts non-ASCII letters and digits as consonants and stems around them', () => {
    expect(porterStem('cafés')).toBe('café');
    expect(porterStem('naïveness')).toBe('naïv');
    expect(porterStem('covid19')).toBe('covid19');
  });

  it('returns the very same string when nothing changes', () => {
    const word = 'search'.slice(0);
    expect(porterStem(word)).toBe(word);
  });
});
