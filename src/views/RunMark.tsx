// The mark of one run on a chart: runs differ by shape as well as fill, measured a filled circle,
// simulated a hollow diamond (model curves are lines), so a chart reads without colour too.
// Legend swatches pass no `data`, so they carry no data-kind: they are not data.
export interface RunMarkProps {
  kind: 'measured' | 'simulated';
  cx: number;
  cy: number;
  /** A series colour (fill of a measured mark, outline of both); the stylesheet's otherwise. A
   * style, not attributes: a chart's stylesheet rule for `.dot` would win over an attribute. */
  colour?: string;
  /** The mark's data attributes (data-kind is added); absent for legend swatches. */
  data?: Record<string, string | number>;
}

export function RunMark({ kind, cx, cy, colour, data }: RunMarkProps) {
  const attrs: Record<string, string | number> = data
    ? {
        'data-kind': kind,
        ...Object.fromEntries(Object.entries(data).map(([k, v]) => [`data-${k}`, v])),
      }
    : {};
  const paint = colour
    ? { style: { stroke: colour, fill: kind === 'measured' ? colour : '#fff' } }
    : {};
  if (kind === 'measured')
    return <circle cx={cx} cy={cy} r={5} className="dot measured" {...paint} {...attrs} />;
  return (
    <rect
      x={cx - 4}
      y={cy - 4}
      width={8}
      height={8}
      transform={`rotate(45 ${cx} ${cy})`}
      className="dot simulated"
      {...paint}
      {...attrs}
    />
  );
}
