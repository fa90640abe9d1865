/**
 * JSON text → the value `JSON.parse` returns, except that the objects at some paths are left as
 * their text (`RawJson`) for a caller that reads them straight from the text.
 *
 * Why: a `sparse_vector` value is an object of ~100 feature → weight entries whose keys differ from
 * document to document. `JSON.parse` makes each a JS object with its own hidden-class chain (or a
 * dictionary), which is about half of what indexing such a document costs and leaves V8 maps and
 * heap behind. The indexer reads those objects from the text instead (feature-text.ts).
 *
 * Only the objects on the way to a raw path (its "spine") are parsed here; every other value is
 * handed to `JSON.parse` as its slice of the text, so its result (numbers, string escapes, key
 * order, duplicate keys: the last wins) is JSON.parse's own. Anything unexpected — malformed text, a
 * root that is not an object — returns null: the caller then parses the whole text with
 * `JSON.parse`, whose errors it already reports.
 */
import { defineOwn } from './json.js';

/** An object value kept as its JSON text, text[start, end). */
export class RawJson {
  constructor(readonly text: string, readonly start: number, readonly end: number) {}

  /** The value as `JSON.parse` makes it. */
  parse(): Record<string, unknown> {
    return JSON.parse(this.text.slice(this.start, this.end)) as Record<string, unknown>;
  }

  /** `JSON.stringify` of a tree holding it writes what the text holds. */
  toJSON(): unknown {
    return this.parse();
  }
}

/** The paths whose object values stay raw, and every proper prefix of them (the objects parsed to reach them). */
export interface RawPaths {
  readonly raw: ReadonlySet<string>;
  readonly spine: ReadonlySet<string>;
}

export function rawPaths(paths: Iterable<string>): RawPaths {
  const raw = new Set(paths);
  const spine = new Set<string>();
  for (const p of raw) for (let dot = p.indexOf('.'); dot > 0; dot = p.indexOf('.', dot + 1)) spine.add(p.slice(0, dot));
  return { raw, spine };
}

/**
 * The offset of the quote closing the JSON string that opens at `open` (text.length when none):
 * the first `"` not escaped by an odd run of backslashes. indexOf jumps over the string's content.
 */
export function stringEnd(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return text.length;
}

/** JSON's whitespace (space, tab, LF, CR) from `i` on skipped. */
function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/**
 * One past the end of the value starting at `i` (not checked: JSON.parse of the slice, or the raw
 * value's reader, checks it). Strings are jumped with indexOf; containers count their brackets.
 */
export function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i) + 1;
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 0x22) j = stringEnd(text, j);
      else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return j + 1;
    }
    return text.length;
  }
  // A number or literal: up to the next delimiter.
  let j = i;
  for (; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
  }
  return j;
}

/** Thrown inside the parse when the text is not what it handles; never escapes. */
const GIVE_UP = new Error('raw-json: not handled');

class SpineParser {
  pos = 0;
  constructor(
    private readonly text: string,
    private readonly paths: RawPaths,
    /** Checks a raw object and returns its end, or -1 when it is not one it keeps raw (then it is parsed). */
    private readonly rawEnd: (text: string, start: number) => number,
  ) {}

  value(path: string): unknown {
    const text = this.text;
    const i = this.pos;
    const c = text.charCodeAt(i);
    if (c === 0x7b && this.paths.raw.has(path)) {
      const end = this.rawEnd(text, i);
      if (end >= 0) {
        this.pos = end;
        return new RawJson(text, i, end);
      }
    }
    if (c === 0x7b && this.paths.spine.has(path)) return this.object(path);
    if (c === 0x5b && (this.paths.spine.has(path) || this.paths.raw.has(path))) return this.array(path);
    const end = skipValue(text, i);
    if (end <= i) throw GIVE_UP;
    this.pos = end;
    return JSON.parse(text.slice(i, end));
  }

  object(path: string): Record<string, unknown> {
    const text = this.text;
    const obj: Record<string, unknown> = {};
    let i = skipSpace(text, this.pos + 1);
    if (text.charCodeAt(i) === 0x7d) {
      this.pos = i + 1;
      return obj;
    }
    for (;;) {
      if (text.charCodeAt(i) !== 0x22) throw GIVE_UP;
      const close = stringEnd(text, i);
      if (close >= text.length) throw GIVE_UP;
      const key = this.key(i, close);
      i = skipSpace(text, close + 1);
      if (text.charCodeAt(i) !== 0x3a) throw GIVE_UP;
      this.pos = skipSpace(text, i + 1);
      const value = this.value(path === '' ? key : `${path}.${key}`);
      if (key === '__proto__') defineOwn(obj, key, value);
      else obj[key] = value;
      i = skipSpace(text, this.pos);
      const c = text.charCodeAt(i);
      if (c === 0x7d) break;
      if (c !== 0x2c) throw GIVE_UP;
      i = skipSpace(text, i + 1);
    }
    this.pos = i + 1;
    return obj;
  }

  private array(path: string): unknown[] {
    const text = this.text;
    const out: unknown[] = [];
    let i = skipSpace(text, this.pos + 1);
    if (text.charCodeAt(i) === 0x5d) {
      this.pos = i + 1;
      return out;
    }
    for (;;) {
      this.pos = i;
      out.push(this.value(path));
      i = skipSpace(text, this.pos);
      const c = text.charCodeAt(i);
      if (c === 0x5d) break;
      if (c !== 0x2c) throw GIVE_UP;
      i = skipSpace(text, i + 1);
    }
    this.pos = i + 1;
    return out;
  }

  /** The key of the string text[open, close]: a slice, or JSON.parse's reading of its escapes. */
  private key(open: number, close: number): string {
    const text = this.text;
    for (let j = open + 1; j < close; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x5c || c < 0x20) return JSON.parse(text.slice(open, close + 1)) as string;
    }
    return text.slice(open + 1, close);
  }
}

/**
 * The root object of `text` with the objects at `paths.raw` kept raw when `rawEnd` accepts them
 * (it returns the end of the object it checked, or -1 to have it parsed), or null when the text is
 * not a JSON object this parser handles (then `JSON.parse(text)` decides, errors included).
 */
export function parseWithRawObjects(text: string, paths: RawPaths, rawEnd: (text: string, start: number) => number): Record<string, unknown> | null {
  const start = skipSpace(text, 0);
  if (text.charCodeAt(start) !== 0x7b) return null;
  const parser = new SpineParser(text, paths, rawEnd);
  parser.pos = start;
  try {
    const root = parser.object('');
    return skipSpace(text, parser.pos) === text.length ? root : null;
  } catch {
    return null;
  }
}
