/**
 * The report writer: a folder with report.json, report.md and one SVG per chart, written under a
 * temporary name and renamed, so a failed run leaves nothing; each SVG is well-formed XML and holds
 * one line per series with a mark per measured point.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineChart } from '../../src/cli/report/charts.js';
import { writeReport } from '../../src/cli/report/report-writer.js';
import { tempFiles } from './cli-harness.js';

const dir = tempFiles({});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A strict-enough XML well-formedness check: every tag closes in order, attributes are quoted. */
export function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;
  let last = 0;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    if (/[<>]/.test(body.slice(last, m.index))) throw new Error(`stray markup before offset ${m.index}: ${body.slice(last, m.index).slice(0, 80)}`);
    last = tag.lastIndex;
    if (m[0].startsWith('<!')) continue;
    if (m[1] === '/') {
      if (stack.pop() !== m[2]) throw new Error(`</${m[2]}> closes the wrong element at offset ${m.index}`);
    } else if (m[4] !== '/') stack.push(m[2]);
  }
  if (/[<>]/.test(body.slice(last))) throw new Error('stray markup at the end');
  if (stack.length > 0) throw new Error(`unclosed elements: ${stack.join(', ')}`);
}

describe('report writer', () => {
  const chart = lineChart({
    name: 'throughput-vs-threads-shards', title: 'Maximum search throughput vs search threads',
    rows: [
      { threads: 1, qps: 310, shards: '1 shard' }, { threads: 2, qps: 540, shards: '1 shard' },
      { threads: 1, qps: 280, shards: '2 shards' }, { threads: 2, qps: 505, shards: '2 shards' },
    ],
    x: { field: 'threads', title: 'search threads' }, y: { field: 'qps', title: 'searches/s' }, series: { field: 'shards', title: 'shards' },
  });

  it('writes JSON, Markdown and an SVG chart that parses and holds every series and point', async () => {
    const out = join(dir, 'run1');
    const files = await writeReport(out, {
      command: 'capacity', title: 'a small run', params: { qps: 100 }, server: { threads: [1, 2] }, results: { points: 4 },
      markdown: 'Body text.', charts: [chart],
    });
    expect(files.map((f) => f.slice(out.length + 1))).toEqual(['report.json', 'report.md', 'throughput-vs-threads-shards.svg']);
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(json).toMatchObject({ command: 'capacity', title: 'a small run', params: { qps: 100 }, results: { points: 4 }, versions: { node: process.version } });
    expect(json.machine.cpus).toBeGreaterThan(0);
    expect(json.charts[0]).toMatchObject({ file: 'throughput-vs-threads-shards.svg', vega_lite: { mark: { type: 'line' } } });
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/^# a small run\n\n_.* UTC · threadsearch .* · Node v/);
    expect(md).toContain('Body text.');
    expect(md).toContain('![Maximum search throughput vs search threads](throughput-vs-threads-shards.svg)');

    const svg = readFileSync(join(out, 'throughput-vs-threads-shards.svg'), 'utf8');
    expect(() => assertWellFormedXml(svg)).not.toThrow();
    expect(svg).toMatch(/^<\?xml[^>]*>\n<svg /);
    // One line mark per series, one point per measurement, the axis titles and the legend.
    expect(svg.match(/aria-roledescription="line mark"/g) ?? []).toHaveLength(2);
    const points = [...svg.matchAll(/aria-label="search threads: (\d+); searches\/s: (\d+); shards: ([^;"]+)/g)].map((m) => `${m[3]}@${m[1]}=${m[2]}`);
    expect(new Set(points)).toEqual(new Set(['1 shard@1=310', '1 shard@2=540', '2 shards@1=280', '2 shards@2=505']));
    expect(svg).toContain('>search threads</text>');
    expect(svg).toContain('>1 shard</text>');
    expect(svg).toContain('>2 shards</text>');
  });

  it('refuses a non-empty folder before anything runs, and leaves no temporary folder behind', async () => {
    const out = join(dir, 'taken');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.txt'), 'x');
    await expect(writeReport(out, { command: 'bench', title: 't', params: {}, server: {}, results: {}, markdown: '', charts: [] })).rejects.toThrow(/exists and is not empty/);
    expect(readdirSync(out)).toEqual(['keep.txt']);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(existsSync(join(dir, 'run1', 'report.json'))).toBe(true);
  });
});
