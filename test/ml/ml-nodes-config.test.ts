/** `--ml-nodes` / THREADSEARCH_ML_NODES: inline specs, a JSON file, the default, and clear errors. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type ServerConfig } from '../../src/config/config.js';

const GB = 1024 ** 3;
const dir = mkdtempSync(join(tmpdir(), 'threadsearch-mlnodes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function nodes(argv: string[], env: NodeJS.ProcessEnv = {}) {
  return (loadConfig(argv, env) as ServerConfig).mlNodes;
}

describe('ML node inventory', () => {
  it('defaults to one node sized from this machine', () => {
    const [n, ...rest] = nodes([]);
    expect(rest).toEqual([]);
    expect(n.memoryBytes).toBe(totalmem());
    expect(n.allocatedProcessors).toBeGreaterThanOrEqual(1);
  });

  it('reads inline name:memory:processors specs from the flag or the environment', () => {
    expect(nodes(['--ml-nodes', 'ml-1:16gb:8,ml-2:8gb:4'])).toEqual([
      { name: 'ml-1', memoryBytes: 16 * GB, allocatedProcessors: 8 },
      { name: 'ml-2', memoryBytes: 8 * GB, allocatedProcessors: 4 },
    ]);
    expect(nodes([], { THREADSEARCH_ML_NODES: 'a:4gb:2' })).toEqual([{ name: 'a', memoryBytes: 4 * GB, allocatedProcessors: 2 }]);
  });

  it('reads a JSON file of nodes', () => {
    const file = join(dir, 'nodes.json');
    writeFileSync(file, JSON.stringify([{ name: 'big', memory: '64gb', allocated_processors: 32 }, { name: 'raw', memory: 5 * GB, allocated_processors: 1 }]));
    expect(nodes(['--ml-nodes', file])).toEqual([
      { name: 'big', memoryBytes: 64 * GB, allocatedProcessors: 32 },
      { name: 'raw', memoryBytes: 5 * GB, allocatedProcessors: 1 },
    ]);
  });

  it.each([
    ['ml-1:16gb', /entry 1 \[ml-1:16gb\] must be name:memory:allocated_processors/],
    ['ml-1:lots:8', /failed to parse setting \[memory of ML node \[ml-1\]\] with value \[lots\]/],
    ['ml-1:16gb:0', /allocated_processors of ML node \[ml-1\] must be an integer between 1 and 4096, got \[0\]/],
    ['ml-1:16gb:x', /allocated_processors of ML node \[ml-1\] must be an integer/],
    ['a:4gb:1,a:4gb:1', /ML node name \[a\] is used twice/],
    ['_x:4gb:1', /node name must be letters/],
  ])('refuses %s with a clear message', (spec, message) => {
    expect(() => loadConfig(['--ml-nodes', spec], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--ml-nodes', spec], {})).toThrow(message);
  });

  it('refuses unreadable, malformed or mistyped files', () => {
    expect(() => loadConfig(['--ml-nodes', join(dir, 'missing.json')], {})).toThrow(/cannot be read/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{not json');
    expect(() => loadConfig(['--ml-nodes', bad], {})).toThrow(/is not valid JSON/);
    writeFileSync(bad, JSON.stringify({ name: 'x' }));
    expect(() => loadConfig(['--ml-nodes', bad], {})).toThrow(/must be a JSON array/);
    writeFileSync(bad, JSON.stringify([{ name: 'x', memory: '4gb', allocated_processors: 1, gpu: true }]));
    expect(() => loadConfig(['--ml-nodes', bad], {})).toThrow(/entry 1 has unknown field \[gpu\]/);
    writeFileSync(bad, JSON.stringify([]));
    expect(() => loadConfig(['--ml-nodes', bad], {})).toThrow(/at least one ML node is needed/);
  });
});
