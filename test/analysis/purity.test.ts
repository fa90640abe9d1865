import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// docs/ARCHITECTURE.md §5: analysis/ is pure (no Node APIs) and imports only the leaves.
describe('the analysis folder', () => {
  const dir = join(import.meta.dirname, '../../src/analysis');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it('imports nothing but its own modules and the leaves errors/ and common/', () => {
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8');
      const specifiers = [...source.matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
      for (const specifier of specifiers) expect(specifier, `${file} imports ${specifier}`).toMatch(/^(\.\/[\w-]+\.js|\.\.\/(errors|common)\/[\w/-]+\.js)$/);
    }
  });

  it('has an index.ts that opens with its purpose, invariants and import rule', () => {
    const index = readFileSync(join(dir, 'index.ts'), 'utf8');
    expect(index.startsWith('/**')).toBe(true);
    expect(index).toMatch(/Invariants/);
    expect(index).toMatch(/Must not import/);
  });
});
