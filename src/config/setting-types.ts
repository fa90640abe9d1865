/**
 * How a server setting's text becomes its value: one parser per kind of setting (integer, time
 * value, byte size, one of a list, boolean, comma-separated list, path, plain text). Every source
 * (flag, environment variable, threadsearch.yml) hands the parser a string; a problem is a
 * SettingValueError whose message the caller prefixes with where the value came from.
 */
import { resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { parseMemorySize } from '../common/byte-size.js';
import { parseTimeValue } from '../common/time-value.js';

/** A value a parser refuses; `message` says what is allowed (never the whole value of a secret). */
export class SettingValueError extends Error {}

export interface SettingType<T> {
  /** What the README and --help call the kind of value, e.g. `integer 0–65535`, `time`. */
  readonly describe: string;
  /** The value's placeholder in --help, e.g. `n`, `time`, `size`. */
  readonly arg: string;
  /** The allowed values, for settings that take one of a list. */
  readonly values?: readonly string[];
  parse(raw: string, key: string): T;
}

/** Short prefix of user input for messages (values can be long, e.g. a list of origins). */
function shown(raw: string): string {
  return raw.length > 60 ? `${raw.slice(0, 60)}…` : raw;
}

export function integer(min: number, max: number): SettingType<number> {
  return {
    describe: `integer ${min}–${max}`,
    arg: 'n',
    parse(raw) {
      const v = raw.trim();
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new SettingValueError(`must be an integer between ${min} and ${max}, got [${shown(raw)}]`);
      return Number(v);
    },
  };
}

/** ES time values (`30s`, `500ms`, `-1`) in milliseconds. */
export const time: SettingType<number> = {
  describe: 'time value (e.g. 30s, 500ms; -1: none)',
  arg: 'time',
  parse(raw, key) {
    try {
      return parseTimeValue(raw, key);
    } catch (e) {
      throw new SettingValueError((e as Error).message);
    }
  },
};

const heapBytes = getHeapStatistics().heap_size_limit;

/** ES memory sizes: `512mb`, `1gb`, or a share of the heap (`10%`), in bytes. */
export const memorySize: SettingType<number> = {
  describe: 'byte size (e.g. 512mb) or % of heap',
  arg: 'size',
  parse(raw, key) {
    try {
      return parseMemorySize(raw, key, heapBytes);
    } catch (e) {
      throw new SettingValueError((e as Error).message);
    }
  },
};

export function oneOf<const V extends string>(values: readonly V[]): SettingType<V> {
  return {
    describe: values.join(' | '),
    arg: values.join('|'),
    values,
    parse(raw) {
      const v = raw.trim().toLowerCase();
      if (!(values as readonly string[]).includes(v)) throw new SettingValueError(`must be one of [${values.join(', ')}], got [${shown(raw)}]`);
      return v as V;
    },
  };
}

export const boolean: SettingType<boolean> = {
  describe: 'true | false',
  arg: 'true|false',
  values: ['true', 'false'],
  parse(raw) {
    const v = raw.trim().toLowerCase();
    if (v !== 'true' && v !== 'false') throw new SettingValueError(`must be one of [true, false], got [${shown(raw)}]`);
    return v === 'true';
  },
};

/** Comma-separated (a YAML list is joined with commas before it gets here); empty items dropped. */
export const list: SettingType<readonly string[]> = {
  describe: 'comma-separated list',
  arg: 'list',
  parse: (raw) => raw.split(',').map((s) => s.trim()).filter((s) => s !== ''),
};

/** A directory or file; relative paths are relative to the working directory. */
export const path: SettingType<string> = {
  describe: 'path',
  arg: 'path',
  parse(raw) {
    if (raw.trim() === '') throw new SettingValueError('must be a path, got an empty value');
    return resolve(raw.trim());
  },
};

/** A path that may be unset (empty: null), e.g. a directory a feature needs only when used. */
export const optionalPath: SettingType<string | null> = {
  describe: 'path',
  arg: 'path',
  parse: (raw) => (raw.trim() === '' ? null : resolve(raw.trim())),
};

/** Comma-separated paths (a YAML list is joined with commas), each made absolute; empty: none. */
export const pathList: SettingType<readonly string[]> = {
  describe: 'comma-separated paths',
  arg: 'dirs',
  parse: (raw) => list.parse(raw, '').map((p) => resolve(p)),
};

export const text: SettingType<string> = {
  describe: 'text',
  arg: 'value',
  parse: (raw) => raw.trim(),
};

/** A type whose parser throws something else (e.g. ml-nodes' own error) gets it as a SettingValueError. */
export function custom<T>(describe: string, arg: string, parse: (raw: string, key: string) => T, wrap: (e: unknown) => boolean): SettingType<T> {
  return {
    describe,
    arg,
    parse(raw, key) {
      try {
        return parse(raw, key);
      } catch (e) {
        if (wrap(e)) throw new SettingValueError((e as Error).message);
        throw e;
      }
    },
  };
}
