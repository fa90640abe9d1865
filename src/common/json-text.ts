/**
 * JSON built as a tree of plain values in which some values are already JSON text (`JsonText`):
 * a `top_hits` hit rendered from its stored `_source` bytes, a float32 score written as its
 * shortest decimal. `JSON.stringify` cannot splice text in (JSON.rawJSON is not in Node 20), so
 * `stringifyWithText` writes such a tree as `JSON.stringify` would, with each JsonText as it is.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** `JSON.stringify(value)` for plain data (no toJSON, no cycles), JsonText written as its text. */
export function stringifyWithText(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(value: unknown, out: string[]): void {
  if (value instanceof JsonText) {
    out.push(value.text);
  } else if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      const v: unknown = value[i];
      // As JSON.stringify: an array's undefined (or function) is null.
      if (v === undefined || typeof v === 'function') out.push('null');
      else write(v, out);
    }
    out.push(']');
  } else if (value !== null && typeof value === 'object') {
    out.push('{');
    let first = true;
    for (const key of Object.keys(value)) {
      const v: unknown = (value as Record<string, unknown>)[key];
      // As JSON.stringify: an object's undefined (or function) member is left out.
      if (v === undefined || typeof v === 'function') continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      write(v, out);
    }
    out.push('}');
  } else {
    out.push(JSON.stringify(value) ?? 'null');
  }
}
