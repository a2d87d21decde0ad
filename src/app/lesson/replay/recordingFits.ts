// Whether a recording can be replayed on this lesson page: it must come from this lesson, its
// control values must be valid ones, and this lesson must still give the recorded experiment at
// those values — else the views (drawn from the lesson's spec) would not match the recorded run.
// Each refusal says what differs and where the recording can be replayed.
import { applyControls, type ControlValues } from '../../../lessons/controls';
import type { Lesson } from '../../../lessons/loadLessons';
import type { Recording } from '../../../replay/recording';
import { routeHash } from '../../route';
import { readControlValues } from '../lessonControls';

export interface Refusal {
  message: string;
  /** Where this recording can be replayed instead. */
  link?: { href: string; text: string };
}

/** The first path where two JSON values differ (`stages[1].service.meanUs`), or null. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Object.is(a, b) ? null : path || '(the whole value)';
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const at = Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
    const d = firstDifference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      at,
    );
    if (d) return d;
  }
  return null;
}

/** The control values to show while replaying `rec` here, or why it cannot be replayed here. */
export function recordingFits(
  rec: Recording,
  lesson: Lesson,
): { values: ControlValues } | { refusal: Refusal } {
  const slug = rec.lesson?.slug ?? null;
  const adHoc = routeHash('/experiment', { spec: JSON.stringify(rec.spec) });
  if (slug !== lesson.slug) {
    const elsewhere = slug && slug !== 'experiment' ? `#/lessons/${slug}` : adHoc;
    return {
      refusal: {
        message: `This recording is of ${slug ? `the page "${slug}"` : 'no lesson'}, not this one ("${lesson.slug}"): replay it there.`,
        link: {
          href: elsewhere,
          text: `Open ${slug && slug !== 'experiment' ? slug : 'its experiment'}`,
        },
      },
    };
  }
  const query = new URLSearchParams(
    Object.entries(rec.lesson?.values ?? {}).map(([k, v]) => [k, String(v)]),
  );
  const read = readControlValues(lesson.controls, query, 'a control of this lesson');
  if (read.errors.length)
    return {
      refusal: {
        // The URL reader's fallback ("; using 2") does not apply: the recording is refused.
        message: `This recording's control values do not fit this lesson: ${read.errors.map((e) => e.replace(/; using .*$/, '')).join('; ')}.`,
      },
    };
  const spec = applyControls(lesson.experimentSource, lesson.controls, read.values);
  const differs = firstDifference(spec, rec.spec);
  if (differs)
    return {
      refusal: {
        message: `This lesson's experiment has changed since the recording (the spec differs at ${differs}), so its views would not match the recorded run.`,
        link: { href: adHoc, text: 'Replay it on its own experiment page' },
      },
    };
  return { values: read.values };
}
