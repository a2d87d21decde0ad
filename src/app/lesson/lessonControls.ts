// A lesson's control values as they appear in the URL (#/lessons/<slug>?threads=4&stages=7), each
// checked against its control's range or choices; bad values are named and fall back to defaults.
import type { ControlValues, LessonControl } from '../../lessons/controls';
import { parseChoiceParam, parseIntParam, unknownParamErrors } from '../queryParams';

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
  errors.push(...unknownParamErrors(query, [...controls.map((c) => c.id), ...pageParams], noun));
  return { values, errors };
}
