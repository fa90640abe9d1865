/**
 * The README's settings table, generated from the registry (test/config/settings-table.test.ts
 * fails when README.md and the registry disagree; `npm run docs:settings` rewrites it).
 */
import { CONFIG_ENV, CONFIG_FILE_NAME } from './config.js';
import { FLAG_ALIASES, SETTINGS, type SettingDef } from './settings-registry.js';

export const TABLE_START = '<!-- settings-table:start (generated from src/config/settings-registry.ts: npm run docs:settings) -->';
export const TABLE_END = '<!-- settings-table:end -->';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function renderSettingsTable(): string {
  const rows = [
    '| threadsearch.yml key | flag | environment | default | |',
    '|---|---|---|---|---|',
    `| | \`--config <path>\` | \`${CONFIG_ENV}\` | \`./${CONFIG_FILE_NAME}\` if it exists | the config file |`,
  ];
  for (const s of SETTINGS as readonly SettingDef[]) {
    const flag = s.flagValue === undefined ? `\`--${s.flag}\`` : `\`--${s.flag}\` (= \`${s.flagValue}\`)`;
    const def = s.defaultText ?? (s.default === '' ? 'none' : `\`${s.default}\``);
    const what = `${s.description}; ${s.type.describe}${s.secret ? ' — secret: never printed or logged' : ''}`;
    rows.push(`| \`${s.key}\` | ${flag} | \`${s.env}\` | ${cell(def)} | ${cell(what)} |`);
  }
  for (const [alias, a] of Object.entries(FLAG_ALIASES)) rows.push(`| | \`--${alias}\` | | | ${cell(a.description)} |`);
  return [TABLE_START, ...rows, TABLE_END].join('\n');
}

/** README text with the block between the markers replaced by the current table. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no settings table markers (${TABLE_START} … ${TABLE_END})`);
  return readme.slice(0, start) + renderSettingsTable() + readme.slice(end + TABLE_END.length);
}
