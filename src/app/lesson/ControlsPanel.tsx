// A lesson's controls: a slider + number per range control, radio buttons per choice control.
import type { ControlValues, LessonControl } from '../../lessons/controls';

export interface ControlsPanelProps {
  controls: LessonControl[];
  values: ControlValues;
  onChange: (id: string, value: number | string) => void;
}

export function ControlsPanel({ controls, values, onChange }: ControlsPanelProps) {
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
              value={values[c.id]}
              aria-label={c.label}
              data-control={c.id}
              onChange={(e) => onChange(c.id, Number(e.target.value))}
            />
            <output>
              {values[c.id]}
              {c.unit ? ` ${c.unit}` : ''}
            </output>
          </label>
        ) : (
          <fieldset key={c.id} className="choice-control" data-control={c.id}>
            <legend>{c.label}</legend>
            {c.choices.map((x) => (
              <label key={x.value}>
                <input
                  type="radio"
                  name={c.id}
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
