// Controls spanning decades slide on a log scale (issue 39): a batch size of 64 sits mid-way along
// 1..4096 (linear, 1.5% from the left), the ends are exact, every position gives a value on the
// control's step grid, and the exact value is typed or stepped in a number box beside the slider.
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { ControlsPanel } from '../../../../src/app/lesson/ControlsPanel';
import { isLogControl, POSITIONS, positionOf, valueAt } from '../../../../src/app/lesson/logSlider';
import type { RangeControl } from '../../../../src/lessons/controls';

const batch: RangeControl = {
  kind: 'range',
  id: 'batch',
  label: 'Batch size',
  targets: ['batchItems'],
  min: 1,
  max: 4096,
  step: 1,
  unit: 'items',
  defaultValue: 64,
};

test('64 of 1..4096 sits mid-way; the ends are exact; values stay on the grid', () => {
  expect(isLogControl(batch)).toBe(true);
  expect(isLogControl({ min: 1, max: 16 })).toBe(false);
  expect(positionOf(batch, 64)).toBe(POSITIONS / 2);
  expect(valueAt(batch, 0)).toBe(1);
  expect(valueAt(batch, POSITIONS)).toBe(4096);
  expect(valueAt(batch, positionOf(batch, 64))).toBe(64);
  const items = { min: 20, max: 100_000, step: 20 };
  for (let p = 0; p <= POSITIONS; p += 37) {
    const v = valueAt(items, p);
    expect(v % 20).toBe(0);
    expect(v).toBeGreaterThanOrEqual(20);
    expect(v).toBeLessThanOrEqual(100_000);
  }
});

test('the panel draws a log slider and the exact value in a number box', () => {
  const html = renderToStaticMarkup(
    <ControlsPanel controls={[batch]} values={{ batch: 64 }} onChange={() => {}} />,
  );
  expect(html).toMatch(/type="range" min="0" max="1000" step="1"[^>]*value="500"/);
  expect(html).toMatch(/type="number"[^>]*min="1" max="4096" step="1"[^>]*value="64"/);
  expect(html).toContain('aria-valuetext="64 items"');
});
