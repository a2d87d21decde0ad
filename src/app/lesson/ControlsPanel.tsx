// A lesson's controls: a slider + number per range control (with an "unbounded" box where the
// control allows it), radio buttons per choice control.
import { useId } from 'react';
import { UNBOUNDED, type ControlValues, type LessonControl } from '../../lessons/controls';

export interface ControlsPanelProps {
  controls: LessonControl[];
  values: ControlValues;
  onChange: (id: string, value: number | string) => void;
}

/** A control's unit after its value: singular at 1 ("1 item", "1 phase"); "ms" and "µs" stay. */
export function unitFor(value: number | string, unit: string): string {
  return Number(value) === 1 && /^[a-z]{3,}s$/.test(unit) ? unit.slice(0, -1) : unit;
}

export function ControlsPanel({ controls, values, onChange }: ControlsPanelProps) {
  // Radio groups are page-wide by name: two panels showing one control (lesson 5's semi-buffer
  // size, in two sections) would otherwise share a group, and a click in one unchecked the other.
  const group = useId();
  return (
    <div className="controls lesson-controls">
      {controls.map((c) =>
        c.kind === 'range' ? (
          <label key={c.id} className="range-control">
            <span>{c.label}</span>
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
