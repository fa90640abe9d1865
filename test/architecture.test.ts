/**
 * Enforces the dependency rules of docs/ARCHITECTURE.md §5 by scanning every import in src/ and
 * workers/. A rule broken here is a design decision: change the document in the same commit.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Which top-level modules each module may import (itself always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  errors: [],
  common: ['errors'],
  config: ['errors', 'common'],
  logging: ['errors', 'common'],
  dsl: ['errors', 'common'],
  analysis: ['errors', 'common'],
  index: ['analysis', 'errors', 'common'],
  search: ['index', 'dsl', 'analysis', 'errors', 'common'],
  ml: ['dsl', 'analysis', 'errors', 'common'],
  ingest: ['ml', 'index', 'errors', 'common'],
  storage: ['index', 'errors', 'common'],
  tasks: ['errors', 'common'],
  security: ['errors', 'common'],
  cluster: ['search', 'index', 'storage', 'ml', 'ingest', 'tasks', 'dsl', 'logging', 'errors', 'common', 'workers/protocol'],
  http: ['cluster', 'ingest', 'tasks', 'security', 'dsl', 'logging', 'errors', 'common'],
  app: ['*'],
  cli: ['app', 'config', 'logging', 'errors', 'common'],
  main: ['cli'],
  connector: [],
  workers: ['search', 'index', 'ml', 'analysis', 'dsl', 'errors', 'common', 'workers/protocol'],
};

/** Pure modules: no Node built-ins (they run anywhere, and in the browser for dsl types). */
const PURE = new Set(['errors', 'common', 'dsl', 'analysis', 'connector']);
/** The only modules that may import piscina: cluster/'s pools, and worker entries (its `move`, to transfer a reply). */
const PISCINA = new Set(['cluster', 'workers']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** The module a file belongs to: src/<module>/..., src/app.ts → app, workers/... → workers. */
function moduleOf(file: string): string {
  const rel = relative(ROOT, file).split('\\').join('/');
  if (rel.startsWith('workers/')) return rel === 'workers/protocol.ts' ? 'workers/protocol' : 'workers';
  const parts = rel.split('/');
  if (parts.length === 2) return parts[1].replace(/\.ts$/, '');
  return parts[1];
}

function imports(source: string): string[] {
  const out: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(source); m; m = re.exec(source)) out.push(m[1] ?? m[2]);
  return out;
}

/** Tarjan's strongly connected components: every component of more than one file is a cycle. */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    out.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const sources = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'workers'))];

describe('architecture', () => {
  it('finds the source files it checks', () => {
    expect(sources.length).toBeGreaterThan(50);
  });

  it('every import respects the dependency direction of docs/ARCHITECTURE.md', () => {
    const violations: string[] = [];
    for (const file of sources) {
      const from = moduleOf(file);
      const allowed = ALLOWED[from === 'workers/protocol' ? 'workers' : from];
      // workers/protocol.ts is shared by both sides: it may only name types of search/, index/, errors/.
      if (!allowed) {
        violations.push(`${relative(ROOT, file)}: module [${from}] has no rule in ALLOWED`);
        continue;
      }
      for (const spec of imports(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('node:')) {
          if (PURE.has(from)) violations.push(`${relative(ROOT, file)}: pure module [${from}] imports ${spec}`);
          continue;
        }
        if (!spec.startsWith('.')) {
          if (spec === 'piscina' && !PISCINA.has(from)) violations.push(`${relative(ROOT, file)}: only cluster/ and workers/ may import piscina`);
          continue;
        }
        const target = moduleOf(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
        if (target === from || allowed.includes('*') || allowed.includes(target)) continue;
        violations.push(`${relative(ROOT, file)}: [${from}] must not import [${target}] (${spec})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('tests never import bench/ (bench/ imports test/support/ instead); test/bench/ tests bench/lib itself', () => {
    const tests = files(join(ROOT, 'test')).filter((f) => !relative(ROOT, f).split('\\').join('/').startsWith('test/bench/'));
    const violations = tests.flatMap((file) =>
      imports(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => relative(ROOT, resolve(dirname(file), spec)).split('\\').join('/'))
        .filter((target) => target.startsWith('bench/'))
        .map((target) => `${relative(ROOT, file)} imports ${target}`),
    );
    expect(violations).toEqual([]);
  });

  it('the demo imports nothing of src/ but the connector, and the server never imports the demo', () => {
    const demo = files(join(ROOT, 'demo')).concat(readdirSync(join(ROOT, 'demo/page')).filter((n) => n.endsWith('.tsx')).map((n) => join(ROOT, 'demo/page', n)));
    expect(demo.length).toBeGreaterThan(3);
    const violations = demo.flatMap((file) =>
      imports(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => relative(ROOT, resolve(dirname(file), spec)).split('\\').join('/'))
        .filter((target) => !target.startsWith('demo/') && !target.startsWith('src/connector/'))
        .map((target) => `${relative(ROOT, file)} imports ${target}`),
    );
    expect(violations).toEqual([]);
    expect(sources.filter((f) => imports(readFileSync(f, 'utf8')).some((s) => s.includes('/demo/')))).toEqual([]);
  });

  it('no import cycle between the files of src/ (type-only imports count too; as `npx madge --circular`)', () => {
    const graph = new Map<string, string[]>();
    for (const file of sources) {
      graph.set(file, imports(readFileSync(file, 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts'))));
    }
    expect(stronglyConnected(graph).filter((c) => c.length > 1).map((c) => c.map((f) => relative(ROOT, f)).sort())).toEqual([]);
  });

  it('nothing in the server imports the browser connector', () => {
    const offenders = sources.filter((f) => moduleOf(f) !== 'connector' && imports(readFileSync(f, 'utf8')).some((s) => s.includes('/connector/')));
    expect(offenders).toEqual([]);
  });
});
