/**
 * The French, German and Spanish analyzers (Lucene FrenchAnalyzer, GermanAnalyzer, SpanishAnalyzer:
 * standard tokenizer, elision for French, lowercase, the Snowball stop sets, `stem_exclusion`,
 * German normalization, the light stemmers), the `stemmer` languages light_french / light_german /
 * light_spanish, `german_normalization` and the `_french_` / `_german_` / `_spanish_` stop lists.
 * Stems are those of Lucene's light stemmer algorithms (Savoy's UniNE), rule by rule.
 */
import { describe, expect, it } from 'vitest';
import { analyzeToTokens, buildIndexAnalysis, DEFAULT_INDEX_ANALYSIS } from '../../src/analysis/index.js';
import { frenchLightStem, germanLightStem, germanNormalize, spanishLightStem } from '../../src/analysis/light-stemmers.js';

const run = (analyzer: string, text: string, settings: Record<string, unknown> = {}) =>
  analyzeToTokens(buildIndexAnalysis(settings).analyzer(analyzer)!, text).map((t) => [t.term, t.position]);

describe('light stemmers', () => {
  it('French: plurals, -aux, feminine and agent suffixes, adverbs, doubled letters, accents', () => {
    const cases: Array<[string, string]> = [
      ['chevaux', 'cheval'], ['cheval', 'cheval'], ['hiboux', 'hibou'], ['chantés', 'chant'], ['chanter', 'chant'], ['chante', 'chant'],
      ['baronnes', 'baron'], ['barons', 'baron'], ['anneaux', 'aneau'], ['affreux', 'afreu'], ['affreuse', 'afreu'],
      ['investissement', 'investi'], ['assourdissant', 'asourdi'], ['pratiquement', 'pratiqu'], ['administrativement', 'administratif'],
      ['justificatrice', 'justifi'], ['justificateur', 'justifi'], ['educatrice', 'eduqu'], ['communicateur', 'comuniqu'],
      ['accompagnatrice', 'acompagn'], ['compétitrice', 'competit'], ['vieille', 'vieil'], ['matière', 'matier'], ['gouvernement', 'gouvern'],
    ];
    for (const [word, stem] of cases) expect(frenchLightStem(word), word).toBe(stem);
  });

  it('German: umlauts folded, two suffix steps; normalization of ß, ae/oe/ue', () => {
    for (const [word, stem] of [['häuser', 'haus'], ['bücher', 'buch'], ['kinder', 'kind'], ['schönsten', 'schon'], ['schnell', 'schnell']]) {
      expect(germanLightStem(word), word).toBe(stem);
    }
    for (const [word, norm] of [['straße', 'strasse'], ['schoen', 'schon'], ['mueller', 'muller'], ['quelle', 'quelle'], ['blaue', 'blaue'], ['äpfel', 'apfel']]) {
      expect(germanNormalize(word), word).toBe(norm);
    }
  });

  it('Spanish: gender and plural endings, -ces → -z, short words untouched', () => {
    for (const [word, stem] of [['chicas', 'chic'], ['chico', 'chic'], ['luces', 'luz'], ['canciones', 'cancion'], ['antigüedades', 'antiguedad'], ['casa', 'casa']]) {
      expect(spanishLightStem(word), word).toBe(stem);
    }
  });
});

describe('language analyzers', () => {
  it('french: elision, lowercase, stop words, light stemming; positions keep the stop-word gaps', () => {
    expect(run('french', "L'avion des Chevaux et les chantés")).toEqual([['avion', 0], ['cheval', 2], ['chant', 5]]);
  });

  it('german: stop words, normalization before the light stemmer', () => {
    expect(run('german', 'Die Häuser und die Straßen')).toEqual([['haus', 1], ['strass', 4]]);
  });

  it('spanish: stop words and light stemming', () => {
    expect(run('spanish', 'Las canciones de los niños')).toEqual([['cancion', 1], ['niñ', 4]]);
  });

  it('configured with stopwords and stem_exclusion', () => {
    const settings = { analyzer: { fr: { type: 'french', stopwords: ['avion'], stem_exclusion: ['chevaux'] } } };
    expect(run('fr', "l'avion les chevaux", settings)).toEqual([['les', 1], ['chevaux', 2]]);
  });

  it('the stemmer filter, german_normalization and the named stop lists', () => {
    const settings = {
      filter: {
        fr_stop: { type: 'stop', stopwords: '_french_' }, de_stop: { type: 'stop', stopwords: ['_german_', 'extra'] },
        es_stem: { type: 'stemmer', language: 'light_spanish' }, de_stem: { type: 'stemmer', language: 'lightGerman' },
      },
      analyzer: {
        a: { tokenizer: 'standard', filter: ['lowercase', 'fr_stop', 'de_stop', 'german_normalization', 'de_stem'] },
        b: { tokenizer: 'standard', filter: ['lowercase', 'es_stem'] },
      },
    };
    expect(run('a', 'le der extra Bücher', settings)).toEqual([['buch', 3]]);
    expect(run('b', 'Chicas', settings)).toEqual([['chic', 0]]);
  });

  it('the prebuilt french, german and spanish analyzers are known by name', () => {
    for (const name of ['french', 'german', 'spanish']) expect(DEFAULT_INDEX_ANALYSIS.analyzer(name)?.name).toBe(name);
  });

  it('refuses languages not offered, naming them', () => {
    expect(() => buildIndexAnalysis({ filter: { k: { type: 'stemmer', language: 'light_italian' } } })).toThrow('stemmer language [light_italian] is not supported by this server yet');
    expect(() => buildIndexAnalysis({ analyzer: { a: { type: 'italian' } } })).toThrow('analyzer type [italian] is not supported by this server yet');
    expect(() => buildIndexAnalysis({ filter: { s: { type: 'stop', stopwords: '_italian_' } } })).toThrow('stop word list [_italian_] is not supported by this server yet');
  });
});
