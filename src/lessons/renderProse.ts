// Lesson prose → blocks of HTML and component slots, at build time: TeX via KaTeX (`$…$` inline,
// `$$…$$` display), markdown via marked, and `::name` lines as slots for registered components.
import katex from 'katex';
import { marked } from 'marked';
import { COMPONENTS, type ComponentName } from './lessonFormat';

export type ProseBlock =
  { kind: 'html'; html: string } | { kind: 'component'; name: ComponentName };

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

/** Markdown with math: formulas are typeset first and kept away from the markdown parser. */
function renderMarkdown(source: string, firstLine: number): string {
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
  const html = marked.parse(masked, { async: false }) as string;
  return html.replace(/MATH(\d+)END/g, (_m, i: string) => typeset[Number(i)]);
}

export function renderProse(body: string): ProseBlock[] {
  const blocks: ProseBlock[] = [];
  const lines = body.split('\n');
  let chunk: string[] = [];
  let chunkStart = 1;
  const flush = () => {
    const text = chunk.join('\n');
    if (text.trim()) blocks.push({ kind: 'html', html: renderMarkdown(text, chunkStart) });
    chunk = [];
  };
  lines.forEach((line, i) => {
    const directive = /^::([a-z-]+)\s*$/.exec(line);
    if (!directive) {
      if (chunk.length === 0) chunkStart = i + 1;
      chunk.push(line);
      return;
    }
    const name = directive[1];
    if (!(COMPONENTS as readonly string[]).includes(name))
      throw new ProseError(i + 1, `unknown component ::${name} (known: ${COMPONENTS.join(', ')})`);
    flush();
    blocks.push({ kind: 'component', name: name as ComponentName });
  });
  flush();
  return blocks;
}
