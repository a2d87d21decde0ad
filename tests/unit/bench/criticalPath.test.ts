// The critical-path model behind the load benchmark and the budget guard: which components a
// lesson draws before it answers, where each lives, and what a manifest entry pulls in.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticClosure } from '../../../bench/load/criticalPath.mjs';
import { componentFiles, criticalComponents } from '../../../scripts/lib/routeModules.mjs';
import { COMPONENT_NAMES } from '../../../src/lessons/components';
import { criticalComponents as entryCritical } from '../../../src/lessons/lessonEntry';

const registry = readFileSync(resolve(__dirname, '../../../src/app/lesson/registry.ts'), 'utf8');

describe('criticalComponents', () => {
  it('takes the components down to the experiment panel, once each, not ::stage lines', () => {
    const md =
      '::queue-race\ntext\n::stage pipeline\n::measure{id=a}\n::queue-race\n::experiment\n::pipeline\n';
    expect(criticalComponents(md)).toEqual(['queue-race', 'measure', 'experiment']);
  });
  it('takes every component of a page without an experiment panel', () => {
    expect(criticalComponents('::pipeline\n::timeline\n')).toEqual(['pipeline', 'timeline']);
  });
  it('agrees with the app’s rule (lessonEntry.ts)', () => {
    const placed = ['wasm-fences', 'experiment', 'timeline'] as const;
    expect(criticalComponents(placed.map((n) => `::${n}`).join('\n'))).toEqual(
      entryCritical([...placed]),
    );
  });
});

describe('componentFiles', () => {
  it('finds a loader line for every component the lesson format accepts', () => {
    const files = componentFiles(registry);
    expect([...files.keys()].sort()).toEqual([...COMPONENT_NAMES].sort());
    expect(files.get('experiment')).toBe('src/app/lesson/components/ExperimentBlock.tsx');
    expect(files.get('measure')).toBe('src/app/measure/MeasureBlock.tsx');
  });
});

describe('staticClosure', () => {
  const manifest = {
    'index.html': { file: 'assets/index.js' },
    'src/Page.tsx': { file: 'assets/Page.js', imports: ['_core.js', 'index.html'] },
    '_core.js': { file: 'assets/core.js', imports: ['index.html'] },
  };
  it('follows static imports once each', () => {
    expect([...staticClosure(manifest, ['src/Page.tsx'])].sort()).toEqual([
      'assets/Page.js',
      'assets/core.js',
      'assets/index.js',
    ]);
  });
  it('names a module the manifest lacks', () => {
    expect(() => staticClosure(manifest, ['src/Gone.tsx'])).toThrow(/no src\/Gone\.tsx/);
  });
});
