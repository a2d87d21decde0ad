// Lesson prose → blocks of HTML and component slots, at build time: TeX via KaTeX (`$…$` inline,
// `$$…$$` display), markdown via marked, `::name` lines as slots for registered components, and
// sentences linked to checked claims (`[sentence](claim:id)`) marked with the claim's evidence,
// glossary terms (`[[text|id]]`, src/lessons/glossary.ts) marked for the page's definition tip, and
// `::stage name…` lines naming the views a section's presenter step shows.
import katex from 'katex';
import { marked } from 'marked';
import { claimSpan } from './claimMarks';
import type { CheckedClaim } from './claims';
import type { ControlValues } from './controls';
import { COMPONENT_NAMES, type ComponentName } from './components';
import { isTermId, TERM_IDS, TERM_MARK, termMark } from './glossary';

export type ProseBlock =
  | { kind: 'html'; html: string }
  /** `::name`, or `::measure{id=…}` with the measurement block it shows (`block`). */
  | { kind: 'component'; name: ComponentName; block?: string }
  /** `::stage a b ?id=v&id=v`: the views the presenter shows for this section (the lesson page
   * shows nothing for it), for a section that talks about a view placed in another one, and the
   * control values the presenter sets on stepping to it (null: none). */
  | { kind: 'stage'; names: ComponentName[]; settings: ControlValues | null };

/** Reads a `::stage` line's `?id=v&…` into control values, throwing on a bad one (loadLessons
 * checks them against the lesson's controls, as a URL's). */
export type SettingsReader = (query: string) => ControlValues;

/** A prose problem at a line of the lesson body (1-based, counted from the body's first line). */
export class ProseError extends Error {
  constructor(
    readonly line: number,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`line ${line}: ${problem}`, options);
  }
}

const MATH = /\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g;

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

const CLAIM_LINK = /<a href="claim:([^"]*)">([\s\S]*?)<\/a>/g;

/** Markdown with math: formulas are typeset first and kept away from the markdown parser. */
function renderMarkdown(
  source: string,
  firstLine: number,
  claims: Map<string, CheckedClaim>,
  cited: Set<string>,
): string {
  const typeset: string[] = [];
  const masked = source.replace(
    MATH,
    (match, display: string | undefined, inline: string | undefined, index: number) => {
      try {
        typeset.push(
          katex.renderToString((display ?? inline)!.trim(), {
            displayMode: display !== undefined,
            throwOnError: true,
            output: 'html',
          }),
        );
      } catch (e) {
        throw new ProseError(
          firstLine + lineOf(source, index) - 1,
          `bad formula ${match}: ${(e as Error).message}`,
          { cause: e },
        );
      }
      return `MATH${typeset.length - 1}END`;
    },
  );
  // Terms become inline HTML before markdown runs, so a term may sit inside a claim's sentence
  // (a link cannot hold another link).
  const termed = masked.replace(TERM_MARK, (_m, text: string, id: string | undefined, index) => {
    const term = id ?? text.trim();
    if (!isTermId(term)) {
      // Its place in the source (masking folds a formula's lines into one).
      const at = source.indexOf(id ? `|${id}]]` : `[[${text}]]`);
      throw new ProseError(
        firstLine + (at >= 0 ? lineOf(source, at) : lineOf(masked, index as number)) - 1,
        `[[${_m.slice(2, -2)}]]: ${term} is not a glossary term (src/lessons/glossary.ts: ${TERM_IDS.join(', ')})`,
      );
    }
    return termMark(term, text);
  });
  const html = (marked.parse(termed, { async: false }) as string).replace(
    CLAIM_LINK,
    (_m, id: string, text: string) => {
      const claim = claims.get(id);
      if (!claim)
        throw new ProseError(
          firstLine + lineOf(source, source.indexOf(`(claim:${id})`)) - 1,
          `claim:${id} is not a claim of this lesson (claims: ${[...claims.keys()].join(', ') || 'none'})`,
        );
      cited.add(id);
      return claimSpan(claim, text);
    },
  );
  return html.replace(/MATH(\d+)END/g, (_m, i: string) => typeset[Number(i)]);
}

/** Renders the body; every claim must be cited by a sentence (`[sentence](claim:id)`), and every
 * citation must name a claim, so no checked claim is left without the words it backs. */
export function renderProse(
  body: string,
  claims: CheckedClaim[] = [],
  readSettings?: SettingsReader,
  measureIds: readonly string[] = [],
): ProseBlock[] {
  const byId = new Map(claims.map((c) => [c.id, c]));
  const cited = new Set<string>();
  const blocks: ProseBlock[] = [];
  const lines = body.split('\n');
  let chunk: string[] = [];
  let chunkStart = 1;
  const flush = () => {
    const text = chunk.join('\n');
    if (text.trim())
      blocks.push({ kind: 'html', html: renderMarkdown(text, chunkStart, byId, cited) });
    chunk = [];
  };
  const known = (name: string, line: number, as: string): ComponentName => {
    if (!(COMPONENT_NAMES as string[]).includes(name))
      throw new ProseError(line, `unknown component ${as} (known: ${COMPONENT_NAMES.join(', ')})`);
    return name as ComponentName;
  };
  const placed = new Set<string>();
  /** `::measure{id=name}`: a block of the front matter's `measure`, placed once. */
  const measureBlockOf = (inside: string | undefined, line: number): string => {
    const id = /^\s*id\s*=\s*([a-z][a-z0-9-]*)\s*$/.exec(inside ?? '')?.[1];
    const known = measureIds.join(', ') || 'none';
    if (!id)
      throw new ProseError(
        line,
        `::measure names its block: ::measure{id=name} (blocks: ${known})`,
      );
    if (!measureIds.includes(id))
      throw new ProseError(
        line,
        `::measure{id=${id}}: no such block in measure (blocks: ${known})`,
      );
    if (placed.has(id)) throw new ProseError(line, `::measure{id=${id}} is placed twice`);
    placed.add(id);
    return id;
  };
  let stagedInSection = false;
  lines.forEach((line, i) => {
    const stage = /^::stage(\s.*)?$/.exec(line);
    if (stage) {
      const words = (stage[1] ?? '').trim().split(/\s+/).filter(Boolean);
      const query = words.at(-1)?.startsWith('?') ? words.pop()!.slice(1) : null;
      if (words.some((w) => w.startsWith('?')))
        throw new ProseError(i + 1, `::stage takes its settings last, once (?id=value&id=value)`);
      if (words.length === 0)
        throw new ProseError(
          i + 1,
          `::stage names no view (write ::stage name, e.g. ::stage model-chart)`,
        );
      if (stagedInSection)
        throw new ProseError(
          i + 1,
          `a second ::stage in one section (one line names all its views)`,
        );
      if (words.includes('experiment'))
        throw new ProseError(
          i + 1,
          `::stage lists experiment, which every presenter step shows already`,
        );
      stagedInSection = true;
      flush();
      let settings: ControlValues | null = null;
      if (query !== null) {
        if (!readSettings)
          throw new ProseError(i + 1, `::stage settings need the lesson's controls to check them`);
        try {
          settings = readSettings(query);
        } catch (e) {
          throw new ProseError(i + 1, `::stage ?${query}: ${(e as Error).message}`, { cause: e });
        }
      }
      blocks.push({
        kind: 'stage',
        names: words.map((n) => known(n, i + 1, `${n} in ::stage`)),
        settings,
      });
      return;
    }
    const measure = /^::measure(?:\{(.*)\})?\s*$/.exec(line);
    if (measure) {
      flush();
      blocks.push({ kind: 'component', name: 'measure', block: measureBlockOf(measure[1], i + 1) });
      return;
    }
    const directive = /^::([a-z-]+)\s*$/.exec(line);
    if (!directive) {
      // A section heading starts a block of its own: the presenter's steps are the sections.
      if (/^## /.test(line)) {
        flush();
        stagedInSection = false;
      }
      if (chunk.length === 0) chunkStart = i + 1;
      chunk.push(line);
      return;
    }
    flush();
    blocks.push({ kind: 'component', name: known(directive[1], i + 1, `::${directive[1]}`) });
  });
  flush();
  const unplaced = measureIds.filter((id) => !placed.has(id));
  if (unplaced.length)
    throw new ProseError(
      lines.length,
      `measure block ${unplaced[0]} is not placed in the prose (write a line ::measure{id=${unplaced[0]}})`,
    );
  const uncited = claims.filter((c) => !cited.has(c.id));
  if (uncited.length)
    throw new ProseError(
      lines.length,
      `claim ${uncited[0].id} is not cited in the prose (link its sentence: [sentence](claim:${uncited[0].id}))`,
    );
  return blocks;
}
