/**
 * Char filters (Lucene's CharFilter): rewrite the text before tokenization and remember, as
 * Lucene's BaseCharFilter does, where the output's offsets drift from the input's, so token
 * offsets point into the original text.
 *
 * A correction list holds (output offset, cumulative diff) pairs in ascending output offset; an
 * output offset maps to itself plus the diff of the last pair at or before it
 * (`BaseCharFilter.correct`). Chained char filters correct through each other in reverse.
 */

export interface CharFilterResult {
  readonly text: string;
  /** Maps an offset in `text` to the filter's input; identity when nothing moved. */
  readonly correct: (offset: number) => number;
}

export interface CharFilter {
  readonly name: string;
  filter(text: string): CharFilterResult;
}

/** Lucene BaseCharFilter's offset map, appended to in ascending output offsets. */
export class OffsetCorrections {
  private readonly offsets: number[] = [];
  private readonly diffs: number[] = [];

  /** BaseCharFilter.addOffCorrectMap: a later pair at the same offset replaces the earlier one. */
  add(offset: number, cumulativeDiff: number): void {
    const n = this.offsets.length;
    if (n > 0 && this.offsets[n - 1] === offset) {
      this.diffs[n - 1] = cumulativeDiff;
      return;
    }
    this.offsets.push(offset);
    this.diffs.push(cumulativeDiff);
  }

  get lastDiff(): number {
    return this.diffs.length === 0 ? 0 : this.diffs[this.diffs.length - 1];
  }

  correct(offset: number): number {
    const offsets = this.offsets;
    let lo = 0;
    let hi = offsets.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (offsets[mid] <= offset) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found < 0 ? offset : offset + this.diffs[found];
  }

  toCorrect(): (offset: number) => number {
    return this.offsets.length === 0 ? identity : (offset) => this.correct(offset);
  }
}

export const identity = (offset: number): number => offset;

/** Runs char filters in order; the returned `correct` maps final offsets back to `text`'s. */
export function applyCharFilters(filters: readonly CharFilter[], text: string): CharFilterResult {
  let current = text;
  const corrections: Array<(offset: number) => number> = [];
  for (const f of filters) {
    const r = f.filter(current);
    current = r.text;
    if (r.correct !== identity) corrections.push(r.correct);
  }
  if (corrections.length === 0) return { text: current, correct: identity };
  return {
    text: current,
    correct: (offset) => {
      let o = offset;
      for (let i = corrections.length - 1; i >= 0; i--) o = corrections[i](o);
      return o;
    },
  };
}

/**
 * Lucene's MappingCharFilter (ES `mapping`): at each position the longest matching key is
 * replaced; offsets follow its correction rule (a shorter replacement maps the rest of the key to
 * the replacement's end, a longer one maps the extra chars to the key's last char).
 */
export function mappingCharFilter(name: string, mappings: ReadonlyMap<string, string>): CharFilter {
  let maxKey = 0;
  const firstChars = new Set<number>();
  for (const k of mappings.keys()) {
    maxKey = Math.max(maxKey, k.length);
    firstChars.add(k.charCodeAt(0));
  }
  return {
    name,
    filter(text) {
      const corrections = new OffsetCorrections();
      let out = '';
      let i = 0;
      while (i < text.length) {
        let matched = 0;
        let replacement = '';
        if (firstChars.has(text.charCodeAt(i))) {
          for (let len = Math.min(maxKey, text.length - i); len > 0; len--) {
            const r = mappings.get(text.slice(i, i + len));
            if (r !== undefined) {
              matched = len;
              replacement = r;
              break;
            }
          }
        }
        if (matched === 0) {
          out += text[i++];
          continue;
        }
        const inputOff = i + matched;
        const diff = matched - replacement.length;
        if (diff !== 0) {
          const prev = corrections.lastDiff;
          if (diff > 0) {
            corrections.add(inputOff - diff - prev, prev + diff);
          } else {
            const outputStart = inputOff - prev;
            for (let extra = 0; extra < -diff; extra++) corrections.add(outputStart + extra, prev - extra - 1);
          }
        }
        out += replacement;
        i = inputOff;
      }
      return { text: out, correct: corrections.toCorrect() };
    },
  };
}
