// The two axis titles of a chart: x centred under the plot, y turned up along its left edge.
// Positions come from the plot's edges in px, so each chart keeps its own padding.

export interface AxisTitlesProps {
  x: string;
  y: string;
  /** The plot's edges, px. */
  leftPx: number;
  rightPx: number;
  topPx: number;
  bottomPx: number;
  /** The drawing's height, px (the x title sits just above its bottom). */
  heightPx: number;
}

export function AxisTitles(p: AxisTitlesProps) {
  return (
    <>
      <text
        x={(p.leftPx + p.rightPx) / 2}
        y={p.heightPx - 8}
        textAnchor="middle"
        className="axis-label"
      >
        {p.x}
      </text>
      <text
        transform={`translate(14,${(p.topPx + p.bottomPx) / 2}) rotate(-90)`}
        textAnchor="middle"
        className="axis-label"
      >
        {p.y}
      </text>
    </>
  );
}
