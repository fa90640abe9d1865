/**
 * Lucene's HTMLStripCharFilter (ES `html_strip`): removes HTML markup and decodes character
 * entities. Block-level elements and `<br>` become a newline, so "<p>a</p><p>b</p>" keeps its
 * words apart; other tags, comments, `<!DOCTYPE>`/`<?…?>` declarations and the contents of
 * `<script>` and `<style>` vanish; `escaped_tags` are left in place. Offsets are corrected back to
 * the markup (char-filter.ts): a decoded entity spans its source text.
 */
import { OffsetCorrections, type CharFilter } from './char-filter.js';

const BLOCK_LEVEL = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li', 'map', 'nav', 'noscript',
  'ol', 'output', 'p', 'pre', 'section', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'video',
]);

/** HTML 4 named entities (the Latin-1 set, symbols and punctuation HTMLStripCharFilter knows). */
const LATIN1_NAMES = [
  'nbsp', 'iexcl', 'cent', 'pound', 'curren', 'yen', 'brvbar', 'sect', 'uml', 'copy', 'ordf', 'laquo', 'not', 'shy', 'reg', 'macr',
  'deg', 'plusmn', 'sup2', 'sup3', 'acute', 'micro', 'para', 'middot', 'cedil', 'sup1', 'ordm', 'raquo', 'frac14', 'frac12', 'frac34', 'iquest',
  'Agrave', 'Aacute', 'Acirc', 'Atilde', 'Auml', 'Aring', 'AElig', 'Ccedil', 'Egrave', 'Eacute', 'Ecirc', 'Euml', 'Igrave', 'Iacute', 'Icirc', 'Iuml',
  'ETH', 'Ntilde', 'Ograve', 'Oacute', 'Ocirc', 'Otilde', 'Ouml', 'times', 'Oslash', 'Ugrave', 'Uacute', 'Ucirc', 'Uuml', 'Yacute', 'THORN', 'szlig',
  'agrave', 'aacute', 'acirc', 'atilde', 'auml', 'aring', 'aelig', 'ccedil', 'egrave', 'eacute', 'ecirc', 'euml', 'igrave', 'iacute', 'icirc', 'iuml',
  'eth', 'ntilde', 'ograve', 'oacute', 'ocirc', 'otilde', 'ouml', 'divide', 'oslash', 'ugrave', 'uacute', 'ucirc', 'uuml', 'yacute', 'thorn', 'yuml',
];
const ENTITIES = new Map<string, string>([
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"], ['OElig', 'Œ'], ['oelig', 'œ'], ['Scaron', 'Š'],
  ['scaron', 'š'], ['Yuml', 'Ÿ'], ['fnof', 'ƒ'], ['circ', 'ˆ'], ['tilde', '˜'], ['ensp', '\u2002'], ['emsp', '\u2003'],
  ['thinsp', '\u2009'], ['zwnj', '\u200c'], ['zwj', '\u200d'], ['lrm', '\u200e'], ['rlm', '\u200f'], ['ndash', '–'],
  ['mdash', '—'], ['lsquo', '‘'], ['rsquo', '’'], ['sbquo', '‚'], ['ldquo', '“'], ['rdquo', '”'], ['bdquo', '„'],
  ['dagger', '†'], ['Dagger', '‡'], ['bull', '•'], ['hellip', '…'], ['permil', '‰'], ['prime', '′'], ['Prime', '″'],
  ['lsaquo', '‹'], ['rsaquo', '›'], ['oline', '‾'], ['frasl', '⁄'], ['euro', '€'], ['trade', '™'], ['larr', '←'],
  ['uarr', '↑'], ['rarr', '→'], ['darr', '↓'], ['harr', '↔'], ['minus', '−'], ['infin', '∞'], ['ne', '≠'], ['le', '≤'],
  ['ge', '≥'],
  ...LATIN1_NAMES.map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
]);

const RE_TAG_NAME = /^<\/?([A-Za-z][A-Za-z0-9:-]*)/;

/** Where the tag starting at `i` ends (index after '>'), honouring quoted attribute values; -1 if unterminated. */
function tagEnd(text: string, i: number): number {
  let quote = 0;
  for (let k = i + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) {
      quote = c;
    } else if (c === 0x3e) {
      return k + 1;
    } else if (c === 0x3c) {
      return -1;
    }
  }
  return -1;
}

/** An entity at `i` (`&name;`, `&#n;`, `&#xh;`): its text and length, or null. */
function entityAt(text: string, i: number): { value: string; length: number } | null {
  const semi = text.indexOf(';', i + 1);
  if (semi < 0 || semi - i > 12) return null;
  const body = text.slice(i + 1, semi);
  let value: string | undefined;
  if (body.startsWith('#x') || body.startsWith('#X')) {
    const cp = /^[0-9a-fA-F]{1,6}$/.test(body.slice(2)) ? parseInt(body.slice(2), 16) : NaN;
    value = cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;
  } else if (body.startsWith('#')) {
    const cp = /^[0-9]{1,7}$/.test(body.slice(1)) ? parseInt(body.slice(1), 10) : NaN;
    value = cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;
  } else {
    value = ENTITIES.get(body);
  }
  return value === undefined ? null : { value, length: semi + 1 - i };
}

export function htmlStripCharFilter(name: string, escapedTags: ReadonlySet<string>): CharFilter {
  const escaped = new Set([...escapedTags].map((t) => t.toLowerCase()));
  return {
    name,
    filter(text) {
      if (text.indexOf('<') < 0 && text.indexOf('&') < 0) return { text, correct: (o) => o };
      const corrections = new OffsetCorrections();
      let out = '';
      let i = 0;
      /** Replaces text[i, i + inputLength) with `replacement`. */
      const replace = (inputLength: number, replacement: string) => {
        out += replacement;
        i += inputLength;
        const diff = inputLength - replacement.length;
        if (diff !== 0) corrections.add(out.length, corrections.lastDiff + diff);
      };
      while (i < text.length) {
        const c = text.charCodeAt(i);
        if (c === 0x26 /* & */) {
          const e = entityAt(text, i);
          if (e) {
            replace(e.length, e.value);
            continue;
          }
        } else if (c === 0x3c /* < */) {
          if (text.startsWith('<!--', i)) {
            const close = text.indexOf('-->', i + 4);
            replace((close < 0 ? text.length : close + 3) - i, '');
            continue;
          }
          if (text.startsWith('<![CDATA[', i)) {
            const close = text.indexOf(']]>', i + 9);
            if (close >= 0) {
              replace(9, '');
              out += text.slice(i, close);
              i = close;
              replace(3, '');
              continue;
            }
          }
          if (text.startsWith('<!', i) || text.startsWith('<?', i)) {
            const end = text.indexOf('>', i);
            if (end >= 0) {
              replace(end + 1 - i, '');
              continue;
            }
          }
          const m = RE_TAG_NAME.exec(text.slice(i, i + 64));
          const end = m ? tagEnd(text, i) : -1;
          if (m && end > 0) {
            const tag = m[1].toLowerCase();
            const closing = text.charCodeAt(i + 1) === 0x2f;
            if (escaped.has(tag)) {
              out += text.slice(i, end);
              i = end;
              continue;
            }
            if (!closing && (tag === 'script' || tag === 'style')) {
              const close = text.toLowerCase().indexOf(`</${tag}`, end);
              const closeEnd = close < 0 ? -1 : tagEnd(text, close);
              replace((closeEnd < 0 ? text.length : closeEnd) - i, '');
              continue;
            }
            replace(end - i, BLOCK_LEVEL.has(tag) ? '\n' : '');
            continue;
          }
        }
        out += text[i++];
      }
      return { text: out, correct: corrections.toCorrect() };
    },
  };
}
