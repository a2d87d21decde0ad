// HatchPattern: the diagonal hatching an SVG view fills "waiting" marks with (Timeline's blocked
// stretches, PackingGrid's barrier waits); each view colours it through its own `.hatch-bg` and
// `.hatch-line` rules in views.css.
import { useId } from 'react';

/** A unique pattern id for `fill={`url(#${id})`}` (React's ids carry colons, which url() rejects). */
export const useHatchId = (prefix: string) => `${prefix}-${useId().replace(/:/g, '')}`;

/** Goes inside the view's <defs>. */
export function HatchPattern({ id }: { id: string }) {
  return (
    <pattern
      id={id}
      width={6}
      height={6}
      patternUnits="userSpaceOnUse"
      patternTransform="rotate(45)"
    >
      <rect width={6} height={6} className="hatch-bg" />
      <line x1={0} y1={0} x2={0} y2={6} className="hatch-line" />
    </pattern>
  );
}
