/**
 * How much of a client's input an error message may quote. Issue 15: a 20 MB string for a numeric
 * field came back five times in one error body (root cause, reason, caused_by, failed shard…), and
 * a few such requests at once exhausted the heap rendering them. Lucene quotes at most a prefix of an
 * offending term ("The prefix of the first immense term is: '[…]...'"); errors here do the same:
 * the first PREVIEW_CHARS characters of a quoted value, then `...`.
 */

/** Characters of a client value an error quotes before cutting it. */
export const PREVIEW_CHARS = 100;

/**
 * The most characters any one reason or metadata string of an error may have: the net under every
 * message that quotes input without previewInput, so that a body has at most a few KB per error
 * object, whatever the request held.
 */
export const MAX_MESSAGE_CHARS = 1024;

/** `text` cut to its first `max` characters plus `...` when longer (never inside a surrogate pair). */
export function previewInput(text: string, max: number = PREVIEW_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}...`;
}

/** A metadata value with every string in it held to MAX_MESSAGE_CHARS (and arrays to 100 entries). */
export function boundedMetadataValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return previewInput(value, MAX_MESSAGE_CHARS);
  if (value === null || typeof value !== 'object' || depth > 4) return value;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => boundedMetadataValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = boundedMetadataValue(v, depth + 1);
  return out;
}
