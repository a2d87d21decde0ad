// The model chart's exports: the chart as it is on the page, as a standalone SVG (its styles
// written in) or a PNG drawn from that, and its data — runs, sweep points and model curves — as CSV.
import { useState, type RefObject } from 'react';
import type { ChartPoint } from '../../engine/sweep';
import { standaloneSvg, svgToPng } from '../../export/chartImage';
import { chartCsv } from '../../export/csv';
import { download, exportName } from '../download';
import './lessonTools.css';

export function ChartExports(p: {
  /** Holds the chart's <svg class="model-chart">. */
  chart: RefObject<HTMLElement | null>;
  lessonSlug: string;
  lessonTitle: string;
  xLabel: string;
  yLabel: string;
  /** The CSV's column for the swept control's value: its URL parameter name. */
  xColumn: string;
  points: ChartPoint[];
  curves: Array<{ label: string; points: Array<[number, number]> }>;
}) {
  const [error, setError] = useState<string | null>(null);
  const name = (ext: string) => exportName([p.lessonSlug, 'chart'], new Date().toISOString(), ext);
  /** The chart's markup, standing alone; null (and a message) when there is no chart to export. */
  const svg = () => {
    const el = p.chart.current?.querySelector<SVGSVGElement>('svg.model-chart');
    if (!el) {
      setError('There is no chart on the page to export yet.');
      return null;
    }
    setError(null);
    const day = new Date().toISOString().slice(0, 10);
    return standaloneSvg(el, {
      title: `PipeLab — ${p.lessonTitle}: ${el.getAttribute('aria-label') ?? ''}`,
      description:
        `Exported from PipeLab on ${day}. Marks: filled ` +
        'circles = measured (real threads in the exporting browser), hollow diamonds = ' +
        'simulated (the discrete-event twin); lines = queueing models.',
      // The chart's own legend says which mark is which.
      heading: [
        `PipeLab — ${p.lessonTitle}`,
        `${p.yLabel} against ${p.xLabel.toLowerCase()} · exported ${day}`,
      ],
    });
  };
  return (
    <div className="chart-exports" data-testid="chart-exports">
      Export the chart:
      <button
        data-testid="export-svg"
        onClick={() => {
          const s = svg();
          if (s) download(name('svg'), s.text, 'image/svg+xml');
        }}
      >
        SVG
      </button>
      <button
        data-testid="export-png"
        onClick={async () => {
          const s = svg();
          if (!s) return;
          try {
            download(name('png'), await svgToPng(s.text, s.width, s.height), 'image/png');
          } catch (e) {
            setError(`The PNG could not be drawn: ${(e as Error).message}`);
          }
        }}
      >
        PNG
      </button>
      <button
        data-testid="export-chart-csv"
        onClick={() => download(name('csv'), chartCsv(p.points, p.curves, p.xColumn), 'text/csv')}
        title={`Runs and sweep points, and the model curves, against ${p.xLabel}`}
      >
        Data (CSV)
      </button>
      {error && (
        <span role="alert" className="notice error">
          {error}
        </span>
      )}
    </div>
  );
}
