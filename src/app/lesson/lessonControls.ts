// A lesson's control values as they appear in the URL (#/lessons/<slug>?threads=4&stages=7), each
// checked against its control's range or choices; bad values are named and fall back to defaults.
import {
  allowedValues,
  rangeValue,
  type ControlValues,
  type LessonControl,
} from '../../lessons/controls';
import { valueShown } from '../../spec/words';
import { noValue, parseChoiceParam, unknownParamErrors } from '../queryParams';

/** Parameters every lesson page takes besides its controls. */
export const LESSON_PAGE_PARAMS = ['engine'] as const;

export function readControlValues(
  controls: LessonControl[],
  query: URLSearchParams,
  noun = 'a control of this lesson',
  pageParams: readonly string[] = LESSON_PAGE_PARAMS,
): { values: ControlValues; errors: string[] } {
  const values: ControlValues = {};
  const errors: string[] = [];
  for (const c of controls) {
    const parsed =
      c.kind === 'range'
        ? rangeParam(query, c)
        : parseChoiceParam(
            query,
            c.id,
            c.choices.map((x) => x.value),
            c.defaultValue,
          );
    values[c.id] = parsed.value;
    if (parsed.error) errors.push(parsed.error);
  }
  for (const name of pageParams) {
    const raw = query.get(name);
    const allowed = PAGE_PARAM_VALUES[name];
    if (raw !== null && allowed && !allowed.values.includes(raw))
      errors.push(
        `${name}=${valueShown(raw)} is not one of ${allowed.values.join(', ')} (${allowed.means}); ignored`,
      );
  }
  errors.push(...unknownParamErrors(query, [...controls.map((c) => c.id), ...pageParams], noun));
  return { values, errors };
}

/** The values a page parameter takes (`step` is a number, checked by the presenter). */
const PAGE_PARAM_VALUES: Record<string, { values: readonly string[]; means: string }> = {
  engine: {
    values: ['simulation'],
    means: 'engine=simulation runs the twin instead of real threads',
  },
  audience: { values: ['1'], means: "audience=1 is the presenter's audience window" },
};

/** A range control's URL value: absent → its default; empty or bad → its default and a message. */
function rangeParam(query: URLSearchParams, c: LessonControl & { kind: 'range' }) {
  const raw = query.get(c.id);
  if (raw === null) return { value: c.defaultValue, error: null };
  if (raw === '')
    return { value: c.defaultValue, error: noValue(c.id, allowedValues(c), c.defaultValue) };
  const parsed = rangeValue(c, raw);
  if ('value' in parsed) return { value: parsed.value, error: null };
  return { value: c.defaultValue, error: `${parsed.error}; using ${c.defaultValue}` };
}
