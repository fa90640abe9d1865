import { describe, expect, it } from 'vitest';
import { englishSnowballStem } from '../../src/analysis/english-snowball-stemmer.js';

// Pairs from the Snowball English stemmer's sample vocabulary and output (snowballstem.org).
const SAMPLES: Array<[string, string]> = [
  ['consign', 'consign'], ['consigned', 'consign'], ['consigning', 'consign'], ['consignment', 'consign'],
  ['consist', 'consist'], ['consisted', 'consist'], ['consistency', 'consist'], ['consistent', 'consist'],
  ['consistently', 'consist'], ['consisting', 'consist'], ['consists', 'consist'], ['consolation', 'consol'],
  ['consolations', 'consol'], ['consolatory', 'consolatori'], ['console', 'consol'], ['consoled', 'consol'],
  ['consoles', 'consol'], ['consolidate', 'consolid'], ['consolidated', 'consolid'], ['consolidating', 'consolid'],
  ['consoling', 'consol'], ['consolingly', 'consol'], ['consols', 'consol'], ['consonant', 'conson'],
  ['consort', 'consort'], ['consorted', 'consort'], ['consorting', 'consort'], ['conspicuous', 'conspicu'],
  ['conspicuously', 'conspicu'], ['conspiracy', 'conspiraci'], ['conspirator', 'conspir'], ['conspirators', 'conspir'],
  ['conspire', 'conspir'], ['conspired', 'conspir'], ['conspiring', 'conspir'], ['constable', 'constabl'],
  ['constables', 'constabl'], ['constance', 'constanc'], ['constancy', 'constanc'], ['constant', 'constant'],
  ['knack', 'knack'], ['knackeries', 'knackeri'], ['knacks', 'knack'], ['knag', 'knag'], ['knave', 'knave'],
  ['knaves', 'knave'], ['knavish', 'knavish'], ['kneaded', 'knead'], ['kneading', 'knead'], ['knee', 'knee'],
  ['kneel', 'kneel'], ['kneeled', 'kneel'], ['kneeling', 'kneel'], ['kneels', 'kneel'], ['knees', 'knee'],
  ['knell', 'knell'], ['knelt', 'knelt'], ['knew', 'knew'], ['knick', 'knick'], ['knif', 'knif'], ['knife', 'knife'],
  ['knight', 'knight'], ['knightly', 'knight'], ['knights', 'knight'], ['knit', 'knit'], ['knits', 'knit'],
  ['knitted', 'knit'], ['knitting', 'knit'], ['knives', 'knive'], ['knob', 'knob'], ['knobs', 'knob'],
  ['knock', 'knock'], ['knocked', 'knock'], ['knocker', 'knocker'], ['knockers', 'knocker'], ['knocking', 'knock'],
  ['knocks', 'knock'], ['knopp', 'knopp'], ['knot', 'knot'], ['knots', 'knot'],
];

describe('englishSnowballStem (Porter2)', () => {
  it('stems the Snowball sample vocabulary as its published output', () => {
    for (const [word, stem] of SAMPLES) expect(englishSnowballStem(word), word).toBe(stem);
  });

  it('follows the algorithm\'s special cases: exceptions, short words, y, the gener/commun/arsen regions', () => {
    const cases: Array<[string, string]> = [
      ['skies', 'sky'], ['dying', 'die'], ['news', 'news'], ['ugly', 'ugli'], ['inning', 'inning'], ['proceed', 'proceed'],
      ['hoping', 'hope'], ['hopping', 'hop'], ['cried', 'cri'], ['ties', 'tie'], ['gas', 'gas'], ['gaps', 'gap'],
      ['kiwis', 'kiwi'], ['happy', 'happi'], ['say', 'say'], ['agreed', 'agre'], ['generously', 'generous'],
      ['communism', 'communism'], ['arsenal', 'arsenal'], ['quickly', 'quick'], ['by', 'by'], ["dog's", 'dog'],
    ];
    for (const [word, stem] of cases) expect(englishSnowballStem(word), word).toBe(stem);
  });
});
