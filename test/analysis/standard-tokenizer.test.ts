import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  nextStandardToken,
  standardTokenizerWithMaxLength,
  standardTokens,
} from '../../src/analysis/standard-tokenizer.js';

const terms = (text: string): string[] => standardTokens(text).map((t) => t.term);
const types = (text: string): string[] => standardTokens(text).map((t) => t.type);

// Cases from Lucene's TestStandardAnalyzer (lucene/core/src/test/org/apache/lucene/analysis/standard),
// which runs a bare StandardTokenizer (no lowercasing).
describe('StandardTokenizer on the cases of Lucene TestStandardAnalyzer', () => {
  it('finds nothing in empty text, a lone period or a space', () => {
    expect(terms('')).toEqual([]);
    expect(terms('.')).toEqual([]);
    expect(terms(' ')).toEqual([]);
  });

  it('tokenizes a long run of leading whitespace (testHugeDoc)', () => {
    expect(terms(' '.repeat(4094) + 'testing 1234')).toEqual(['testing', '1234']);
  });

  it('keeps letters and digits together (testAlphanumericSA)', () => {
    expect(terms('B2B')).toEqual(['B2B']);
    expect(terms('2B')).toEqual(['2B']);
  });

  it('splits on dashes, slashes and commas between letters (testDelimitersSA)', () => {
    expect(terms('some-dashed-phrase')).toEqual(['some', 'dashed', 'phrase']);
    expect(terms('dogs,chase,cats')).toEqual(['dogs', 'chase', 'cats']);
    expect(terms('ac/dc')).toEqual(['ac', 'dc']);
  });

  it('keeps internal apostrophes (testApostrophesSA)', () => {
    for (const word of ["O'Reilly", "you're", "she's", "Jim's", "don't", "O'Reilly's"]) {
      expect(terms(word)).toEqual([word]);
    }
  });

  it('keeps decimal numbers, model numbers and IP addresses whole (testNumericSA)', () => {
    expect(terms('21.35')).toEqual(['21.35']);
    expect(terms('R2D2 C3PO')).toEqual(['R2D2', 'C3PO']);
    expect(terms('216.239.63.104')).toEqual(['216.239.63.104']);
  });

  it('tokenizes text with numbers and various delimiters (testTextWithNumbersSA, testVariousTextSA)', () => {
    expect(terms('David has 5000 bones')).toEqual(['David', 'has', '5000', 'bones']);
    expect(terms('C embedded developers wanted')).toEqual(['C', 'embedded', 'developers', 'wanted']);
    expect(terms('foo bar FOO BAR')).toEqual(['foo', 'bar', 'FOO', 'BAR']);
    expect(terms('foo      bar .  FOO <> BAR')).toEqual(['foo', 'bar', 'FOO', 'BAR']);
    expect(terms('"QUOTED" word')).toEqual(['QUOTED', 'word']);
  });

  it('reports UTF-16 offsets with an exclusive end (testOffsets)', () => {
    const tokens = standardTokens('David has 5000 bones');
    expect(tokens.map((t) => t.startOffset)).toEqual([0, 6, 10, 15]);
    expect(tokens.map((t) => t.endOffset)).toEqual([5, 9, 14, 20]);
  });

  it('types words as <ALPHANUM> and numbers as <NUM> (testTypes)', () => {
    expect(types('David has 5000 bones')).toEqual(['<ALPHANUM>', '<ALPHANUM>', '<NUM>', '<ALPHANUM>']);
  });

  it('splits on doubled or mixed MidLetter, MidNum and MidNumLet characters (testMid)', () => {
    const cases: Array<[string, string[]]> = [
      ['A:B', ['A:B']],
      ['A::B', ['A', 'B']],
      ['1.2', ['1.2']],
      ['A.B', ['A.B']],
      ['1..2', ['1', '2']],
      ['A..B', ['A', 'B']],
      ['1,2', ['1,2']],
      ['1,,2', ['1', '2']],
      ['A.:B', ['A', 'B']],
      ['A:.B', ['A', 'B']],
      ['1,.2', ['1', '2']],
      ['1.,2', ['1', '2']],
      ['A:B_A:B', ['A:B_A:B']],
      ['A:B_A::B', ['A:B_A', 'B']],
      ['1.2_1.2', ['1.2_1.2']],
      ['A.B_A.B', ['A.B_A.B']],
      ['1.2_1..2', ['1.2_1', '2']],
      ['A.B_A..B', ['A.B_A', 'B']],
      ['1,2_1,2', ['1,2_1,2']],
      ['1,2_1,,2', ['1,2_1', '2']],
      ['C_A.:B', ['C_A', 'B']],
      ['C_A:.B', ['C_A', 'B']],
      ['3_1,.2', ['3_1', '2']],
      ['3_1.,2', ['3_1', '2']],
    ];
    for (const [text, expected] of cases) expect(terms(text), text).toEqual(expected);
  });

  it('keeps a combining mark with the letter before it (testLUCENE1545)', () => {
    expect(terms('moͤchte')).toEqual(['moͤchte']);
  });

  it('keeps combining marks on kana, ideographs and hangul (testCombiningMarks)', () => {
    expect(terms('ざ')).toEqual(['ざ']);
    expect(terms('ザ')).toEqual(['ザ']);
    expect(terms('壹゙')).toEqual(['壹゙']);
    expect(terms('아゙')).toEqual(['아゙']);
  });

  it('emits each Chinese ideograph alone and keeps full-width digits and letters (testChinese)', () => {
    expect(terms('我是中国人。 １２３４ Ｔｅｓｔｓ ')).toEqual(['我', '是', '中', '国', '人', '１２３４', 'Ｔｅｓｔｓ']);
  });

  it('emits supplementary ideographs one by one (testSupplementary)', () => {
    const tokens = standardTokens('𩬅艱鍟䇹愯瀛');
    expect(tokens.map((t) => t.term)).toEqual(['𩬅', '艱', '鍟', '䇹', '愯', '瀛']);
    expect(new Set(tokens.map((t) => t.type))).toEqual(new Set(['<IDEOGRAPHIC>']));
    expect(tokens[0]).toMatchObject({ startOffset: 0, endOffset: 2 });
  });

  it('keeps runs of Hangul together (testKorean, testKoreanSA)', () => {
    expect(standardTokens('훈민정음')).toMatchObject([{ term: '훈민정음', type: '<HANGUL>' }]);
    expect(terms('안녕하세요 한글입니다')).toEqual(['안녕하세요', '한글입니다']);
  });

  it('splits hiragana per character and keeps katakana runs (testJapanese)', () => {
    expect(standardTokens('仮名遣い カタカナ').map((t) => [t.term, t.type])).toEqual([
      ['仮', '<IDEOGRAPHIC>'],
      ['名', '<IDEOGRAPHIC>'],
      ['遣', '<IDEOGRAPHIC>'],
      ['い', '<HIRAGANA>'],
      ['カタカナ', '<KATAKANA>'],
    ]);
  });

  it('keeps Thai and Lao runs whole, as Southeast Asian tokens (testThai, testLao)', () => {
    expect(standardTokens('การที่ได้ต้องแสดงว่างานดี. แล้วเธอจะไปไหน? ๑๒๓๔').map((t) => [t.term, t.type])).toEqual([
      ['การที่ได้ต้องแสดงว่างานดี', '<SOUTHEAST_ASIAN>'],
      ['แล้วเธอจะไปไหน', '<SOUTHEAST_ASIAN>'],
      ['๑๒๓๔', '<NUM>'],
    ]);
    expect(terms('ສາທາລະນະລັດ ປະຊາທິປະໄຕ ປະຊາຊົນລາວ')).toEqual(['ສາທາລະນະລັດ', 'ປະຊາທິປະໄຕ', 'ປະຊາຊົນລາວ']);
  });

  it('tokenizes Armenian, keeping 4,600 whole (testArmenian)', () => {
    expect(
      terms(
        'Վիքիպեդիայի 13 միլիոն հոդվածները (4,600` հայերեն վիքիպեդիայում) գրվել են կամավորների կողմից ու համարյա բոլոր հոդվածները կարող է խմբագրել ցանկաց մարդ ով կարող է բացել Վիքիպեդիայի կայքը։',
      ),
    ).toEqual([
      'Վիքիպեդիայի', '13', 'միլիոն', 'հոդվածները', '4,600', 'հայերեն', 'վիքիպեդիայում', 'գրվել', 'են',
      'կամավորների', 'կողմից', 'ու', 'համարյա', 'բոլոր', 'հոդվածները', 'կարող', 'է', 'խմբագրել', 'ցանկաց',
      'մարդ', 'ով', 'կարող', 'է', 'բացել', 'Վիքիպեդիայի', 'կայքը',
    ]);
  });

  it('tokenizes Amharic (testAmharic)', () => {
    expect(terms('ዊኪፔድያ የባለ ብዙ ቋንቋ የተሟላ ትክክለኛና ነጻ መዝገበ ዕውቀት (ኢንሳይክሎፒዲያ) ነው። ማንኛውም')).toEqual([
      'ዊኪፔድያ', 'የባለ', 'ብዙ', 'ቋንቋ', 'የተሟላ', 'ትክክለኛና', 'ነጻ', 'መዝገበ', 'ዕውቀት', 'ኢንሳይክሎፒዲያ', 'ነው', 'ማንኛውም',
    ]);
  });

  it('tokenizes Arabic mixed with English (testArabic)', () => {
    expect(
      terms(
        'الفيلم الوثائقي الأول عن ويكيبيديا يسمى "الحقيقة بالأرقام: قصة ويكيبيديا" (بالإنجليزية: Truth in Numbers: The Wikipedia Story)، سيتم إطلاقه في 2008.',
      ),
    ).toEqual([
      'الفيلم', 'الوثائقي', 'الأول', 'عن', 'ويكيبيديا', 'يسمى', 'الحقيقة', 'بالأرقام', 'قصة', 'ويكيبيديا',
      'بالإنجليزية', 'Truth', 'in', 'Numbers', 'The', 'Wikipedia', 'Story', 'سيتم', 'إطلاقه', 'في', '2008',
    ]);
  });

  it('tokenizes Aramaic with its combining marks (testAramaic)', () => {
    expect(
      terms(
        'ܘܝܩܝܦܕܝܐ (ܐܢܓܠܝܐ: Wikipedia) ܗܘ ܐܝܢܣܩܠܘܦܕܝܐ ܚܐܪܬܐ ܕܐܢܛܪܢܛ ܒܠܫܢ̈ܐ ܣܓܝܐ̈ܐ܂ ܫܡܗ ܐܬܐ ܡܢ ܡ̈ܠܬܐ ܕ"ܘܝܩܝ" ܘ"ܐܝܢܣܩܠܘܦܕܝܐ"܀',
      ),
    ).toEqual([
      'ܘܝܩܝܦܕܝܐ', 'ܐܢܓܠܝܐ', 'Wikipedia', 'ܗܘ', 'ܐܝܢܣܩܠܘܦܕܝܐ', 'ܚܐܪܬܐ', 'ܕܐܢܛܪܢܛ', 'ܒܠܫܢ̈ܐ', 'ܣܓܝܐ̈ܐ', 'ܫܡܗ',
      'ܐܬܐ', 'ܡܢ', 'ܡ̈ܠܬܐ', 'ܕ', 'ܘܝܩܝ', 'ܘ', 'ܐܝܢܣܩܠܘܦܕܝܐ',
    ]);
  });

  it('tokenizes Bengali, Farsi and Greek (testBengali, testFarsi, testGreek)', () => {
    expect(
      terms(
        'এই বিশ্বকোষ পরিচালনা করে উইকিমিডিয়া ফাউন্ডেশন (একটি অলাভজনক সংস্থা)। উইকিপিডিয়ার শুরু ১৫ জানুয়ারি, ২০০১ সালে। এখন পর্যন্ত ২০০টিরও বেশী ভাষায় উইকিপিডিয়া রয়েছে।',
      ),
    ).toEqual([
      'এই', 'বিশ্বকোষ', 'পরিচালনা', 'করে', 'উইকিমিডিয়া', 'ফাউন্ডেশন', 'একটি', 'অলাভজনক', 'সংস্থা', 'উইকিপিডিয়ার',
      'শুরু', '১৫', 'জানুয়ারি', '২০০১', 'সালে', 'এখন', 'পর্যন্ত', '২০০টিরও', 'বেশী', 'ভাষায়', 'উইকিপিডিয়া', 'রয়েছে',
    ]);
    expect(terms('ویکی پدیای انگلیسی در تاریخ ۲۵ دی ۱۳۷۹ به صورت مکملی برای دانشنامهٔ تخصصی نوپدیا نوشته شد.')).toEqual([
      'ویکی', 'پدیای', 'انگلیسی', 'در', 'تاریخ', '۲۵', 'دی', '۱۳۷۹', 'به', 'صورت', 'مکملی', 'برای', 'دانشنامهٔ', 'تخصصی',
      'نوپدیا', 'نوشته', 'شد',
    ]);
    expect(
      terms(
        'Γράφεται σε συνεργασία από εθελοντές με το λογισμικό wiki, κάτι που σημαίνει ότι άρθρα μπορεί να προστεθούν ή να αλλάξουν από τον καθένα.',
      ),
    ).toEqual([
      'Γράφεται', 'σε', 'συνεργασία', 'από', 'εθελοντές', 'με', 'το', 'λογισμικό', 'wiki', 'κάτι', 'που', 'σημαίνει',
      'ότι', 'άρθρα', 'μπορεί', 'να', 'προστεθούν', 'ή', 'να', 'αλλάξουν', 'από', 'τον', 'καθένα',
    ]);
  });

  it('tokenizes Tibetan on its syllable delimiters (testTibetan)', () => {
    expect(terms('སྣོན་མཛོད་དང་ལས་འདིས་བོད་ཡིག་མི་ཉམས་གོང་འཕེལ་དུ་གཏོང་བར་ཧ་ཅང་དགེ་མཚན་མཆིས་སོ། །')).toEqual([
      'སྣོན', 'མཛོད', 'དང', 'ལས', 'འདིས', 'བོད', 'ཡིག', 'མི', 'ཉམས', 'གོང', 'འཕེལ', 'དུ', 'གཏོང', 'བར', 'ཧ', 'ཅང',
      'དགེ', 'མཚན', 'མཆིས', 'སོ',
    ]);
  });
});

describe('StandardTokenizer emoji handling (Lucene TestStandardAnalyzer emoji cases)', () => {
  const emoji = (text: string): Array<[string, string]> => standardTokens(text).map((t) => [t.term, t.type]);

  it('emits each emoji as an <EMOJI> token (testEmoji)', () => {
    expect(emoji('💩 💩💩')).toEqual([
      ['💩', '<EMOJI>'],
      ['💩', '<EMOJI>'],
      ['💩', '<EMOJI>'],
    ]);
  });

  it('keeps a ZWJ sequence whole, with or without a skin-tone modifier (testEmojiSequence…)', () => {
    expect(emoji('👩\u200d❤\ufe0f\u200d👩')).toEqual([['👩\u200d❤\ufe0f\u200d👩', '<EMOJI>']]);
    expect(emoji('👨🏼\u200d⚕\ufe0f')).toEqual([['👨🏼\u200d⚕\ufe0f', '<EMOJI>']]);
  });

  it('pairs regional indicators into flags (testEmojiRegionalIndicator)', () => {
    expect(emoji('🇺🇸🇺🇸')).toEqual([
      ['🇺🇸', '<EMOJI>'],
      ['🇺🇸', '<EMOJI>'],
    ]);
  });

  it('handles keycaps and presentation selectors (testEmojiVariationSequence)', () => {
    expect(emoji('#\ufe0f\u20e3')).toEqual([['#\ufe0f\u20e3', '<EMOJI>']]);
    expect(emoji('3\ufe0f\u20e3')).toEqual([['3\ufe0f\u20e3', '<EMOJI>']]);
    expect(emoji('#\ufe0e')).toEqual([]);
    expect(emoji('3\ufe0e')).toEqual([['3\ufe0e', '<NUM>']]);
    expect(emoji('\u2b55\ufe0e')).toEqual([['\u2b55', '<EMOJI>']]);
    expect(emoji('\u2b55\ufe0e\u200d\u2b55\ufe0e')).toEqual([
      ['\u2b55', '<EMOJI>'],
      ['\u200d\u2b55', '<EMOJI>'],
    ]);
  });

  it('keeps a tag sequence whole (testEmojiTagSequence)', () => {
    const flag = '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}';
    expect(emoji(flag)).toEqual([[flag, '<EMOJI>']]);
  });

  it('separates emoji from the letters and ideographs around them (testEmojiTokenization)', () => {
    expect(emoji('poo💩poo')).toEqual([
      ['poo', '<ALPHANUM>'],
      ['💩', '<EMOJI>'],
      ['poo', '<ALPHANUM>'],
    ]);
    expect(emoji('💩中國💩')).toEqual([
      ['💩', '<EMOJI>'],
      ['中', '<IDEOGRAPHIC>'],
      ['國', '<IDEOGRAPHIC>'],
      ['💩', '<EMOJI>'],
    ]);
  });
});

describe('StandardTokenizer word-break details', () => {
  it('joins letters and digits through apostrophes, periods and commas only when both sides allow it', () => {
    expect(terms("can't e.g. U.S.A. 3.14 1,000 abc123 foo_bar")).toEqual([
      "can't", 'e.g', 'U.S.A', '3.14', '1,000', 'abc123', 'foo_bar',
    ]);
    expect(terms('a.1 1.a a,b end. start')).toEqual(['a', '1', '1', 'a', 'a', 'b', 'end', 'start']);
  });

  it('drops tokens made of underscores alone, but keeps underscores attached to a word', () => {
    expect(terms('__ _a a_ __init__')).toEqual(['_a', 'a_', '__init__']);
  });

  it('keeps format characters such as the soft hyphen inside a word (WB4)', () => {
    expect(terms('soft\u00adhyphen')).toEqual(['soft\u00adhyphen']);
  });

  it('derives the Word_Break classes of non-ASCII punctuation and letters as UAX#29 defines them', () => {
    expect(terms('don\u2019t')).toEqual(['don\u2019t']); // RIGHT SINGLE QUOTATION MARK: MidNumLet
    expect(terms('a\u00b7b')).toEqual(['a\u00b7b']); // MIDDLE DOT: MidLetter
    expect(terms('1\u066c000 x\u066cy')).toEqual(['1\u066c000', 'x', 'y']); // ARABIC THOUSANDS SEPARATOR: MidNum
    expect(terms('a\u202fb')).toEqual(['a\u202fb']); // NARROW NO-BREAK SPACE: ExtendNumLet
    expect(terms('e\u0301t\u00e9')).toEqual(['e\u0301t\u00e9']); // combining acute: Extend
    expect(terms('\u0661\u0662\u0663')).toEqual(['\u0661\u0662\u0663']); // Arabic-Indic digits: Numeric
    expect(types('\u30b3\u30fc\u30d2\u30fc')).toEqual(['<KATAKANA>']); // U+30FC is Katakana, not Common
    expect(terms('a\u2014b a\u00a0b')).toEqual(['a', 'b', 'a', 'b']); // EM DASH, NO-BREAK SPACE: Other
  });

  it('applies the Hebrew quote rules WB7a–WB7c', () => {
    expect(terms("\u05d0'")).toEqual(["\u05d0'"]);
    expect(terms('\u05d0"\u05d1')).toEqual(['\u05d0"\u05d1']);
    expect(terms('\u05d0"')).toEqual(['\u05d0']);
    expect(terms('a"b')).toEqual(['a', 'b']);
  });

  it('treats a lone surrogate as a separator', () => {
    expect(terms('ab\ud800cd')).toEqual(['ab', 'cd']);
    expect(terms('ab\udc00')).toEqual(['ab']);
  });

  it('finds the next token from any start offset', () => {
    const out = new Int32Array(3);
    expect(nextStandardToken('hello world', 3, out)).toBe(true);
    expect([out[0], out[1]]).toEqual([3, 5]);
    expect(nextStandardToken('hello world', 5, out)).toBe(true);
    expect([out[0], out[1]]).toEqual([6, 11]);
    expect(nextStandardToken('hello world', 11, out)).toBe(false);
  });
});

describe('StandardTokenizer maximum token length', () => {
  it('cuts a run longer than 255 chars into pieces (testMaxTokenLengthDefault)', () => {
    const b255 = 'b'.repeat(255);
    expect(terms(`x ${b255} ${b255}b`)).toEqual(['x', b255, b255, 'b']);
  });

  it('honours a smaller maximum length (testMaxTokenLengthNonDefault)', () => {
    expect(standardTokens('ab cd toolong xy z', 5).map((t) => t.term)).toEqual(['ab', 'cd', 'toolo', 'ng', 'xy', 'z']);
  });

  it('cuts at the last point within the limit where the grammar matched', () => {
    // 253 letters, '.', 'x': "a…a.x" is one word but 255 chars long only with the x; "a…a." is not a
    // word, so with limit 254 the cut falls before the period.
    const text = 'a'.repeat(253) + '.x';
    expect(standardTokens(text, 255).map((t) => t.term.length)).toEqual([255]);
    expect(standardTokens(text, 254).map((t) => t.term)).toEqual(['a'.repeat(253), 'x']);
  });

  it('does not split a surrogate pair at the limit: the pair starts the next token', () => {
    const text = 'a'.repeat(254) + '𐌀'; // U+10300 OLD ITALIC LETTER A
    const tokens = standardTokens(text);
    expect(tokens.map((t) => [t.startOffset, t.endOffset])).toEqual([
      [0, 254],
      [254, 256],
    ]);
  });
});

/**
 * Intl.Segmenter implements UAX#29 word boundaries with ICU; its word-like segments must be exactly
 * our tokens on ASCII text, with one documented exception:
 * - a segment of underscores alone ("__") is word-like for ICU (rule WB13a joins ExtendNumLet, and
 *   ICU gives the run a letter status), but Lucene's grammar needs a letter or digit in every token.
 * Colon: UAX#29 makes `:` MidLetter ("A:B" is one word) and Lucene follows it (testMid); some ICU
 * versions and locales tailor the colon out of MidLetter. If the running ICU does, colons are
 * compared as plain separators (ours on the same string with `:` replaced by `!`).
 */
describe('StandardTokenizer against Intl.Segmenter on ASCII', () => {
  const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
  const icuWords = (text: string): string[] =>
    Array.from(segmenter.segment(text))
      .filter((s) => s.isWordLike === true && !/^_+$/.test(s.segment))
      .map((s) => `${s.index}:${s.segment}`);
  const icuJoinsColon = icuWords('A:B').length === 1;
  const ourWords = (text: string): string[] => {
    const compared = icuJoinsColon ? text : text.replaceAll(':', '!');
    return standardTokens(compared).map((t) => `${t.startOffset}:${text.slice(t.startOffset, t.endOffset)}`);
  };
  const char = fc.constantFrom(...'abcxyzABZ0129.,\':;_-/@!?() '.split(''));

  it('yields the same word segments as ICU for random strings of letters, digits and punctuation', () => {
    fc.assert(
      fc.property(fc.string({ unit: char, maxLength: 24 }), (text) => {
        expect(ourWords(text)).toEqual(icuWords(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('yields the same word segments as ICU for runs of word characters and single separators', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'B', '7', '_'), minLength: 1, maxLength: 4 });
    const separator = fc.constantFrom('.', ',', "'", ':', ';', ' ', '-', '..', '.,', "'.");
    fc.assert(
      fc.property(fc.array(fc.tuple(word, separator), { maxLength: 6 }), (parts) => {
        const text = parts.map(([w, s]) => w + s).join('');
        expect(ourWords(text)).toEqual(icuWords(text));
      }),
      { numRuns: 10_000 },
    );
  });

  it('agrees with ICU on the ASCII fast path and the grammar for the same English sentence', () => {
    const text = "Dr. O'Neil's lab (est. 1999) measured 3.5% of 1,024 samples; p<0.05, e.g. see fig_2.";
    expect(ourWords(text)).toEqual(icuWords(text));
  });
});

describe('standardTokenizerWithMaxLength (Elasticsearch max_token_length)', () => {
  it('cuts tokens at the configured length', () => {
    const tokenizer = standardTokenizerWithMaxLength(3);
    const out = new Int32Array(3);
    const seen: string[] = [];
    let previousEnd = -1;
    while (tokenizer.next('abcdefg hi', previousEnd, out)) {
      seen.push('abcdefg hi'.slice(out[0], out[1]));
      previousEnd = out[1];
    }
    expect(seen).toEqual(['abc', 'def', 'g', 'hi']);
  });

  it('rejects lengths outside 1 to 1048576, as Lucene does', () => {
    expect(() => standardTokenizerWithMaxLength(0)).toThrow(RangeError);
    expect(() => standardTokenizerWithMaxLength(1024 * 1024 + 1)).toThrow(RangeError);
    expect(() => standardTokenizerWithMaxLength(1024 * 1024)).not.toThrow();
  });
});
