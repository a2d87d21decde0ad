// A lesson's control values as they appear in the URL (#/lessons/<slug>?threads=4&stages=7), each
// checked against its control's range or choices; bad values are named and fall back to defaults.
import type { ControlValues, LessonControl } from '../../lessons/lessonFormat';
import { parseChoiceParam, parseIntParam } from '../queryParams';

export function readControlValues(
  controls: LessonControl[],
  query: URLSearchParams,
): { values: ControlValues; errors: string[] } {
  const values: ControlValues = {};
  const errors: string[] = [];
  for (const c of controls) {
    const parsed =
      c.kind === 'range'
        ? parseIntParam(query, c.id, { min: c.min, max: c.max, fallback: c.defaultValue })
        : parseChoiceParam(
            query,
            c.id,
            c.choices.map((x) => x.value),
            c.defaultValue,
          );
    values[c.id] = parsed.value;
    if (parsed.error) errors.push(parsed.error);
  }
  const known = new Set(controls.map((c) => c.id));
  for (const key of query.keys())
    if (!known.has(key) && key !== 'engine')
      errors.push(
        `${key} is not a control of this lesson (known: ${[...known, 'engine'].join(', ')})`,
      );
  return { values, errors };
}
