// Rewrites the settings table in README.md from the settings registry (run after `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { withSettingsTable } from '../dist/src/config/settings-table.js';

const file = new URL('../README.md', import.meta.url);
writeFileSync(file, withSettingsTable(readFileSync(file, 'utf8')));
