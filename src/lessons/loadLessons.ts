// Build time (Node): reads lessons/NN-slug.md, splits front matter from prose, validates both and
// returns the lessons in order. Any problem throws one error naming the file and the field or line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { controlValue, evaluateClaims, type CheckedClaim } from './claims';
import { applyControls, type ControlValues, type LessonControl } from './controls';
import { evaluatePaperRows, type PaperRow } from './paper';
import { moveInlineStyles } from './inlineStyles';
import { SpecError } from '../spec/specFields';
import { validateLessonMeta, type LessonMeta } from './lessonFormat';
import { ProseError, renderProse, type ProseBlock } from './renderProse';

export interface Lesson extends Omit<LessonMeta, 'claims' | 'paper'> {
  /** Checked at load: each claim held at every point it names, with the numbers as evidence. */
  claims: CheckedClaim[];
  /** The paper's figures with the twin's at the paper's scale (computed at load). */
  paper: PaperRow[];
  /** Class → declarations for the prose's inline styles, moved into classes (inlineStyles.ts). */
  styles: Record<string, string>;
  /** From the file name: `01-pipelines-and-bubbles.md` → number 1, slug `pipelines-and-bubbles`. */
  number: number;
  slug: string;
  blocks: ProseBlock[];
}

const FILE_NAME = /^(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

export class LessonError extends Error {}

export function parseLesson(fileName: string, text: string): Lesson {
  const name = FILE_NAME.exec(fileName.split('/').pop()!);
  if (!name) throw new LessonError(`${fileName}: the file name must look like NN-some-slug.md`);
  const fm = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (!fm) throw new LessonError(`${fileName}: missing front matter (--- … --- at the top)`);
  let raw: unknown;
  try {
    raw = parseYaml(fm[1]);
  } catch (e) {
    throw new LessonError(`${fileName}: front matter is not valid YAML: ${(e as Error).message}`, {
      cause: e,
    });
  }
  try {
    const meta = validateLessonMeta(raw);
    const specAt = (values: ControlValues) =>
      applyControls(meta.experimentSource, meta.controls, values);
    const claims = evaluateClaims(meta.claims, specAt);
    const paper = evaluatePaperRows(meta.paper, specAt);
    const bodyFirstLine = fm[0].split('\n').length;
    let blocks: ProseBlock[];
    try {
      blocks = renderProse(
        text.slice(fm[0].length),
        claims,
        (query) => stageSettings(meta.controls, query),
        meta.measure.map((b) => b.id),
      );
    } catch (e) {
      if (!(e instanceof ProseError)) throw e;
      // Report the line in the file, not in the prose body.
      throw new ProseError(e.line + bodyFirstLine - 1, e.problem, { cause: e });
    }
    const placesPaper = blocks.some((b) => b.kind === 'component' && b.name === 'paper');
    if (paper.length > 0 && !placesPaper)
      throw new SpecError(
        'paper',
        'has rows, but the prose places no ::paper component to show them',
      );
    if (paper.length === 0 && placesPaper)
      throw new SpecError('paper', 'is missing: the prose places ::paper, which shows its rows');
    const styles = new Map<string, string>();
    const styled = blocks.map((b) =>
      b.kind === 'html' ? { ...b, html: moveInlineStyles(b.html, styles) } : b,
    );
    return {
      ...meta,
      claims,
      paper,
      number: Number(name[1]),
      slug: name[2],
      blocks: styled,
      styles: Object.fromEntries(styles),
    };
  } catch (e) {
    throw new LessonError(`${fileName}: ${(e as Error).message}`, { cause: e });
  }
}

/** A `::stage` line's settings (`id=value&…`), each checked like a URL parameter: a known
 * control, a value in its range or among its choices, given once. */
function stageSettings(controls: LessonControl[], query: string): ControlValues {
  const params = new URLSearchParams(query);
  const settings: ControlValues = {};
  for (const id of new Set(params.keys())) {
    if (params.getAll(id).length > 1) throw new Error(`${id} is given more than once`);
    settings[id] = controlValue(controls, id, params.get(id), '');
  }
  if (Object.keys(settings).length === 0) throw new Error('names no control (?id=value&id=value)');
  return settings;
}

/** The lesson files of a folder, in order (README.md describes the folder and is not a lesson). */
export function lessonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .sort()
    .map((f) => join(dir, f));
}

/** Every lesson that validates, and one message per file that does not: the dev server shows
 * the messages in the page and keeps serving the good lessons; the build fails on any. */
export function loadLessonsReport(
  dir: string,
  root: string = dir,
): { lessons: Lesson[]; errors: string[] } {
  const lessons: Lesson[] = [];
  const errors: string[] = [];
  const seen = new Map<string, string>();
  for (const file of lessonFiles(dir)) {
    const name = relative(root, file);
    try {
      const lesson = parseLesson(name, readFileSync(file, 'utf8'));
      const other = seen.get(lesson.slug) ?? seen.get(`#${lesson.number}`);
      if (other) throw new LessonError(`${name}: number or slug also used by ${other}`);
      seen.set(lesson.slug, name).set(`#${lesson.number}`, name);
      lessons.push(lesson);
    } catch (e) {
      if (!(e instanceof LessonError)) throw e;
      errors.push(e.message);
    }
  }
  return { lessons, errors };
}

/** The lessons of a folder; throws the first problem (the build and the tests use this). */
export function loadLessons(dir: string, root: string = dir): Lesson[] {
  const { lessons, errors } = loadLessonsReport(dir, root);
  if (errors.length) throw new LessonError(errors[0]);
  return lessons;
}
