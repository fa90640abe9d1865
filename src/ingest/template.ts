/**
 * Mustache-style templates in processor options (ES ValueSource / TemplateScript with mustache):
 * `{{field}}`, `{{{field}}}`, `{{_ingest.timestamp}}`, `{{_source.a.b}}`. Only variable lookups
 * are supported (no sections or partials): that is what pipelines use them for. A missing value
 * renders as the empty string, as mustache does.
 */
import type { IngestDocument } from './ingest-document.js';

const VARIABLE = /\{\{\{?\s*([^{}\s]+)\s*\}?\}\}/g;

export type Template = (doc: IngestDocument) => string;

export function compileTemplate(text: string): Template {
  if (!text.includes('{{')) return () => text;
  return (doc) => text.replace(VARIABLE, (_, path: string) => {
    let v: unknown;
    try {
      v = doc.getFieldValue(path);
    } catch {
      return '';
    }
    if (v === null || v === undefined) return '';
    return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

/** A `value` option: strings are templates, lists and objects are templated element by element. */
export function compileValue(value: unknown): (doc: IngestDocument) => unknown {
  if (typeof value === 'string') return compileTemplate(value);
  if (Array.isArray(value)) {
    const parts = value.map(compileValue);
    return (doc) => parts.map((p) => p(doc));
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => [compileTemplate(k), compileValue(v)] as const);
    return (doc) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries) Object.defineProperty(out, k(doc), { value: v(doc), enumerable: true, writable: true, configurable: true });
      return out;
    };
  }
  return () => value;
}
