/**
 * The simulated ML node inventory (`--ml-nodes` / THREADSEARCH_ML_NODES): inline
 * `name:memory:allocated_processors[,…]` (e.g. `ml-1:16gb:8,ml-2:8gb:4`) or the path of a JSON
 * file `[{"name", "memory", "allocated_processors"}]` (memory as a byte size string or a number
 * of bytes). Default: one node sized from this machine. Every problem is a ConfigError naming it.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { parseByteSize } from '../common/byte-size.js';

/** Same shape as ml/'s MlNodeSpec (config/ may not import ml/). */
export interface MlNodeConfig {
  readonly name: string;
  readonly memoryBytes: number;
  readonly allocatedProcessors: number;
}

export class MlNodesConfigError extends Error {}

/** The default single node: this machine's memory and cores, named like the server's node. */
export function defaultMlNodes(nodeName = 'threadsearch-0'): MlNodeConfig[] {
  return [{ name: nodeName, memoryBytes: totalmem(), allocatedProcessors: Math.max(1, availableParallelism()) }];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_PROCESSORS = 4096;

function node(name: unknown, memory: unknown, processors: unknown, where: string): MlNodeConfig {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new MlNodesConfigError(`${where}: node name must be letters, digits, '_', '.' or '-' (not starting with a symbol), got [${String(name)}]`);
  }
  let memoryBytes: number;
  if (typeof memory === 'number' && Number.isSafeInteger(memory) && memory > 0) memoryBytes = memory;
  else if (typeof memory === 'string') {
    try {
      memoryBytes = parseByteSize(memory, `memory of ML node [${name}]`);
    } catch (e) {
      throw new MlNodesConfigError(`${where}: ${(e as Error).message}`);
    }
  } else throw new MlNodesConfigError(`${where}: memory of ML node [${name}] must be a size such as 16gb, got [${String(memory)}]`);
  if (!(memoryBytes > 0) || !Number.isSafeInteger(memoryBytes)) throw new MlNodesConfigError(`${where}: memory of ML node [${name}] must be positive, got [${String(memory)}]`);
  const p = typeof processors === 'string' && /^\d+$/.test(processors) ? Number(processors) : processors;
  if (typeof p !== 'number' || !Number.isInteger(p) || p < 1 || p > MAX_PROCESSORS) {
    throw new MlNodesConfigError(`${where}: allocated_processors of ML node [${name}] must be an integer between 1 and ${MAX_PROCESSORS}, got [${String(processors)}]`);
  }
  return { name, memoryBytes, allocatedProcessors: p };
}

function checkUnique(nodes: MlNodeConfig[], where: string): MlNodeConfig[] {
  if (nodes.length === 0) throw new MlNodesConfigError(`${where}: at least one ML node is needed`);
  const seen = new Set<string>();
  for (const n of nodes) {
    if (seen.has(n.name)) throw new MlNodesConfigError(`${where}: ML node name [${n.name}] is used twice`);
    seen.add(n.name);
  }
  return nodes;
}

/**
 * Inline specs unless the value looks like a file (ends in .json or contains a path separator) or
 * is a JSON list (what a YAML list of nodes in threadsearch.yml arrives as).
 */
export function parseMlNodes(raw: string): MlNodeConfig[] {
  const value = raw.trim();
  if (value.startsWith('[')) return nodesFromJson(parseJsonNodes(value, 'ml.nodes'), 'ml.nodes');
  if (value.endsWith('.json') || value.includes('/')) return parseMlNodesFile(value);
  const nodes = value.split(',').map((spec, i) => {
    const parts = spec.trim().split(':');
    if (parts.length !== 3) {
      throw new MlNodesConfigError(`--ml-nodes: entry ${i + 1} [${spec.trim()}] must be name:memory:allocated_processors, e.g. ml-1:16gb:8`);
    }
    return node(parts[0], parts[1], parts[2], '--ml-nodes');
  });
  return checkUnique(nodes, '--ml-nodes');
}

function parseMlNodesFile(path: string): MlNodeConfig[] {
  const where = `--ml-nodes file [${path}]`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new MlNodesConfigError(`${where}: cannot be read: ${(e as Error).message}`);
  }
  return nodesFromJson(parseJsonNodes(text, where), where);
}

function parseJsonNodes(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new MlNodesConfigError(`${where}: is not valid JSON: ${(e as Error).message}`);
  }
}

function nodesFromJson(json: unknown, where: string): MlNodeConfig[] {
  if (!Array.isArray(json)) throw new MlNodesConfigError(`${where}: must be a JSON array of {"name", "memory", "allocated_processors"}`);
  const nodes = json.map((entry, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new MlNodesConfigError(`${where}: entry ${i + 1} must be an object`);
    const e = entry as Record<string, unknown>;
    for (const k of Object.keys(e)) {
      if (k !== 'name' && k !== 'memory' && k !== 'allocated_processors') throw new MlNodesConfigError(`${where}: entry ${i + 1} has unknown field [${k}]`);
    }
    return node(e.name, e.memory, e.allocated_processors, `${where} entry ${i + 1}`);
  });
  return checkUnique(nodes, where);
}
