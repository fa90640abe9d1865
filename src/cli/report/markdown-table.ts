/**
 * Markdown tables for BENCHMARKS.md sections. Numbers are right-aligned and rounded to a few
 * significant digits, because a benchmark table is read by comparing magnitudes, not decimals.
 */

export type Cell = string | number | null | undefined;
export type Align = 'left' | 'right';

/**
 * `sig` significant digits for |x| < 10^sig, else the rounded integer with a space every three
 * digits (as in performance.md: 9 300). NaN, null and undefined print as "–".
 */
export function formatNumber(x: number | null | undefined, sig = 3): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  if (x === 0) return '0';
  if (Math.abs(x) >= 10 ** sig) {
    return Math.round(x).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  }
  return String(Number(x.toPrecision(sig)));
}

function cellText(c: Cell): string {
  const s = typeof c === 'number' ? formatNumber(c) : c === null || c === undefined ? '–' : c;
  // A raw '|' would end the cell; newlines would end the row.
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Columns whose cells are all numbers (or empty) default to right alignment. */
export function markdownTable(header: readonly string[], rows: readonly (readonly Cell[])[], align?: readonly Align[]): string {
  const aligns: Align[] = header.map((_, i) => {
    if (align?.[i]) return align[i];
    const numeric = rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || r[i] === null || r[i] === undefined);
    return numeric ? 'right' : 'left';
  });
  const lines = [
    `| ${header.map(cellText).join(' | ')} |`,
    `|${aligns.map((a) => (a === 'right' ? '---:' : '---')).join('|')}|`,
  ];
  for (const row of rows) lines.push(`| ${header.map((_, i) => cellText(row[i])).join(' | ')} |`);
  return lines.join('\n');
}
