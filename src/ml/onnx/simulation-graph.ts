/**
 * The simulation mode's BERT-base graph (bert-graph.ts `BERT_BASE`: ~110M parameters, ~440 MB as
 * fp32), generated locally from a fixed seed the first time a simulated deployment starts, into
 * `<data>/models/.simulation/`, never committed or downloaded. Written to a temporary file and
 * renamed, so concurrent threads never load a half-written graph; reused on later starts.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BERT_BASE, buildBertGraph } from './bert-graph.js';
import { encodeOnnxModel } from './onnx-writer.js';
import type { Simulation } from '../../dsl/index.js';

/** Bump when the graph or its weights change, so an old file is never reused. */
const GRAPH_VERSION = 1;

export function simulationGraphPath(dir: string, simulation: Simulation): string {
  return join(dir, `${simulation}-v${GRAPH_VERSION}.onnx`);
}

/** The graph's path, generating it first when missing (a few seconds and ~1 GB of transient memory). */
export function ensureSimulationGraph(dir: string, simulation: Simulation): string {
  const path = simulationGraphPath(dir, simulation);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const { chunks } = encodeOnnxModel(buildBertGraph(BERT_BASE).graph);
    const fd = openSync(tmp, 'w');
    try {
      for (const c of chunks) writeSync(fd, c);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
  return path;
}
