// Choice controls are radio groups, which a browser groups by name across the whole page: two
// panels showing the same control must not share a group (lesson 5 shows its semi-buffer size in
// two sections; a click in one unchecked the other's radio).
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { ControlsPanel, unitFor } from '../../../../src/app/lesson/ControlsPanel';
import type { LessonControl } from '../../../../src/lessons/controls';

test('two panels with the same choice control get radio groups of their own', () => {
  const semi = {
    kind: 'choice',
    id: 'semi',
    label: 'Semi-buffer size',
    choices: [
      { value: '1', label: '1 line', set: {} },
      { value: '4', label: '4 lines', set: {} },
    ],
    defaultValue: '1',
  } as unknown as LessonControl;
  const panel = <ControlsPanel controls={[semi]} values={{ semi: '1' }} onChange={() => {}} />;
  const html = renderToStaticMarkup(
    <>
      {panel}
      {panel}
    </>,
  );
  const names = [...html.matchAll(/type="radio" name="([^"]+)"/g)].map((m) => m[1]);
  expect(names).toHaveLength(4);
  expect(new Set(names).size).toBe(2); // one group per panel, both radios of a panel in it
  expect(names[0]).toBe(names[1]);
  expect(names[0]).not.toBe(names[2]);
});

test.each([
  [1, 'items', '1 item'],
  [2, 'items', '2 items'],
  [1, 'phases', '1 phase'],
  [1, 'µs', '1 µs'],
  [1, 'ms', '1 ms'],
  ['1', 'threads', '1 thread'],
])('a value of %s shows its unit %s as "%s"', (value, unit, shown) => {
  expect(`${value} ${unitFor(value, unit)}`).toBe(shown);
});
