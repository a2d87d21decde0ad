// A lesson's controls: a slider + number per range control (with an "unbounded" box where the
// control allows it; on a log scale with the exact value in a box beside it where the control
// spans decades, logSlider.ts), radio buttons per choice control.
import { useContext, useId } from 'react';
import { UNBOUNDED, type ControlValues, type LessonControl } from '../../lessons/controls';
import { isLogControl, POSITIONS, positionOf, valueAt } from './logSlider';
import { ShownControls } from './shownControls';

export interface ControlsPanelProps {
  controls: LessonControl[];
  values: ControlValues;
  onChange: (id: string, value: number | string) => void;
}

/** A control's unit after its value: singular at 1 ("1 item", "1 phase"); "ms" and "µs" stay. */
export function unitFor(value: number | string, unit: string): string {
  return Number(value) === 1 && /^[a-z]{3,}s$/.test(unit) ? unit.slice(0, -1) : unit;
}

/** On a presenter's slide, a choice with more options than this is a list, not radios. */
const MAX_SLIDE_RADIOS = 4;

export function ControlsPanel({ controls: all, values, onChange }: ControlsPanelProps) {
  // On a presenter's slide only the step's controls and the first (shownControls.ts).
  const shown = useContext(ShownControls);
  const controls = shown ? all.filter((c, i) => i === 0 || shown.has(c.id)) : all;
  // Radio groups are page-wide by name: two panels showing one control (lesson 5's semi-buffer
  // size, in two sections) would otherwise share a group, and a click in one unchecked the other.
  const group = useId();
  return (
    <div className="controls lesson-controls">
      {controls.map((c) =>
        c.kind === 'range' ? (
          <label key={c.id} className="range-control">
            <span>{c.label}</span>
            {isLogControl(c) ? (
              <>
                <input
                  type="range"
                  min={0}
                  max={POSITIONS}
                  step={1}
                  value={positionOf(c, values[c.id] === UNBOUNDED ? c.max : Number(values[c.id]))}
                  disabled={values[c.id] === UNBOUNDED}
                  aria-label={`${c.label} (log scale)`}
                  aria-valuetext={`${values[c.id]}${c.unit ? ` ${unitFor(values[c.id], c.unit)}` : ''}`}
                  data-log-scale={c.id}
                  onChange={(e) => onChange(c.id, valueAt(c, Number(e.target.value)))}
                />
                {/* The exact value, typed or stepped by the control's step. */}
                <input
                  type="number"
                  className="exact-value"
                  min={c.min}
                  max={c.max}
                  step={c.step}
                  value={values[c.id] === UNBOUNDED ? '' : values[c.id]}
                  disabled={values[c.id] === UNBOUNDED}
                  aria-label={c.label}
                  data-control={c.id}
                  onChange={(e) => {
                    const v = Number(e.target.value);
                    if (e.target.value !== '' && Number.isInteger(v) && v >= c.min && v <= c.max)
                      onChange(c.id, v);
                  }}
                />
                {c.unit && values[c.id] !== UNBOUNDED && (
                  <span className="unit">{unitFor(values[c.id], c.unit)}</span>
                )}
              </>
            ) : (
              <>
                <input
                  type="range"
                  min={c.min}
                  max={c.max}
                  step={c.step}
                  value={values[c.id] === UNBOUNDED ? c.max : values[c.id]}
                  disabled={values[c.id] === UNBOUNDED}
                  aria-label={c.label}
                  data-control={c.id}
                  onChange={(e) => onChange(c.id, Number(e.target.value))}
                />
                <output>
                  {values[c.id]}
                  {c.unit && values[c.id] !== UNBOUNDED ? ` ${unitFor(values[c.id], c.unit)}` : ''}
                </output>
              </>
            )}
            {c.unbounded && (
              <span className="unbounded-toggle">
                <input
                  type="checkbox"
                  aria-label={`${c.label}: ${UNBOUNDED}`}
                  data-control={`${c.id}-unbounded`}
                  checked={values[c.id] === UNBOUNDED}
                  onChange={(e) =>
                    onChange(
                      c.id,
                      e.target.checked
                        ? UNBOUNDED
                        : c.defaultValue === UNBOUNDED
                          ? c.max
                          : c.defaultValue,
                    )
                  }
                />
                {UNBOUNDED}
              </span>
            )}
          </label>
        ) : shown && c.choices.length > MAX_SLIDE_RADIOS ? (
          // On a slide a long list of radios wraps into rows of 24 px text that push the views
          // below their share of the screen (lesson 6's seven graphs took three rows at
          // 1280×720): one line, a list to open.
          <label key={c.id} className="choice-control choice-select" data-control={c.id}>
            <span>{c.label}</span>
            <select value={String(values[c.id])} onChange={(e) => onChange(c.id, e.target.value)}>
              {c.choices.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <fieldset key={c.id} className="choice-control" data-control={c.id}>
            <legend>{c.label}</legend>
            {c.choices.map((x) => (
              <label key={x.value}>
                <input
                  type="radio"
                  name={`${group}-${c.id}`}
                  value={x.value}
                  checked={values[c.id] === x.value}
                  onChange={() => onChange(c.id, x.value)}
                />
                {x.label}
              </label>
            ))}
          </fieldset>
        ),
      )}
    </div>
  );
}
