/**
 * Passages → fragment strings, as ES's CustomPassageFormatter: text between matches copied (encoded),
 * overlapping matches merged into one tagged run, a match running past the passage cut at its end,
 * a trailing value separator dropped and the fragment trimmed (not when number_of_fragments is 0).
 * The `html` encoder is Lucene's SimpleHTMLEncoder and applies to the text only, never the tags.
 */
import type { Passage } from './passages.js';

export interface FragmentFormat {
  readonly preTag: string;
  readonly postTag: string;
  readonly html: boolean;
  readonly trim: boolean;
}

export function formatPassage(p: Passage, content: string, f: FragmentFormat): string {
  const encode = f.html ? encodeHtml : (s: string) => s;
  let out = '';
  let pos = p.start;
  const m = p.matches;
  for (let i = 0; i < m.length; i++) {
    const start = m[i].start;
    out += encode(content.slice(pos, start));
    let end = m[i].end;
    while (i + 1 < m.length && m[i + 1].start < end) end = Math.max(end, m[++i].end);
    end = Math.min(end, p.end);
    out += f.preTag + encode(content.slice(start, end)) + f.postTag;
    pos = end;
  }
  out += encode(content.slice(pos, Math.max(pos, p.end)));
  if (out.endsWith('\u0000') || out.endsWith('\u2029')) out = out.slice(0, -1);
  // Java's String.trim: every char up to U+0020 at either end.
  return f.trim ? out.replace(JAVA_TRIM, '') : out;
}

const JAVA_TRIM = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const HTML_SPECIAL = /["&<>'/]/g;
const HTML_ESCAPES: Record<string, string> = { '"': '&quot;', '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#x27;', '/': '&#x2F;' };

function encodeHtml(s: string): string {
  return s.replace(HTML_SPECIAL, (c) => HTML_ESCAPES[c]);
}
