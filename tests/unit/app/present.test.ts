// Presenter mode's pure parts: a lesson cut into steps at its sections with their notes and views,
// the views a step's stage shows, and which key does what (never a key that a focused control
// needs).
import { describe, expect, test } from 'vitest';
import { mainView, presenterSteps, stageViews } from '../../../src/app/present/steps';
import { actionForKey } from '../../../src/app/present/presentKeys';
import { renderProse, type ProseBlock } from '../../../src/lessons/renderProse';

const html = (h: string): ProseBlock => ({ kind: 'html', html: h });
const slot = (
  name: 'experiment' | 'pipeline' | 'timeline' | 'model-chart' | 'paper' | 'sizing',
): ProseBlock => ({
  kind: 'component',
  name,
});

describe('presenterSteps', () => {
  const lesson = {
    title: 'Bubbles',
    blocks: [
      html('<p>Intro.</p>'),
      slot('experiment'),
      html('<p>More intro.</p>\n<!-- notes: say hello -->'),
      slot('pipeline'),
      html('<h2 id="model">The <em>model</em></h2>\n<p>Formula.</p>'),
      slot('model-chart'),
      html('<h2>End</h2><p>Bye.</p>'),
    ],
  };
  test('the introduction, then one step per section, prose joined, notes taken out', () => {
    const steps = presenterSteps(lesson);
    expect(steps.map((s) => s.title)).toEqual(['Bubbles', 'The model', 'End']);
    expect(steps[0].html).toContain('<p>Intro.</p>');
    expect(steps[0].html).toContain('<p>More intro.</p>');
    expect(steps[0].html).not.toContain('notes:');
    expect(steps[0].notes).toBe('say hello');
    expect(steps[1].notes).toBeNull();
  });
  test('each step lists the views its section places, the experiment panel left out', () => {
    expect(presenterSteps(lesson).map((s) => s.views)).toEqual([['pipeline'], ['model-chart'], []]);
  });
  test("a step's stage: the panel, then its own views, else the lesson's main view and chart", () => {
    const withPaper = {
      title: 'Sizing',
      blocks: [
        ...lesson.blocks,
        html('<h2>Size it</h2><p>The button…</p>'),
        slot('sizing'),
        html('<h2>Paper</h2>'),
        slot('paper'),
        slot('paper'),
      ],
    };
    const steps = presenterSteps(withPaper);
    // The experiment panel first, except above the paper's table, which needs the room.
    expect(steps.map((s) => stageViews(withPaper, s))).toEqual([
      ['experiment', 'pipeline'],
      ['experiment', 'model-chart'],
      ['experiment', 'pipeline', 'model-chart'],
      ['experiment', 'sizing'],
      ['paper'],
    ]);
    const bare = { title: 'Bare', blocks: [html('<p>Only prose.</p>'), slot('experiment')] };
    expect(stageViews(bare, presenterSteps(bare)[0])).toEqual(['experiment']);
  });
  test("a `::stage` line sets its step's views, on its own or over the views the section places", () => {
    const staged = {
      title: 'Staged',
      blocks: [
        html('<p>Intro.</p>'),
        slot('experiment'),
        slot('pipeline'),
        html('<h2>Talk</h2><p>About the chart.</p>'),
        { kind: 'stage', names: ['model-chart', 'timeline'], settings: null } as ProseBlock,
        html('<h2>Both</h2><p>Placed and staged.</p>'),
        slot('timeline'),
        { kind: 'stage', names: ['paper'], settings: { threads: 4 } } as ProseBlock,
        html("<h2>Next</h2><p>A stage line is its section's only.</p>"),
        slot('model-chart'),
      ],
    };
    const steps = presenterSteps(staged);
    expect(steps.map((s) => s.views)).toEqual([
      ['pipeline'],
      ['model-chart', 'timeline'],
      ['paper'],
      ['model-chart'],
    ]);
    expect(stageViews(staged, steps[1])).toEqual(['experiment', 'model-chart', 'timeline']);
    expect(stageViews(staged, steps[2])).toEqual(['paper']);
    expect(steps[1].html).not.toContain('stage');
  });
  test('a two-sided ::stage-breakdown line places that component; it is no ::stage line', () => {
    const blocks = renderProse('Intro\n\n::stage-breakdown\n\n## Next\n\n::stage sizing\n');
    expect(blocks.filter((b) => b.kind !== 'html')).toEqual([
      { kind: 'component', name: 'stage-breakdown' },
      { kind: 'stage', names: ['sizing'], settings: null },
    ]);
  });
  test("a `::stage` line's settings come last, read by the lesson's reader, and reach its step", () => {
    const read = (q: string) => Object.fromEntries(new URLSearchParams(q));
    const blocks = renderProse(
      'Intro\n\n## Next\n\n::stage sizing ?npTh=8&queue=unbounded\n',
      [],
      read,
    );
    expect(blocks.at(-1)).toEqual({
      kind: 'stage',
      names: ['sizing'],
      settings: { npTh: '8', queue: 'unbounded' },
    });
    expect(presenterSteps({ title: 'T', blocks }).map((s) => s.settings)).toEqual([
      null,
      { npTh: '8', queue: 'unbounded' },
    ]);
    expect(() => renderProse('::stage sizing ?a=1 timeline\n', [], read)).toThrow(
      'line 1: ::stage takes its settings last, once (?id=value&id=value)',
    );
    expect(() => renderProse('::stage sizing ?a=1\n')).toThrow(
      "line 1: ::stage settings need the lesson's controls to check them",
    );
  });
  test('the main view is the first view of the run; the timeline only when nothing else', () => {
    expect(mainView(lesson)).toBe('pipeline');
    expect(mainView({ blocks: [slot('experiment'), slot('timeline'), slot('model-chart')] })).toBe(
      'timeline',
    );
    expect(mainView({ blocks: [slot('experiment')] })).toBeNull();
  });
});

describe('actionForKey', () => {
  test.each([
    [{ key: 'ArrowRight' }, 'next'],
    [{ key: 'PageUp' }, 'prev'],
    [{ key: ' ' }, 'run-pause'],
    [{ key: 's' }, 'sweep'],
    [{ key: '?' }, 'help'],
    [{ key: 'Escape' }, 'close'],
    [{ key: 'x' }, null],
    [{ key: 's', ctrlKey: true }, null],
    // Held: the steps run on, a toggle does not flip back and forth.
    [{ key: 'ArrowRight', repeat: true }, 'next'],
    [{ key: ' ', repeat: true }, null],
    [{ key: '?', repeat: true }, null],
    // A slider keeps its arrows, a radio its arrows and space; letters still act, and space on a
    // slider (which does nothing with it) runs.
    [{ key: 'ArrowRight', targetTag: 'INPUT', targetType: 'range' }, null],
    [{ key: ' ', targetTag: 'INPUT', targetType: 'range' }, 'run-pause'],
    [{ key: ' ', targetTag: 'INPUT', targetType: 'radio' }, null],
    [{ key: 's', targetTag: 'INPUT', targetType: 'range' }, 'sweep'],
    // A text field takes every key but Escape; a button takes space.
    [{ key: 's', targetTag: 'INPUT', targetType: 'number' }, null],
    [{ key: 'Escape', targetTag: 'INPUT', targetType: 'number' }, 'close'],
    [{ key: ' ', targetTag: 'BUTTON' }, null],
    [{ key: 'ArrowRight', targetTag: 'BUTTON' }, 'next'],
    // A checkbox (the queue's "unbounded") takes space only: arrows and letters still act.
    [{ key: ' ', targetTag: 'INPUT', targetType: 'checkbox' }, null],
    [{ key: 'ArrowRight', targetTag: 'INPUT', targetType: 'checkbox' }, 'next'],
    [{ key: 's', targetTag: 'INPUT', targetType: 'checkbox' }, 'sweep'],
  ])('%o → %s', (press, action) => {
    expect(actionForKey(press)).toBe(action);
  });
});
