/**
 * Every `bench`, `capacity` and `eval` run leaves one folder: `report.json` (raw numbers, machine
 * facts, server config, versions), `report.md` (the human summary, charts embedded) and one SVG per
 * chart. The folder is built under a temporary name and renamed into place, so a run that fails
 * or is interrupted leaves no half-written report.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { CliError, EXIT } from '../cli-error.js';
import { packageVersion } from '../paths.js';
import { renderSvg, type Chart } from './charts.js';
import { machineInfo, type MachineInfo } from './machine.js';

export interface ReportInput {
  command: 'bench' | 'capacity' | 'eval';
  title: string;
  /** The command line's parameters. */
  params: Record<string, unknown>;
  /** The server(s) measured: URL, version, settings (threads, shards…). */
  server: Record<string, unknown>;
  /** Every measured number. */
  results: unknown;
  /** Markdown body sections after the title and the machine line (charts are appended). */
  markdown: string;
  charts: readonly Chart[];
}

export interface MachineFacts extends MachineInfo {
  loadavg_1m: number;
  free_mem_gb: number;
}

export function machineFacts(): MachineFacts {
  return { ...machineInfo(), loadavg_1m: Math.round(os.loadavg()[0] * 100) / 100, free_mem_gb: Math.round((os.freemem() / 2 ** 30) * 10) / 10 };
}

/** A fresh default folder name: `reports/<command>-<UTC date and time>`. */
export function defaultReportDir(command: string, now = new Date()): string {
  return join('reports', `${command}-${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}`);
}

/** Refuses an existing non-empty folder before a run starts (so a long run does not fail at the end). */
export function checkReportDir(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new CliError(`report folder [${dir}] exists and is not empty; pass another --out`, EXIT.usage);
}

export async function writeReport(dir: string, input: ReportInput): Promise<string[]> {
  checkReportDir(dir);
  const created = new Date().toISOString();
  const machine = machineFacts();
  const versions = { threadsearch: packageVersion(), node: process.version };
  const svgs = await Promise.all(input.charts.map(async (c) => ({ chart: c, svg: await renderSvg(c) })));
  const json = {
    command: input.command, title: input.title, created, machine, versions,
    params: input.params, server: input.server, results: input.results,
    charts: input.charts.map((c) => ({ file: `${c.name}.svg`, title: c.title, vega_lite: c.spec })),
  };
  const md = [
    `# ${input.title}`,
    '',
    `_${created.slice(0, 16).replace('T', ' ')} UTC · threadsearch ${versions.threadsearch} · Node ${machine.node} · ${machine.cpus} × ${machine.cpuModel} · ${machine.totalMemGB} GB · load average ${machine.loadavg_1m} at the end_`,
    '',
    input.markdown.trim(),
    '',
    ...input.charts.flatMap((c) => [`![${c.title}](${c.name}.svg)`, '']),
    'Raw numbers, machine facts, server settings and versions: `report.json`.',
    '',
  ].join('\n');

  const target = resolve(dir);
  const tmp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    writeFileSync(join(tmp, 'report.json'), JSON.stringify(json, null, 2) + '\n');
    writeFileSync(join(tmp, 'report.md'), md);
    for (const { chart, svg } of svgs) writeFileSync(join(tmp, `${chart.name}.svg`), svg);
    if (existsSync(target)) rmSync(target, { recursive: true }); // empty, checked above
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return ['report.json', 'report.md', ...svgs.map((s) => `${s.chart.name}.svg`)].map((f) => join(dir, f));
}
