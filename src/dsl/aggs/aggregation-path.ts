/**
 * ES AggregationPath: the `buckets_path` syntax of pipeline aggregations. Elements are separated by
 * `>`; the last one may name a value after a `.` (`stats.avg`), any one may name a key in brackets
 * (`sale_type['hat']`, `pcts[99.9]`). `_count`, `_key` and `_bucket_count` are special names read
 * where the path is resolved.
 */
import { IllegalArgumentError, previewInput } from '../../errors/index.js';

export interface PathElement {
  readonly name: string;
  /** What followed `.` or stood in brackets; null without. */
  readonly key: string | null;
}

/**
 * Paths already parsed, by their text: a sibling pipeline under a bucket aggregation resolves its
 * path once per parent bucket (up to search.max_buckets), and a path is as long as the client
 * makes it (`>` runs are dropped, so "a>>>…>b" is valid), so each text is split once. Bounded:
 * cleared when full.
 */
const parsed = new Map<string, readonly PathElement[]>();
const MAX_PARSED_PATHS = 1024;

/** ES Strings.tokenizeToStringArray(path, ">"): trimmed tokens, empty ones dropped. */
export function parseAggregationPath(path: string): readonly PathElement[] {
  let elements = parsed.get(path);
  if (elements === undefined) {
    elements = parsePath(path);
    if (parsed.size >= MAX_PARSED_PATHS) parsed.clear();
    parsed.set(path, elements);
  }
  return elements;
}

function parsePath(path: string): readonly PathElement[] {
  const elements = path.split('>').map((e) => e.trim()).filter((e) => e.length > 0);
  return elements.map((element, i) => {
    const bracket = element.lastIndexOf('[');
    if (bracket >= 0) {
      if (bracket === 0 || bracket > element.length - 3 || !element.endsWith(']')) throw invalidElement(element, path);
      return { name: element.slice(0, bracket), key: element.slice(bracket + 1, -1) };
    }
    // Only the last element may name a value: `a.b>c` is an aggregation called `a.b`.
    const dot = i === elements.length - 1 ? element.lastIndexOf('.') : -1;
    if (dot < 0) return { name: element, key: null };
    if (dot === 0 || dot > element.length - 2) throw invalidElement(element, path);
    return { name: element.slice(0, dot), key: element.slice(dot + 1) };
  });
}

/** AggregationPath.getPathElementsAsStringList: each name, then its key when it has one. */
export function pathAsStrings(elements: readonly PathElement[]): string[] {
  const out: string[] = [];
  for (const e of elements) {
    out.push(e.name);
    if (e.key !== null) out.push(e.key);
  }
  return out;
}

/** AggregationPath.pathElementContainsBucketKey: a quoted key in brackets selects one bucket. */
export function containsBucketKey(element: PathElement | undefined): boolean {
  return element?.key != null && element.key.length >= 2 && element.key.startsWith("'") && element.key.endsWith("'");
}

/** AggregationErrors.invalidPathElement (an IllegalArgumentException, 400). */
function invalidElement(element: string, path: string): IllegalArgumentError {
  return new IllegalArgumentError(`Invalid path element [${previewInput(element)}] in path [${previewInput(path)}]`);
}
