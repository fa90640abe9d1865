/**
 * KStem (Bob Krovetz's stemmer), as Lucene's KStemmer/KStemFilter run it: Elasticsearch's `kstem`
 * token filter and the `stemmer` filter's `light_english` language.
 *
 * KStem removes inflectional and some derivational endings only when the result is a word of its
 * dictionary (or the ending is productive enough to accept anyway), so it stems less than Porter
 * and returns real words. The dictionary — Lucene's KStemData1..8 plus the exception tables in
 * KStemmer.java — is in kstem-data.json, extracted from the Lucene 8.7 jar by
 * tools/lucene-golden/run.sh. The algorithm below is KStemmer's, step for step: it edits a char
 * buffer whose length can be cut and grown back (Lucene's OpenStringBuilder), and some steps rely
 * on characters past the current length surviving, so the buffer is emulated rather than replaced
 * by string slicing.
 *
 * Derived from Apache Lucene (Apache License 2.0), which derives KStemmer from the CIIR University
 * of Massachusetts Amherst version: Copyright © 2003, Center for Intelligent Information Retrieval,
 * University of Massachusetts, Amherst. All rights reserved. Redistribution and use in source and
 * binary forms, with or without modification, are permitted provided that the conditions of its
 * license are met (its full text is in NOTICE); THIS SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY.
 */
import data from './kstem-data.json' with { type: 'json' };

/** Lucene `KStemmer.MaxWordLen`: longer words are not stemmed. */
const MAX_WORD_LEN = 50;

interface DictEntry {
  readonly exception: boolean;
  /** The stem this word maps to directly; null: the word is its own root. */
  readonly root: string | null;
}

const DEFAULT_ENTRY: DictEntry = { exception: false, root: null };

function buildDictionary(): Map<string, DictEntry> {
  const d = new Map<string, DictEntry>();
  for (const w of data.exceptionWords) d.set(w, { exception: true, root: w });
  for (const [w, root] of data.directConflations) d.set(w, { exception: false, root });
  for (const [w, root] of data.countryNationality) d.set(w, { exception: false, root });
  const plain = [
    data.KStemData1, data.KStemData2, data.KStemData3, data.KStemData4, data.KStemData5, data.KStemData6,
    data.KStemData7, data.KStemData8, data.supplementDict, data.properNouns,
  ];
  for (const list of plain) for (const w of list) d.set(w, DEFAULT_ENTRY);
  return d;
}

let built: Map<string, DictEntry> | null = null;

/** Built on first use: ~40k entries no thread should hold unless an analyzer stems with KStem. */
function dictionary(): Map<string, DictEntry> {
  return (built ??= buildDictionary());
}

/** One stemming run: KStemmer's fields (`word`, `j`, `k`, `matchedEntry`). */
class KStemmer {
  /** Characters of the word buffer; entries past `len` keep what was last written there. */
  private readonly buf: string[] = [];
  private len = 0;
  /** Index of the final letter of the stem (within the word). */
  private j = 0;
  /** Index of the final letter of the word. */
  private k = 0;
  private matchedEntry: DictEntry | null = null;

  constructor(term: string) {
    for (const ch of term) this.buf[this.len++] = ch;
    this.k = this.len - 1;
  }

  word(): string {
    return this.buf.slice(0, this.len).join('');
  }

  // ---- OpenStringBuilder ----
  private setLength(n: number): void {
    this.len = n;
  }
  private charAt(i: number): string {
    return this.buf[i];
  }
  private setCharAt(i: number, ch: string): void {
    this.buf[i] = ch;
  }
  private write(ch: string): void {
    this.buf[this.len++] = ch;
  }
  private append(s: string): void {
    for (const ch of s) this.buf[this.len++] = ch;
  }

  private isCons(index: number): boolean {
    const ch = this.charAt(index);
    if (ch === 'a' || ch === 'e' || ch === 'i' || ch === 'o' || ch === 'u') return false;
    if (ch !== 'y' || index === 0) return true;
    return !this.isCons(index - 1);
  }

  private isVowel(index: number): boolean {
    return !this.isCons(index);
  }

  private stemLength(): number {
    return this.j + 1;
  }

  /** Whether the word ends in `s`; sets `j` to the index before the suffix. */
  private endsIn(s: string): boolean {
    const n = s.length;
    if (n > this.k) return false;
    const r = this.len - n;
    this.j = this.k;
    for (let i = 0; i < n; i++) {
      if (s[i] !== this.charAt(r + i)) return false;
    }
    this.j = r - 1;
    return true;
  }

  private wordInDict(): DictEntry | null {
    if (this.matchedEntry !== null) return this.matchedEntry;
    const e = dictionary().get(this.word()) ?? null;
    if (e !== null && !e.exception) this.matchedEntry = e; // only cache if it's not an exception
    return e;
  }

  private lookup(): boolean {
    this.matchedEntry = dictionary().get(this.word()) ?? null;
    return this.matchedEntry !== null;
  }

  private matched(): boolean {
    return this.matchedEntry !== null;
  }

  private setSuffix(s: string): void {
    this.setLength(this.j + 1);
    this.append(s);
    this.k = this.j + s.length;
  }

  private doubleC(i: number): boolean {
    if (i < 1) return false;
    if (this.charAt(i) !== this.charAt(i - 1)) return false;
    return this.isCons(i);
  }

  private vowelInStem(): boolean {
    for (let i = 0; i < this.stemLength(); i++) if (this.isVowel(i)) return true;
    return false;
  }

  /** Plurals to singular, `-ies` to `-y`. */
  private plural(): void {
    if (this.charAt(this.k) !== 's') return;
    if (this.endsIn('ies')) {
      this.setLength(this.j + 3);
      this.k--;
      if (this.lookup()) return; // calories -> calorie
      this.k++;
      this.write('s');
      this.setSuffix('y');
      this.lookup();
    } else if (this.endsIn('es')) {
      // try just removing the "s"
      this.setLength(this.j + 2);
      this.k--;
      // no exception check here: `aides' -> `aide', but `crosses' must not become `crosse'
      const tryE = this.j > 0 && !(this.charAt(this.j) === 's' && this.charAt(this.j - 1) === 's');
      if (tryE && this.lookup()) return;
      // try removing the "es"
      this.setLength(this.j + 1);
      this.k--;
      if (this.lookup()) return;
      // the default is to retain the "e"
      this.write('e');
      this.k++;
      if (!tryE) this.lookup();
    } else if (this.len > 3 && this.charAt(this.k - 1) !== 's' && !this.endsIn('ous')) {
      // unless the word ends in "ous" or a double "s", remove the final "s"
      this.setLength(this.k);
      this.k--;
      this.lookup();
    }
  }

  /** Past tense `-ed` to present, `-ied` to `-y`. */
  private pastTense(): void {
    if (this.len <= 4) return; // short words are mapped directly (fled -> fl is wrong)
    if (this.endsIn('ied')) {
      this.setLength(this.j + 3);
      this.k--;
      if (this.lookup()) return; // died -> die
      this.k++;
      this.write('d');
      this.setSuffix('y');
      this.lookup();
      return;
    }
    // vowelInStem() keeps acronyms unstemmed
    if (this.endsIn('ed') && this.vowelInStem()) {
      // see if the root ends in `e'
      this.setLength(this.j + 2);
      this.k = this.j + 1;
      const entry = this.wordInDict();
      if (entry !== null && !entry.exception) return;
      // try removing the "ed"
      this.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) return;
      // try removing a doubled consonant; by default leave it doubled (backfilled -> backfill)
      if (this.doubleC(this.k)) {
        this.setLength(this.k);
        this.k--;
        if (this.lookup()) return;
        this.write(this.charAt(this.k));
        this.k++;
        this.lookup();
        return;
      }
      // an `un-' prefix: leave the word alone
      if (this.charAt(0) === 'u' && this.charAt(1) === 'n') {
        this.write('e');
        this.write('d');
        this.k += 2;
        return;
      }
      // prefer to end with an `e' (microcoded -> microcode)
      this.setLength(this.j + 1);
      this.write('e');
      this.k = this.j + 1;
    }
  }

  /** `-ing` endings. */
  private aspect(): void {
    if (this.len <= 5) return; // short words are mapped directly (thing -> the is wrong)
    if (this.endsIn('ing') && this.vowelInStem()) {
      // try adding an `e' to the stem
      this.setCharAt(this.j + 1, 'e');
      this.setLength(this.j + 2);
      this.k = this.j + 1;
      const entry = this.wordInDict();
      if (entry !== null && !entry.exception) return;
      // remove the `e' again (`ing' is gone too)
      this.setLength(this.k);
      this.k--;
      if (this.lookup()) return;
      // remove a doubled consonant if that makes a word; else keep it (fingerspelling -> fingerspell)
      if (this.doubleC(this.k)) {
        this.k--;
        this.setLength(this.k + 1);
        if (this.lookup()) return;
        this.write(this.charAt(this.k));
        this.k++;
        this.lookup();
        return;
      }
      // default: add an `e' unless the stem ends in two consonants (microcoding -> microcode, footstamping -> footstamp)
      if (this.j > 0 && this.isCons(this.j) && this.isCons(this.j - 1)) {
        this.k = this.j;
        this.setLength(this.k + 1);
        return;
      }
      this.setLength(this.j + 1);
      this.write('e');
      this.k = this.j + 1;
    }
  }

  /** `-ity`; `-ability`/`-ibility` become `-ble`, `-ality` loses `-ity`, `-ivity` becomes `-ive`. */
  private ityEndings(): void {
    const oldK = this.k;
    if (!this.endsIn('ity')) return;
    this.setLength(this.j + 1); // try just removing -ity
    this.k = this.j;
    if (this.lookup()) return;
    this.write('e'); // try removing -ity and adding -e
    this.k = this.j + 1;
    if (this.lookup()) return;
    this.setCharAt(this.j + 1, 'i');
    this.append('ty');
    this.k = oldK;
    const j = this.j;
    if (j > 0 && this.charAt(j - 1) === 'i' && this.charAt(j) === 'l') {
      this.setLength(j - 1);
      this.append('le'); // -ble
      this.k = j;
      this.lookup();
      return;
    }
    if (j > 0 && this.charAt(j - 1) === 'i' && this.charAt(j) === 'v') {
      this.setLength(j + 1);
      this.write('e'); // -ive
      this.k = j + 1;
      this.lookup();
      return;
    }
    if (j > 0 && this.charAt(j - 1) === 'a' && this.charAt(j) === 'l') {
      this.setLength(j + 1);
      this.k = j;
      this.lookup();
      return;
    }
    // the variant if it is a word (immunity -> immune, not capacity -> capac); else remove -ity
    if (this.lookup()) return;
    this.setLength(j + 1);
    this.k = j;
  }

  /** `-ence` and `-ance`. */
  private nceEndings(): void {
    const oldK = this.k;
    if (!this.endsIn('nce')) return;
    const ch = this.charAt(this.j);
    if (ch !== 'e' && ch !== 'a') return;
    this.setLength(this.j);
    this.write('e'); // adherance -> adhere
    this.k = this.j;
    if (this.lookup()) return;
    this.setLength(this.j); // disappearance -> disappear
    this.k = this.j - 1;
    if (this.lookup()) return;
    this.write(ch); // restore the original ending
    this.append('nce');
    this.k = oldK;
  }

  /** `-ness`: productive, accepted. */
  private nessEndings(): void {
    if (!this.endsIn('ness')) return;
    this.setLength(this.j + 1);
    this.k = this.j;
    if (this.charAt(this.j) === 'i') this.setCharAt(this.j, 'y');
    this.lookup();
  }

  /** `-ism`: productive, accepted. */
  private ismEndings(): void {
    if (!this.endsIn('ism')) return;
    this.setLength(this.j + 1);
    this.k = this.j;
    this.lookup();
  }

  private mentEndings(): void {
    const oldK = this.k;
    if (!this.endsIn('ment')) return;
    this.setLength(this.j + 1);
    this.k = this.j;
    if (this.lookup()) return;
    this.append('ment');
    this.k = oldK;
  }

  private izeEndings(): void {
    const oldK = this.k;
    if (!this.endsIn('ize')) return;
    const j = this.j;
    this.setLength(j + 1); // try removing -ize entirely
    this.k = j;
    if (this.lookup()) return;
    this.write('i');
    if (this.doubleC(j)) {
      // allow for a doubled consonant
      this.setLength(j);
      this.k = j - 1;
      if (this.lookup()) return;
      this.write(this.charAt(j - 1));
    }
    this.setLength(j + 1);
    this.write('e'); // try removing -ize and adding -e
    this.k = j + 1;
    if (this.lookup()) return;
    this.setLength(j + 1);
    this.append('ize');
    this.k = oldK;
  }

  /** `-ency` and `-ancy`. */
  private ncyEndings(): void {
    if (!this.endsIn('ncy')) return;
    const j = this.j;
    if (this.charAt(j) !== 'e' && this.charAt(j) !== 'a') return;
    this.setCharAt(j + 2, 't'); // -ncy to -nt
    this.setLength(j + 3);
    this.k = j + 2;
    if (this.lookup()) return;
    this.setCharAt(j + 2, 'c'); // the default is -nce
    this.write('e');
    this.k = j + 3;
    this.lookup();
  }

  /** `-able` and `-ible`. */
  private bleEndings(): void {
    const oldK = this.k;
    if (!this.endsIn('ble')) return;
    const j = this.j;
    const ch = this.charAt(j);
    if (ch !== 'a' && ch !== 'i') return;
    this.setLength(j); // try just removing the ending
    this.k = j - 1;
    if (this.lookup()) return;
    if (this.doubleC(this.k)) {
      // allow for a doubled consonant
      this.setLength(this.k);
      this.k--;
      if (this.lookup()) return;
      this.k++;
      this.write(this.charAt(this.k - 1));
    }
    this.setLength(j);
    this.write('e'); // -a/ible to -e
    this.k = j;
    if (this.lookup()) return;
    this.setLength(j);
    this.append('ate'); // compensable -> compensate
    this.k = j + 2;
    if (this.lookup()) return;
    this.setLength(j);
    this.write(ch); // restore
    this.append('ble');
    this.k = oldK;
  }

  /** `-ic`, the one ending that is tried *expanded* (-ic -> -ical: canonic -> canonical). */
  private icEndings(): void {
    if (!this.endsIn('ic')) return;
    const j = this.j;
    this.setLength(j + 3);
    this.append('al');
    this.k = j + 4;
    if (this.lookup()) return;
    this.setCharAt(j + 1, 'y'); // -ic to -y
    this.setLength(j + 2);
    this.k = j + 1;
    if (this.lookup()) return;
    this.setCharAt(j + 1, 'e'); // -ic to -e
    if (this.lookup()) return;
    this.setLength(j + 1); // remove -ic
    this.k = j;
    if (this.lookup()) return;
    this.append('ic'); // restore
    this.k = j + 2;
  }

  /** `-ion`, `-ition`, `-ation`, `-ization` (always to -ize), `-ication`. */
  private ionEndings(): void {
    const oldK = this.k;
    if (!this.endsIn('ion')) return;
    if (this.endsIn('ization')) {
      this.setLength(this.j + 3);
      this.write('e');
      this.k = this.j + 3;
      this.lookup();
      return;
    }
    if (this.endsIn('ition')) {
      this.setLength(this.j + 1);
      this.write('e'); // definition -> define
      this.k = this.j + 1;
      if (this.lookup()) return;
      this.setLength(this.j + 1);
      this.append('ition');
      this.k = oldK;
    } else if (this.endsIn('ation')) {
      this.setLength(this.j + 3);
      this.write('e'); // elimination -> eliminate
      this.k = this.j + 3;
      if (this.lookup()) return;
      this.setLength(this.j + 1);
      this.write('e');
      this.k = this.j + 1;
      if (this.lookup()) return;
      this.setLength(this.j + 1); // resignation -> resign
      this.k = this.j;
      if (this.lookup()) return;
      this.setLength(this.j + 1);
      this.append('ation');
      this.k = oldK;
    }
    // -ication after -ation (complication -> complicate, not comply)
    if (this.endsIn('ication')) {
      this.setLength(this.j + 1);
      this.write('y'); // amplification -> amplify
      this.k = this.j + 1;
      if (this.lookup()) return;
      this.setLength(this.j + 1);
      this.append('ication');
      this.k = oldK;
    }
    this.j = this.k - 3;
    this.setLength(this.j + 1);
    this.write('e'); // remove -ion and add `e'
    this.k = this.j + 1;
    if (this.lookup()) return;
    this.setLength(this.j + 1);
    this.k = this.j;
    if (this.lookup()) return;
    this.setLength(this.j + 1);
    this.append('ion');
    this.k = oldK;
  }

  /** `-er`, `-or`, `-ier`, `-eer`; `-izer` always to `-ize`. */
  private erAndOrEndings(): void {
    const oldK = this.k;
    if (this.charAt(this.k) !== 'r') return;
    if (this.endsIn('izer')) {
      this.setLength(this.j + 4);
      this.k = this.j + 3;
      this.lookup();
      return;
    }
    if (this.endsIn('er') || this.endsIn('or')) {
      const j = this.j;
      const ch = this.charAt(j + 1);
      if (this.doubleC(j)) {
        this.setLength(j);
        this.k = j - 1;
        if (this.lookup()) return;
        this.write(this.charAt(j - 1)); // restore the doubled consonant
      }
      if (this.charAt(j) === 'i') {
        // -ier
        this.setCharAt(j, 'y');
        this.setLength(j + 1);
        this.k = j;
        if (this.lookup()) return;
        this.setCharAt(j, 'i');
        this.write('e');
      }
      if (this.charAt(j) === 'e') {
        // -eer
        this.setLength(j);
        this.k = j - 1;
        if (this.lookup()) return;
        this.write('e');
      }
      this.setLength(j + 2); // remove the -r
      this.k = j + 1;
      if (this.lookup()) return;
      this.setLength(j + 1); // remove -er/-or
      this.k = j;
      if (this.lookup()) return;
      this.write('e'); // -or to -e
      this.k = j + 1;
      if (this.lookup()) return;
      this.setLength(j + 1);
      this.write(ch);
      this.write('r'); // restore
      this.k = oldK;
    }
  }

  /** `-ly`; `-ally` always to `-al` (finished by alEndings), `-ably` to `-able`. */
  private lyEndings(): void {
    const oldK = this.k;
    if (!this.endsIn('ly')) return;
    const j = this.j;
    this.setCharAt(j + 2, 'e'); // -ly to -le
    if (this.lookup()) return;
    this.setCharAt(j + 2, 'y');
    this.setLength(j + 1); // remove -ly
    this.k = j;
    if (this.lookup()) return;
    if (j > 0 && this.charAt(j - 1) === 'a' && this.charAt(j) === 'l') return; // -ally -> -al
    this.append('ly');
    this.k = oldK;
    if (j > 0 && this.charAt(j - 1) === 'a' && this.charAt(j) === 'b') {
      this.setCharAt(j + 2, 'e'); // -ably -> -able
      this.k = j + 2;
      return;
    }
    if (this.charAt(j) === 'i') {
      // militarily -> military
      this.setLength(j);
      this.write('y');
      this.k = j;
      if (this.lookup()) return;
      this.setLength(j);
      this.append('ily');
      this.k = oldK;
    }
    this.setLength(j + 1); // the default is to remove -ly
    this.k = j;
  }

  /** `-al`, finishing some endings of the previous steps. */
  private alEndings(): void {
    const oldK = this.k;
    if (this.len < 4) return;
    if (!this.endsIn('al')) return;
    const j = this.j;
    this.setLength(j + 1);
    this.k = j;
    if (this.lookup()) return; // remove -al
    if (this.doubleC(j)) {
      this.setLength(j);
      this.k = j - 1;
      if (this.lookup()) return;
      this.write(this.charAt(j - 1));
    }
    this.setLength(j + 1);
    this.write('e'); // -al to -e
    this.k = j + 1;
    if (this.lookup()) return;
    this.setLength(j + 1);
    this.append('um'); // optimal -> optimum
    this.k = j + 2;
    if (this.lookup()) return;
    this.setLength(j + 1);
    this.append('al'); // restore
    this.k = oldK;
    if (j > 0 && this.charAt(j - 1) === 'i' && this.charAt(j) === 'c') {
      this.setLength(j - 1); // remove -ical
      this.k = j - 2;
      if (this.lookup()) return;
      this.setLength(j - 1);
      this.write('y'); // bibliographical -> bibliography
      this.k = j - 1;
      if (this.lookup()) return;
      this.setLength(j - 1);
      this.append('ic'); // the default is -ic
      this.k = j;
      this.lookup();
      return;
    }
    if (this.charAt(j) === 'i') {
      // sometimes -ial is removed
      this.setLength(j);
      this.k = j - 1;
      if (this.lookup()) return;
      this.append('ial');
      this.k = oldK;
      this.lookup();
    }
  }

  /** `-ive`; some `-ative` normalised, `-ive` tried as `-ion` (injunctive -> injunction). */
  private iveEndings(): void {
    const oldK = this.k;
    if (!this.endsIn('ive')) return;
    const j = this.j;
    this.setLength(j + 1); // remove -ive
    this.k = j;
    if (this.lookup()) return;
    this.write('e'); // -ive to -e
    this.k = j + 1;
    if (this.lookup()) return;
    this.setLength(j + 1);
    this.append('ive');
    if (j > 0 && this.charAt(j - 1) === 'a' && this.charAt(j) === 't') {
      this.setCharAt(j - 1, 'e'); // determinative -> determine
      this.setLength(j);
      this.k = j - 1;
      if (this.lookup()) return;
      this.setLength(j - 1); // remove -ative
      if (this.lookup()) return;
      this.append('ative');
      this.k = oldK;
    }
    this.setCharAt(j + 2, 'o'); // -ive to -ion
    this.setCharAt(j + 3, 'n');
    if (this.lookup()) return;
    this.setCharAt(j + 2, 'v'); // restore
    this.setCharAt(j + 3, 'e');
    this.k = oldK;
  }

  /** KStemmer's main loop: the first step that lands on a dictionary word ends it. Returns the stem. */
  run(): string {
    const steps = [
      () => this.plural(), () => this.pastTense(), () => this.aspect(), () => this.ityEndings(), () => this.nessEndings(),
      () => this.ionEndings(), () => this.erAndOrEndings(), () => this.lyEndings(), () => this.alEndings(),
      () => this.iveEndings(), () => this.izeEndings(), () => this.mentEndings(), () => this.bleEndings(),
      () => this.ismEndings(), () => this.icEndings(), () => this.ncyEndings(), () => this.nceEndings(),
    ];
    for (let s = 0; s < steps.length; s++) {
      // Lucene calls wordInDict() before iveEndings; with nothing matched it only looks the word up
      // (and, for a non-exception, remembers the match, which then ends the loop).
      if (s === 9) this.wordInDict();
      steps[s]();
      if (this.matched()) break;
    }
    // a direct mapping (Italian -> Italy), or the word as it now stands
    const entry = this.matchedEntry;
    return entry !== null && entry.root !== null ? entry.root : this.word();
  }
}

const isLowerAsciiLetter = (c: number): boolean => c >= 0x61 && c <= 0x7a;

/**
 * Lucene `KStemmer.stem`: the stem of a lower-case term, or the term itself when KStem leaves it
 * alone (2 characters or fewer, 50 or more, or anything but a–z: KStem expects lower-cased input).
 */
export function kstem(term: string): string {
  const len = term.length;
  if (len - 1 <= 1 || len - 1 >= MAX_WORD_LEN - 1) return term;
  const entry = dictionary().get(term);
  if (entry !== undefined) return entry.root ?? term;
  for (let i = 0; i < len; i++) if (!isLowerAsciiLetter(term.charCodeAt(i))) return term;
  return new KStemmer(term).run();
}
