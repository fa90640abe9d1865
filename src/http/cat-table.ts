/**
 * ES's `_cat` table (RestTable, AbstractCatAction): columns with aliases and descriptions, some
 * shown by default, rendered as aligned text or, with `format=json`, as an array of objects whose
 * values are strings, as ES sends them. The common parameters: `v` (header line), `h` (columns by
 * name, alias or wildcard), `s` (sort keys, `:desc`), `help` (the column list), `bytes` and
 * `time` (fixed units instead of ES's human-readable sizes and durations).
 */
import { globMatcher } from '../common/wildcard.js';
import { IllegalArgumentError } from '../errors/index.js';
import { boolParam } from './params.js';
import type { RestRequest, RestResponse } from './rest.js';

/** How a raw value prints: as is, as a byte size (raw bytes), a duration (raw milliseconds), or a date (epoch ms). */
export type CatKind = 'text' | 'number' | 'bytes' | 'time';

export interface CatColumn<R> {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly desc: string;
  /** Shown without `h`. */
  readonly default?: boolean;
  readonly kind?: CatKind;
  readonly value: (row: R) => string | number | null;
}

/** The parameters every `_cat` route accepts (ES AbstractCatAction + RestTable). */
export const CAT_PARAMS = ['h', 'help', 's', 'v', 'bytes', 'time', 'local', 'master_timeout'];

export const TEXT_PLAIN = 'text/plain; charset=UTF-8';

const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4, pb: 1024 ** 5 };
const TIME_UNITS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1, micros: 1e-3, nanos: 1e-6 };

/** ES Strings.format1Decimals: one decimal, truncated, dropped when it is 0. */
function oneDecimal(value: number, suffix: string): string {
  const tenths = Math.floor(value * 10 + 1e-9);
  return tenths % 10 === 0 ? `${tenths / 10}${suffix}` : `${(tenths / 10).toFixed(1)}${suffix}`;
}

/** ES ByteSizeValue.toString: the largest unit the value reaches. */
export function humanBytes(bytes: number): string {
  const units = ['pb', 'tb', 'gb', 'mb', 'kb'];
  for (const u of units) if (bytes >= BYTE_UNITS[u]) return oneDecimal(bytes / BYTE_UNITS[u], u);
  return `${bytes}b`;
}

/** ES TimeValue.toString: the largest unit the duration reaches. */
export function humanTime(ms: number): string {
  if (ms >= TIME_UNITS.d) return oneDecimal(ms / TIME_UNITS.d, 'd');
  if (ms >= TIME_UNITS.h) return oneDecimal(ms / TIME_UNITS.h, 'h');
  if (ms >= TIME_UNITS.m) return oneDecimal(ms / TIME_UNITS.m, 'm');
  if (ms >= TIME_UNITS.s) return oneDecimal(ms / TIME_UNITS.s, 's');
  if (ms >= 1) return oneDecimal(ms, 'ms');
  if (ms === 0) return '0s';
  return oneDecimal(ms * 1000, 'micros');
}

function unitParam(req: RestRequest, name: 'bytes' | 'time', units: Record<string, number>): number | null {
  const v = req.query[name];
  if (v === undefined) return null;
  if (!Object.hasOwn(units, v)) {
    throw new IllegalArgumentError(name === 'bytes'
      ? `failed to parse setting [bytes] with value [${v}] as a size in bytes: unit is missing or unrecognized`
      : `failed to parse setting [time] with value [${v}] as a time value: unit is missing or unrecognized`);
  }
  return units[v];
}

/** The columns `h` asks for, in its order (names, aliases, wildcards); the defaults without it. */
function displayed<R>(req: RestRequest, columns: readonly CatColumn<R>[]): CatColumn<R>[] {
  const h = req.query.h;
  if (h === undefined || h === '') return columns.filter((c) => c.default);
  const out: CatColumn<R>[] = [];
  for (const part of h.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    if (part.includes('*')) {
      const glob = globMatcher(part);
      for (const c of columns) if ((glob.test(c.name) || (c.aliases ?? []).some((a) => glob.test(a))) && !out.includes(c)) out.push(c);
    } else {
      const c = columns.find((col) => col.name === part || (col.aliases ?? []).includes(part));
      // ES leaves out names it does not know.
      if (c && !out.includes(c)) out.push(c);
    }
  }
  return out;
}

function compareCells(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** `s=col[:asc|:desc],…` (ES RestTable.getRowOrder), stable for equal keys. */
function sortRows<R>(req: RestRequest, columns: readonly CatColumn<R>[], rows: R[]): R[] {
  const s = req.query.s;
  if (s === undefined || s === '') return rows;
  const keys = s.split(',').map((k) => {
    const [name, order = 'asc'] = k.trim().split(':');
    const col = columns.find((c) => c.name === name || (c.aliases ?? []).includes(name));
    if (!col) throw new IllegalArgumentError(`Unable to sort by unknown sort key \`${name}\``);
    if (order !== 'asc' && order !== 'desc') throw new IllegalArgumentError(`Unknown sort order [${order}] for sort key [${name}]`);
    return { col, sign: order === 'desc' ? -1 : 1 };
  });
  const indexed = rows.map((r, i) => ({ r, i }));
  indexed.sort((x, y) => {
    for (const { col, sign } of keys) {
      const c = compareCells(col.value(x.r), col.value(y.r));
      if (c !== 0) return sign * c;
    }
    return x.i - y.i;
  });
  return indexed.map((x) => x.r);
}

function pad(text: string, width: number, right: boolean): string {
  const gap = ' '.repeat(Math.max(0, width - text.length));
  return right ? gap + text : text + gap;
}

function alignedText(lines: string[][], rightAligned: readonly boolean[]): string {
  if (lines.length === 0) return '';
  const widths = lines[0].map((_, c) => Math.max(...lines.map((l) => l[c].length)));
  return lines.map((l) => l.map((cell, c) => pad(cell, widths[c], rightAligned[c])).join(' ') + '\n').join('');
}

/** Renders a `_cat` response for `rows` under the request's parameters. */
export function renderCat<R>(req: RestRequest, columns: readonly CatColumn<R>[], rows: R[]): RestResponse {
  const format = req.query.format ?? 'text';
  if (format !== 'text' && format !== 'txt' && format !== 'json') {
    throw new IllegalArgumentError(`_cat format [${format}] is not supported by this server: use [text] or [json]`);
  }
  const json = format === 'json';
  if (boolParam(req.query, 'help', false)) {
    const help = columns.map((c) => [c.name, (c.aliases ?? []).join(','), c.desc]);
    if (json) return { body: help.map(([column, aliases, description]) => ({ column, aliases, description })) };
    return { body: help.map((l) => `${l[0]} | ${l[1]} | ${l[2]}`).join('\n') + '\n', contentType: TEXT_PLAIN };
  }
  const bytesUnit = unitParam(req, 'bytes', BYTE_UNITS);
  const timeUnit = unitParam(req, 'time', TIME_UNITS);
  const shown = displayed(req, columns);
  const sorted = sortRows(req, columns, rows);
  const cell = (c: CatColumn<R>, row: R): string | null => {
    const v = c.value(row);
    if (v === null) return null;
    if (typeof v === 'string') return v;
    switch (c.kind) {
      case 'bytes': return bytesUnit !== null ? String(Math.floor(v / bytesUnit)) : humanBytes(v);
      case 'time': return timeUnit !== null ? String(Math.floor(v / timeUnit)) : humanTime(v);
      default: return String(v);
    }
  };
  if (json) {
    return { body: sorted.map((row) => Object.fromEntries(shown.map((c) => [c.name, cell(c, row)]))) };
  }
  const lines = sorted.map((row) => shown.map((c) => cell(c, row) ?? ''));
  if (boolParam(req.query, 'v', false)) lines.unshift(shown.map((c) => c.name));
  const right = shown.map((c) => c.kind !== undefined && c.kind !== 'text');
  return { body: alignedText(lines, right), contentType: TEXT_PLAIN };
}
