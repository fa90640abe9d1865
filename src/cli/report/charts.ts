/**
 * The report charts, as Vega-Lite specifications rendered to SVG headlessly (vega's `toSVG` with
 * no canvas: text is measured by estimate, which is fine for static report images). Each chart is
 * a line per series over the measured points, with the points marked — every mark is a
 * measurement, nothing is interpolated beyond the lines between them.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export interface Chart {
  /** File name without extension: `<name>.svg`. */
  name: string;
  title: string;
  spec: TopLevelSpec;
}

export interface LineChartInput {
  name: string;
  title: string;
  rows: ReadonlyArray<Record<string, string | number>>;
  x: { field: string; title: string; log?: boolean };
  y: { field: string; title: string; log?: boolean };
  /** The field whose values are the series (one line and one legend entry each). */
  series: { field: string; title: string };
}

export function lineChart(c: LineChartInput): Chart {
  const scale = (log?: boolean) => (log ? { type: 'log' as const } : { zero: true });
  return {
    name: c.name,
    title: c.title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      title: c.title,
      width: 480,
      height: 280,
      data: { values: c.rows.map((r) => ({ ...r })) },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: c.x.field, type: 'quantitative', title: c.x.title, scale: scale(c.x.log) },
        y: { field: c.y.field, type: 'quantitative', title: c.y.title, scale: scale(c.y.log) },
        color: { field: c.series.field, type: 'nominal', title: c.series.title },
        tooltip: [{ field: c.series.field }, { field: c.x.field }, { field: c.y.field }],
      },
      config: { font: 'Helvetica, Arial, sans-serif', background: 'white' },
    } as TopLevelSpec,
  };
}

/** Renders a chart to a standalone SVG document. */
export async function renderSvg(chart: Chart): Promise<string> {
  const view = new vega.View(vega.parse(compile(chart.spec).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return svg.startsWith('<?xml') ? svg : `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`;
  } finally {
    view.finalize();
  }
}
