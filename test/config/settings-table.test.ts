/** README.md lists every setting with its default: its table is the registry's, verbatim. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/settings-registry.js';
import { renderSettingsTable, withSettingsTable } from '../../src/config/settings-table.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README settings table', () => {
  it('is in sync with src/config/settings-registry.ts (npm run build && npm run docs:settings rewrites it)', () => {
    expect(withSettingsTable(readme)).toBe(readme);
  });

  it('has one row per setting, with its key, flag and environment variable', () => {
    const table = renderSettingsTable();
    for (const s of SETTINGS) expect(table).toContain(`| \`${s.key}\` | \`--${s.flag}\``);
    expect(new Set(SETTINGS.map((s) => s.key)).size).toBe(SETTINGS.length);
    expect(new Set(SETTINGS.map((s) => s.flag)).size).toBe(SETTINGS.length);
    expect(new Set(SETTINGS.map((s) => s.env)).size).toBe(SETTINGS.length);
  });
});
