import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// docs/ARCHITECTURE.md §5: analysis/ is pure (no Node APIs) and imports only the leaves.
describe('the analysis folder', () => {
  const dir = join(import.meta.dirname, '../../src/analysis');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  // Besides: its own JSON data (kstem-data.json) and two pure npm packages for the uax_url_email
  // tokenizer's TLD list (tlds: IANA's list; punycode: IDN TLDs to their xn-- form).
  it('imports nothing but its own modules and data, the leaves errors/ and common/, and tlds/punycode', () => {
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8');
      const specifiers = [...source.matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
      for (const specifier of specifiers) expect(specifier, `${file} imports ${specifier}`).toMatch(/^(\.\/[\w-]+\.js|\.\/[\w-]+\.json|\.\.\/(errors|common)\/[\w/-]+\.js|tlds|punycode\/punycode\.js)$/);
    }
  });

  it('has an index.ts that opens with its purpose, invariants and import rule', () => {
    const index = readFileSync(join(dir, 'index.ts'), 'utf8');
    expect(index.startsWith('/**')).toBe(true);
    expect(index).toMatch(/Invariants/);
    expect(index).toMatch(/Must not import/);
  });
});
