/**
 * Compiles a custom pattern ("yyyy/MM/dd HH:mm:ss", "MMM d, yyyy", "yyyy-MM-dd'T'HH:mm[:ss]XXX")
 * to elements, with DateTimeFormatterBuilder.appendPattern's rules: letter counts pick widths and
 * styles, 'quoted' text and any other non-letter are literals, [...] is an optional section.
 * Throws an Error with java.time's message (callers prefix "Invalid format: [p]: ").
 */
import type { Element } from './elements.js';
import {
  DAYS, DAYS_SHORT, F, MONTHS, MONTHS_SHORT, ZONE_ID,
  fraction, literal, offset, optional, reducedYear, text, value,
} from './elements.js';

export function compilePattern(pattern: string): Element[] {
  const sections: Element[][] = [[]];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    const current = sections[sections.length - 1];
    if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) {
      let count = 1;
      while (pattern[i + count] === ch) count++;
      current.push(...letter(ch, count));
      i += count;
    } else if (ch === "'") {
      // 'text' is literal, '' is a quote, inside or outside quotes.
      let end = i + 1;
      for (; end < pattern.length; end++) {
        if (pattern[end] === "'") {
          if (pattern[end + 1] !== "'") break;
          end++;
        }
      }
      if (end >= pattern.length) throw new Error(`Pattern ends with an incomplete string literal: ${pattern}`);
      const quoted = pattern.slice(i + 1, end);
      current.push(literal(quoted === '' ? "'" : quoted.replaceAll("''", "'")));
      i = end + 1;
    } else if (ch === '[') {
      sections.push([]);
      i++;
    } else if (ch === ']') {
      if (sections.length === 1) throw new Error('Pattern invalid as it contains ] without previous [');
      sections.pop();
      sections[sections.length - 1].push(optional(...current));
      i++;
    } else if (ch === '{' || ch === '}' || ch === '#') {
      throw new Error(`Pattern includes reserved character: '${ch}'`);
    } else {
      current.push(literal(ch));
      i++;
    }
  }
  while (sections.length > 1) {
    const open = sections.pop() as Element[]; // an unclosed [ ends with the pattern, as in java.time
    sections[sections.length - 1].push(optional(...open));
  }
  return sections[0];
}

/** Letters java.time knows that are not implemented here. */
const UNSUPPORTED = 'QqWFAnNvBgp';

function letter(ch: string, count: number): Element[] {
  const tooMany = (): never => {
    throw new Error(`Too many pattern letters: ${ch}`);
  };
  switch (ch) {
    case 'G': // era
      return [count <= 3 ? text(F.ERA, ['BC', 'AD'], 0) : count === 4 ? text(F.ERA, ['Before Christ', 'Anno Domini'], 0) : count === 5 ? text(F.ERA, ['B', 'A'], 0) : tooMany()];
    case 'u': // proleptic year
    case 'y': // year of era
    case 'Y': // week-based year
      return [year(ch === 'u' ? F.YEAR : ch === 'y' ? F.YEAR_OF_ERA : F.WEEK_YEAR, count)];
    case 'M':
    case 'L':
      if (count <= 2) return [number(F.MONTH, count)];
      return [text(F.MONTH, count === 3 ? MONTHS_SHORT : count === 4 ? MONTHS : count === 5 ? MONTHS.map((m) => m[0]) : tooMany(), 1)];
    case 'd':
      return [count <= 2 ? number(F.DAY, count) : tooMany()];
    case 'D':
      return [count === 1 ? value(F.DAY_OF_YEAR, 1, 19, 'normal') : count === 2 ? value(F.DAY_OF_YEAR, 2, 3) : count === 3 ? value(F.DAY_OF_YEAR, 3) : tooMany()];
    case 'w':
      return [count <= 2 ? number(F.WEEK, count) : tooMany()];
    case 'E':
    case 'e':
    case 'c':
      if (ch !== 'E' && count <= 2) return [value(F.DAY_OF_WEEK, count)]; // ES: Monday = 1
      return [text(F.DAY_OF_WEEK, count <= 3 ? DAYS_SHORT : count === 4 ? DAYS : count === 5 ? DAYS.map((d) => d[0]) : tooMany(), 1)];
    case 'a':
      return [count === 1 ? text(F.AMPM, ['AM', 'PM'], 0) : tooMany()];
    case 'H':
      return [count <= 2 ? number(F.HOUR, count) : tooMany()];
    case 'h':
      return [count <= 2 ? number(F.CLOCK_HOUR_OF_AMPM, count) : tooMany()];
    case 'K':
      return [count <= 2 ? number(F.HOUR_OF_AMPM, count) : tooMany()];
    case 'k':
      return [count <= 2 ? number(F.CLOCK_HOUR_OF_DAY, count) : tooMany()];
    case 'm':
      return [count <= 2 ? number(F.MINUTE, count) : tooMany()];
    case 's':
      return [count <= 2 ? number(F.SECOND, count) : tooMany()];
    case 'S':
      return [fraction(count, count, false)];
    case 'Z':
      if (count <= 3) return [offset('+HHMM', '+0000')];
      if (count === 4) return localizedOffset();
      return [count === 5 ? offset('+HH:MM:ss', 'Z') : tooMany()];
    case 'O':
      if (count === 4) return localizedOffset();
      throw new Error(count === 1 ? 'Unsupported pattern letter: O' : 'Pattern letter count must be 1 or 4: O');
    case 'X':
    case 'x': {
      if (count > 5) tooMany();
      const pattern = ['+HHmm', '+HHMM', '+HH:MM', '+HHMMss', '+HH:MM:ss'][count - 1];
      return [offset(pattern, ch === 'X' ? 'Z' : ['+00', '+0000', '+00:00', '+0000', '+00:00'][count - 1])];
    }
    case 'V':
      if (count !== 2) throw new Error('Pattern letter count must be 2: V');
      return [ZONE_ID];
    case 'z': // zone names ("PST") are not supported: ids and offsets are read instead
      return [count <= 4 ? ZONE_ID : tooMany()];
    default:
      throw new Error(UNSUPPORTED.includes(ch) ? `Unsupported pattern letter: ${ch}` : `Unknown pattern letter: ${ch}`);
  }
}

/** One letter: 1-19 digits; two letters: exactly 2 digits (appendValue(field) / appendValue(field, 2)). */
function number(field: number, count: number): Element {
  return count === 1 ? value(field, 1, 19, 'normal') : value(field, 2);
}

/** Year letters: 'yy' is two digits based on 2000; 4+ letters need a '+' beyond that many digits. */
function year(field: number, count: number): Element {
  if (count === 2) return reducedYear(field);
  return value(field, count, 19, count < 4 ? 'normal' : 'exceedsPad');
}

/** 'ZZZZ' / 'OOOO': "GMT", "GMT+01:00". */
function localizedOffset(): Element[] {
  return [literal('GMT'), offset('+HH:MM:ss', '')];
}
