/**
 * Lucene's PorterStemmer (org.apache.lucene.analysis.en.PorterStemmer, "Release 3" of Martin
 * Porter's Java version with Brian Goetz's allocation-free changes), ported line for line, and
 * PorterStemFilter on top of it.
 *
 * Why a port and not the npm `stemmer` package: Lucene's variant is not the 1980 paper verbatim
 * (e.g. step 3 maps `-logi` → `-log` and `-bli` → `-ble`, words of two letters or fewer are never
 * stemmed, `y` after a consonant counts as a vowel recursively), and index compatibility with
 * Elasticsearch needs exactly Lucene's output. The step numbering and helper names follow
 * Lucene's file so the two can be compared side by side.
 *
 * Like Lucene's, the stemmer works on UTF-16 units and expects lowercased input; anything other
 * than `a e i o u` (and `y` in vowel position) counts as a consonant, non-ASCII letters included.
 * One stemmer (and its working buffer) serves the whole thread, as Lucene keeps one per filter
 * instance: stemming allocates only the result string. State lives in fields of a class, like
 * Lucene's, because V8 reads object fields faster than module-level `let` bindings.
 */
import type { TokenFilter } from './token-stream.js';

const CH_A = 0x61;
const CH_E = 0x65;
const CH_I = 0x69;
const CH_O = 0x6f;
const CH_U = 0x75;
const CH_Y = 0x79;
const CH_S = 0x73;
const CH_L = 0x6c;
const CH_Z = 0x7a;
const CH_W = 0x77;
const CH_X = 0x78;
const CH_C = 0x63;
const CH_G = 0x67;
const CH_N = 0x6e;
const CH_T = 0x74;
const CH_V = 0x76;

class PorterStemmer {
  /** The word being stemmed; b[k0..k] is the current stem. Slack: setto may write past k. */
  private b = new Uint16Array(64);
  private j = 0;
  private k = 0;
  private readonly k0 = 0;
  private dirty = false;

  /* cons(i) is true <=> b[i] is a consonant. */
  private cons(i: number): boolean {
    switch (this.b[i]) {
      case CH_A:
      case CH_E:
      case CH_I:
      case CH_O:
      case CH_U:
        return false;
      case CH_Y:
        return i === this.k0 ? true : !this.cons(i - 1);
      default:
        return true;
    }
  }

  /* m() measures the number of consonant sequences between k0 and j:
       <c><v> gives 0, <c>vc<v> gives 1, <c>vcvc<v> gives 2, … */
  private m(): number {
    let n = 0;
    let i = this.k0;
    while (true) {
      if (i > this.j) return n;
      if (!this.cons(i)) break;
      i++;
    }
    i++;
    while (true) {
      while (true) {
        if (i > this.j) return n;
        if (this.cons(i)) break;
        i++;
      }
      i++;
      n++;
      while (true) {
        if (i > this.j) return n;
        if (!this.cons(i)) break;
        i++;
      }
      i++;
    }
  }

  /* vowelinstem() is true <=> k0,...j contains a vowel */
  private vowelinstem(): boolean {
    for (let i = this.k0; i <= this.j; i++) if (!this.cons(i)) return true;
    return false;
  }

  /* doublec(j) is true <=> j,(j-1) contain a double consonant. */
  private doublec(jj: number): boolean {
    if (jj < this.k0 + 1) return false;
    if (this.b[jj] !== this.b[jj - 1]) return false;
    return this.cons(jj);
  }

  /* cvc(i) is true <=> i-2,i-1,i has the form consonant - vowel - consonant and the second c is not
     w, x or y: restores an e at the end of a short word (cav(e), lov(e), hop(e), but snow, box, tray). */
  private cvc(i: number): boolean {
    if (i < this.k0 + 2 || !this.cons(i) || this.cons(i - 1) || !this.cons(i - 2)) return false;
    const ch = this.b[i];
    return !(ch === CH_W || ch === CH_X || ch === CH_Y);
  }

  /* ends(s) is true <=> k0,...k ends with s; sets j to the end of the remaining stem. */
  private ends(s: string): boolean {
    const l = s.length;
    const o = this.k - l + 1;
    if (o < this.k0) return false;
    for (let i = 0; i < l; i++) if (this.b[o + i] !== s.charCodeAt(i)) return false;
    this.j = this.k - l;
    return true;
  }

  /* setto(s) sets (j+1),...k to the characters in the string s, readjusting k. */
  private setto(s: string): void {
    const l = s.length;
    const o = this.j + 1;
    for (let i = 0; i < l; i++) this.b[o + i] = s.charCodeAt(i);
    this.k = this.j + l;
    this.dirty = true;
  }

  private r(s: string): void {
    if (this.m() > 0) this.setto(s);
  }

  /* step1() gets rid of plurals and -ed or -ing. */
  private step1(): void {
    if (this.b[this.k] === CH_S) {
      if (this.ends('sses')) this.k -= 2;
      else if (this.ends('ies')) this.setto('i');
      else if (this.b[this.k - 1] !== CH_S) this.k--;
    }
    if (this.ends('eed')) {
      if (this.m() > 0) this.k--;
    } else if ((this.ends('ed') || this.ends('ing')) && this.vowelinstem()) {
      this.k = this.j;
      if (this.ends('at')) this.setto('ate');
      else if (this.ends('bl')) this.setto('ble');
      else if (this.ends('iz')) this.setto('ize');
      else if (this.doublec(this.k)) {
        const ch = this.b[this.k--];
        if (ch === CH_L || ch === CH_S || ch === CH_Z) this.k++;
      } else if (this.m() === 1 && this.cvc(this.k)) this.setto('e');
    }
  }

  /* step2() turns terminal y to i when there is another vowel in the stem. */
  private step2(): void {
    if (this.ends('y') && this.vowelinstem()) {
      this.b[this.k] = CH_I;
      this.dirty = true;
    }
  }

  /* step3() maps double suffices to single ones: -ization (= -ize plus -ation) maps to -ize etc.
     The string before the suffix must give this.m() > 0. */
  private step3(): void {
    if (this.k === this.k0) return; /* For Bug 1 */
    switch (this.b[this.k - 1]) {
      case CH_A:
        if (this.ends('ational')) { this.r('ate'); break; }
        if (this.ends('tional')) { this.r('tion'); break; }
        break;
      case CH_C:
        if (this.ends('enci')) { this.r('ence'); break; }
        if (this.ends('anci')) { this.r('ance'); break; }
        break;
      case CH_E:
        if (this.ends('izer')) { this.r('ize'); break; }
        break;
      case CH_L:
        if (this.ends('bli')) { this.r('ble'); break; }
        if (this.ends('alli')) { this.r('al'); break; }
        if (this.ends('entli')) { this.r('ent'); break; }
        if (this.ends('eli')) { this.r('e'); break; }
        if (this.ends('ousli')) { this.r('ous'); break; }
        break;
      case CH_O:
        if (this.ends('ization')) { this.r('ize'); break; }
        if (this.ends('ation')) { this.r('ate'); break; }
        if (this.ends('ator')) { this.r('ate'); break; }
        break;
      case CH_S:
        if (this.ends('alism')) { this.r('al'); break; }
        if (this.ends('iveness')) { this.r('ive'); break; }
        if (this.ends('fulness')) { this.r('ful'); break; }
        if (this.ends('ousness')) { this.r('ous'); break; }
        break;
      case CH_T:
        if (this.ends('aliti')) { this.r('al'); break; }
        if (this.ends('iviti')) { this.r('ive'); break; }
        if (this.ends('biliti')) { this.r('ble'); break; }
        break;
      case CH_G:
        if (this.ends('logi')) { this.r('log'); break; }
    }
  }

  /* step4() deals with -ic-, -full, -ness etc. similar strategy to step3. */
  private step4(): void {
    switch (this.b[this.k]) {
      case CH_E:
        if (this.ends('icate')) { this.r('ic'); break; }
        if (this.ends('ative')) { this.r(''); break; }
        if (this.ends('alize')) { this.r('al'); break; }
        break;
      case CH_I:
        if (this.ends('iciti')) { this.r('ic'); break; }
        break;
      case CH_L:
        if (this.ends('ical')) { this.r('ic'); break; }
        if (this.ends('ful')) { this.r(''); break; }
        break;
      case CH_S:
        if (this.ends('ness')) { this.r(''); break; }
        break;
    }
  }

  /* step5() takes off -ant, -ence etc., in context <c>vcvc<v>. */
  private step5(): void {
    if (this.k === this.k0) return; /* for Bug 1 */
    switch (this.b[this.k - 1]) {
      case CH_A:
        if (this.ends('al')) break;
        return;
      case CH_C:
        if (this.ends('ance')) break;
        if (this.ends('ence')) break;
        return;
      case CH_E:
        if (this.ends('er')) break;
        return;
      case CH_I:
        if (this.ends('ic')) break;
        return;
      case CH_L:
        if (this.ends('able')) break;
        if (this.ends('ible')) break;
        return;
      case CH_N:
        if (this.ends('ant')) break;
        if (this.ends('ement')) break;
        if (this.ends('ment')) break;
        /* element etc. not stripped before the m */
        if (this.ends('ent')) break;
        return;
      case CH_O:
        if (this.ends('ion') && this.j >= 0 && (this.b[this.j] === CH_S || this.b[this.j] === CH_T)) break;
        /* j >= 0 fixes Bug 2 */
        if (this.ends('ou')) break;
        return;
      /* takes care of -ous */
      case CH_S:
        if (this.ends('ism')) break;
        return;
      case CH_T:
        if (this.ends('ate')) break;
        if (this.ends('iti')) break;
        return;
      case CH_U:
        if (this.ends('ous')) break;
        return;
      case CH_V:
        if (this.ends('ive')) break;
        return;
      case CH_Z:
        if (this.ends('ize')) break;
        return;
      default:
        return;
    }
    if (this.m() > 1) this.k = this.j;
  }

  /* step6() removes a final -e if m() > 1. */
  private step6(): void {
    this.j = this.k;
    if (this.b[this.k] === CH_E) {
      const a = this.m();
      if (a > 1 || (a === 1 && !this.cvc(this.k - 1))) this.k--;
    }
    if (this.b[this.k] === CH_L && this.doublec(this.k) && this.m() > 1) this.k--;
  }

  /** Stems one lowercased word exactly as Lucene's `PorterStemmer.stem(char[], int, int)`. */
  stem(word: string): string {
    const length = word.length;
    if (this.b.length < length + 8) this.b = new Uint16Array(length + 64);
    const b = this.b;
    for (let i = 0; i < length; i++) b[i] = word.charCodeAt(i);
    this.dirty = false;
    this.k = length - 1;
    if (this.k > this.k0 + 1) {
      this.step1();
      this.step2();
      this.step3();
      this.step4();
      this.step5();
      this.step6();
    }
    // A word is also dirty if letters were lopped off.
    if (length !== this.k + 1) this.dirty = true;
    if (!this.dirty) return word;
    // The stem shares a prefix with the word: copy that part as a substring.
    const end = this.k + 1;
    let same = 0;
    while (same < end && same < length && b[same] === word.charCodeAt(same)) same++;
    if (same === end) return same === length ? word : word.slice(0, end);
    let stem = word.slice(0, same);
    for (let i = same; i < end; i++) stem += String.fromCharCode(b[i]);
    return stem;
  }
}

const STEMMER = new PorterStemmer();

/** Stems one lowercased word exactly as Lucene's `PorterStemmer.stem(char[], int, int)`. */
export function porterStem(word: string): string {
  return STEMMER.stem(word);
}

/** Lucene `PorterStemFilter` (no keyword-marked tokens exist in these chains). */
export const porterStemFilter: TokenFilter = porterStem;
